import Testing
import TomoCore
@testable import TomoTemplates

@Suite struct SmokeTests {
    @Test func rendersAVariable() throws {
        let template = try Template(source: "Hi {{name}}", name: "t")
        let output = try TemplateLibrary().render(template, context: .object(["name": .string("A")]))
        #expect(String(decoding: output, as: UTF8.self) == "Hi A")
    }
}
