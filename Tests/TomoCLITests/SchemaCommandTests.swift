import Foundation
import Testing
import TomoCore
@testable import TomoCLI
import TomoTestSupport

/// `tomo schema` writes the schemas; `tomo init` and `tomo user add` point the files they write
/// at the site's copy (a path that resolves offline), and `.vscode/settings.json` maps the
/// folders to them.
@Suite struct SchemaCommandTests {
    static let schemaFiles = ["page.schema.json", "post.schema.json", "profile-json.schema.json", "profile.schema.json", "site.schema.json"]

    /// The schema a file's `# yaml-language-server: $schema=…` first line names, resolved
    /// from the file's folder.
    func modelineTarget(_ file: URL) throws -> URL? {
        let firstLine = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").first.map(String.init) ?? ""
        let prefix = "# yaml-language-server: $schema="
        guard firstLine.hasPrefix(prefix) else { return nil }
        return file.deletingLastPathComponent().appendingPathComponent(String(firstLine.dropFirst(prefix.count))).standardizedFileURL
    }

    func json(_ url: URL) throws -> JSONValue {
        try JSONParser.parse(bytes: Array(Data(contentsOf: url)), file: url.lastPathComponent)
    }

    @Test func schemaWritesEveryKindIntoTheFolderItIsGiven() throws {
        let work = try TemporaryFolder()
        let result = runTomo(["schema", "--out", "out/here"], in: work.url)
        #expect(result.status == 0, "\(result.error)")
        let folder = work.url.appendingPathComponent("out/here")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == Self.schemaFiles)
        for name in Self.schemaFiles {
            #expect(try json(folder.appendingPathComponent(name))["$schema"] == "https://json-schema.org/draft/2020-12/schema")
            #expect(result.output.contains("out/here/\(name)"))
        }
    }

    @Test func withoutOutTheSchemasGoToTheSitesSchemasFolderAndOutsideASiteItSaysSo() throws {
        let work = try TemporaryFolder()
        #expect(runTomo(["schema"], in: work.url).status == 1)
        #expect(runTomo(["init", "site"], in: work.url).status == 0)
        let site = work.url.appendingPathComponent("site")
        try FileManager.default.removeItem(at: site.appendingPathComponent("schemas"))
        #expect(runTomo(["schema"], in: site.appendingPathComponent("content/users")).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.appendingPathComponent("schemas").path).sorted() == Self.schemaFiles)
    }

    @Test func initPointsEveryYAMLFileAndVSCodeAtSchemasThatExist() throws {
        let work = try TemporaryFolder()
        #expect(runTomo(["init"], in: work.url).status == 0)
        for (file, schema) in [("content/site.yaml", "site.schema.json"), ("content/users/example.yaml", "profile.schema.json")] {
            let target = try modelineTarget(work.url.appendingPathComponent(file))
            #expect(target?.lastPathComponent == schema, "\(file)")
            #expect(target.map { FileManager.default.fileExists(atPath: $0.path) } == true, "\(file) → \(String(describing: target))")
        }
        let settings = try json(work.url.appendingPathComponent(".vscode/settings.json"))
        let yaml = settings["yaml.schemas"]?.objectValue ?? [:]
        #expect(yaml["./schemas/site.schema.json"] == "/content/site.yaml")
        #expect(yaml["./schemas/profile.schema.json"] == "/content/users/*.yaml")
        #expect(settings["json.schemas"] == [["fileMatch": ["/content/users/*.json"], "url": "./schemas/profile-json.schema.json"]])
        for path in yaml.keys {
            #expect(FileManager.default.fileExists(atPath: work.url.appendingPathComponent(path).path), "\(path)")
        }
        #expect(runTomo(["check"], in: work.url).status == 0)
    }

    @Test func initKeepsTheEditorSettingsAFolderHasAlready() throws {
        let work = try TemporaryFolder()
        try work.write(".vscode/settings.json", "{\"editor.tabSize\": 2}\n")
        #expect(runTomo(["init"], in: work.url).status == 0)
        #expect(try String(contentsOf: work.url.appendingPathComponent(".vscode/settings.json"), encoding: .utf8) == "{\"editor.tabSize\": 2}\n")
    }

    @Test(arguments: [["user", "add", "erin"], ["user", "add", "erin", "--name", "Erin"]])
    func userAddPointsTheNewProfileAtTheSchemaAndWritesItWhenMissing(arguments: [String]) throws {
        let work = try TemporaryFolder()
        #expect(runTomo(["init"], in: work.url).status == 0)
        try FileManager.default.removeItem(at: work.url.appendingPathComponent("schemas"))
        let result = runTomo(arguments, in: work.url)
        #expect(result.status == 0, "\(result.error)")
        let target = try modelineTarget(work.url.appendingPathComponent("content/users/erin.yaml"))
        #expect(target?.lastPathComponent == "profile.schema.json")
        #expect(target.map { FileManager.default.fileExists(atPath: $0.path) } == true)
        #expect(runTomo(["check"], in: work.url).status == 0)
    }

    @Test func aJSONProfileWithItsSchemaChecks() throws {
        let work = try TemporaryFolder()
        #expect(runTomo(["init"], in: work.url).status == 0)
        try FileManager.default.removeItem(at: work.url.appendingPathComponent("content/users/example.yaml"))
        try work.write("content/users/example.json", "{\"$schema\": \"../../schemas/profile-json.schema.json\", \"name\": \"Example\"}\n")
        let result = runTomo(["check"], in: work.url)
        #expect(result.status == 0, "\(result.error)")
    }
}
