import TomoCore

/// Brings a store written by an older tomo up to `Store.currentVersion`, one version at a time.
/// Version 1 is the first format, so there are no steps yet; the next format change adds
/// `steps[1]` (turning a version 1 document into version 2) and bumps `Store.currentVersion`.
enum StoreMigration {
    typealias Step = @Sendable (JSONValue) throws(Diagnostic) -> JSONValue

    /// `steps[n]` turns a version `n` document into version `n + 1`.
    static let steps: [Int: Step] = [:]

    static func migrate(_ document: JSONValue, from version: Int, file: String) throws(Diagnostic) -> JSONValue {
        var document = document
        for step in version..<Store.currentVersion {
            guard let migrate = steps[step] else {
                throw Diagnostic("this tomo cannot read store version \(step): no migration from it", at: SourceLocation(file: file, line: 1, column: 1))
            }
            document = try migrate(document)
        }
        guard case .object(var members) = document else { return document }
        members["version"] = .int(Store.currentVersion)
        return .object(members)
    }
}
