import Foundation
import TomoContent

/// The posts that are published, in the orders pages show them. Only public posts that are not
/// hidden (`tomo post hide`) and whose owner has a profile are ever written to the output.
struct PostIndex: Sendable {
    /// Newest first by instant (time zones honoured), ties by id ascending.
    let newestFirst: [Post]
    /// Owner → their published posts, newest first.
    let byOwner: [String: [Post]]
    let byID: [String: Post]

    init(posts: [Post], profiles: Set<String>, graph: SocialGraph) {
        newestFirst = posts
            .filter { $0.visibility == .public && !graph.hidden.contains($0.id) && profiles.contains($0.handle) }
            .sorted(by: Self.isNewer)
        byOwner = Dictionary(grouping: newestFirst, by: \.handle)
        byID = Dictionary(newestFirst.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    static func isNewer(_ a: Post, _ b: Post) -> Bool {
        a.date != b.date ? a.date > b.date : a.id < b.id
    }

    func posts(of handle: String) -> [Post] { byOwner[handle] ?? [] }

    /// `handle`'s timeline: their own posts and those of everyone they follow, less blocks in
    /// either direction, newest first, ties by id.
    func timeline(of handle: String, graph: SocialGraph) -> [Post] {
        graph.timelineOwners(of: handle).flatMap { posts(of: $0) }.sorted(by: Self.isNewer)
    }
}
