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
        // Exactly one slash, found without splitting: a build tests the id of every liked post
        // of the store (100,000 at 10,000 users).
        let slash = UInt8(ascii: "/")
        guard let at = text.utf8.firstIndex(of: slash), !text.utf8[text.utf8.index(after: at)...].contains(slash) else {
            throw Diagnostic("\(text.quotedShortened()) is not a post id: write it as HANDLE/SLUG, e.g. alice/sunset")
        }
        let handle = String(text[..<at])
        let slug = String(text[text.utf8.index(after: at)...])
        if let problem = Identifiers.handleProblem(handle) { throw Diagnostic("post \(text.quotedShortened()): \(problem)") }
        if let problem = Identifiers.slugProblem(slug) { throw Diagnostic("post \(text.quotedShortened()): \(problem)") }
        self.init(handle: handle, slug: slug)
    }

    public var description: String { "\(handle)/\(slug)" }

    /// What the ids of `handle`'s posts, and only theirs, start with.
    static func ownerPrefix(_ handle: String) -> String { handle + "/" }
}
