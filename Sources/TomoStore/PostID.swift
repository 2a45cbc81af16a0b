import TomoCore

/// `<handle>/<slug>`: a post's id, checked before it becomes a path.
public struct PostID: Sendable, Hashable, CustomStringConvertible {
    public var handle: String
    public var slug: String

    public init(handle: String, slug: String) {
        self.handle = handle
        self.slug = slug
    }

    /// Parses `alice/sunset`; the handle and slug must be valid.
    public init(parsing text: String) throws(Diagnostic) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw Diagnostic("\"\(text)\" is not a post id: write it as HANDLE/SLUG, e.g. alice/sunset")
        }
        let handle = String(parts[0])
        let slug = String(parts[1])
        if let problem = Identifiers.handleProblem(handle) { throw Diagnostic("post \"\(text)\": \(problem)") }
        if let problem = Identifiers.slugProblem(slug) { throw Diagnostic("post \"\(text)\": \(problem)") }
        self.init(handle: handle, slug: slug)
    }

    public var description: String { "\(handle)/\(slug)" }

    /// What the ids of `handle`'s posts, and only theirs, start with.
    static func ownerPrefix(_ handle: String) -> String { handle + "/" }
}
