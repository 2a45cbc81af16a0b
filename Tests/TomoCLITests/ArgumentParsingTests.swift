import Foundation
import Testing
@testable import TomoCLI

@Suite struct ArgumentParsingTests {
    @Test func unknownCommandSuggestsTheClosest() {
        let result = runTomo(["tempalte", "render"])
        #expect(result.status == 2)
        #expect(result.error.contains("did you mean \"template\"?"))
    }
}
