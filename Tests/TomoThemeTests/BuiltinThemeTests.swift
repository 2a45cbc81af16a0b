import Foundation
import Testing
import TomoTemplates
import TomoTheme

@Suite struct BuiltinThemeTests {
    /// The repository's top-level templates/ folder: the source the binary's theme is made from.
    static let themeFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("templates")

    @Test func carriesEveryFileOfTheTemplatesFolderByteForByte() throws {
        let enumerator = FileManager.default.enumerator(at: Self.themeFolder, includingPropertiesForKeys: nil)
        var onDisk: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(Self.themeFolder.standardizedFileURL.path.count + 1))
            onDisk.append(path)
            #expect(BuiltinTheme.contents(of: path) == FileManager.default.contents(atPath: url.path), "\(path)")
        }
        #expect(BuiltinTheme.paths == onDisk.sorted())
        #expect(!onDisk.isEmpty)
    }

    @Test func everyTemplateCompilesAndNamesOnlyTemplatesThatExist() throws {
        let library = try TemplateLibrary(sources: BuiltinTheme.templateSources)
        #expect(library["layout"] != nil)
        for name in library.names {
            let template = try #require(library[name])
            for referenced in Set(template.references.map(\.name)) {
                #expect(library[referenced] != nil, "\(name) names a missing template \(referenced)")
            }
        }
    }
}
