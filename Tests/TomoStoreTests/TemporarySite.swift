import Foundation
import TomoCore
import TomoStore
import TomoTestSupport

/// A real site folder under the system's temporary folder: content/site.yaml, and posts on demand.
struct TemporarySite {
    private let folder: TemporaryFolder
    var url: URL { folder.url }

    init() throws {
        folder = try TemporaryFolder(prefix: "tomo-store")
        try folder.write("content/site.yaml", bytes: Array("title: Test\n".utf8))
    }

    var store: StoreFile { StoreFile(site: url) }
    var storeURL: URL { store.url }

    func storeText() -> String {
        (try? String(contentsOf: storeURL, encoding: .utf8)) ?? ""
    }

    func writeStore(_ text: String) throws {
        try Data(text.utf8).write(to: storeURL)
    }

    /// Registers the handles (one write).
    func addUsers(_ handles: String...) throws {
        _ = try store.update { store throws(Diagnostic) in
            for handle in handles { _ = try store.addUser(handle) }
            return .changed("added")
        }
    }

    /// Applies one rule and returns its outcome, as a command would.
    @discardableResult
    func apply(_ rule: (inout Store) throws(Diagnostic) -> Outcome) throws(Diagnostic) -> Outcome {
        try store.update(rule)
    }

    func read() throws -> Store { try store.read() }
}

