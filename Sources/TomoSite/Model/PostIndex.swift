import Foundation
import TomoContent

/// The published posts (`PublishedSite.content.posts`) in the orders pages show them.
struct PostIndex: Sendable {
    /// Newest first by instant (time zones honoured), ties by id ascending.
    let newestFirst: [Post]
    /// Owner → their published posts, newest first.
    let byOwner: [String: [Post]]
    /// Owner → the positions of their posts in `newestFirst`, ascending: timelines merge these
    /// small integers instead of sorting whole posts.
    private let ranksByOwner: [String: [Int]]
    /// Everyone with a published post, and for each position in `newestFirst` its owner's place
    /// in that list: a timeline page finds whose posts it shows by comparing small integers.
    private let owners: [String]
    private let ownerOfRank: [Int32]
    let byID: [String: Post]

    init(published: [Post]) {
        newestFirst = Post.newestFirst(published)
        byOwner = Dictionary(grouping: newestFirst, by: \.handle)
        var ranks: [String: [Int]] = [:]
        var owners: [String] = []
        var ownerNumbers: [String: Int32] = [:]
        var ownerOfRank: [Int32] = []
        ownerOfRank.reserveCapacity(newestFirst.count)
        for (rank, post) in newestFirst.enumerated() {
            ranks[post.handle, default: []].append(rank)
            let number = ownerNumbers[post.handle] ?? Int32(owners.count)
            if number == owners.count {
                ownerNumbers[post.handle] = number
                owners.append(post.handle)
            }
            ownerOfRank.append(number)
        }
        ranksByOwner = ranks
        self.owners = owners
        self.ownerOfRank = ownerOfRank
        byID = Dictionary(newestFirst.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }


    func posts(of handle: String) -> [Post] { byOwner[handle] ?? [] }

    /// One page (1-based `number`) of `handle`'s timeline: their own posts and those of everyone
    /// they follow, less blocks in either direction, newest first, ties by id (the order of
    /// `newestFirst`), without building the rest of it.
    func timelinePage(of handle: String, graph: SocialGraph, number: Int, size: Int) -> [Post] {
        timelineRanks(of: handle, graph: graph).dropFirst((number - 1) * size).prefix(size).map { newestFirst[$0] }
    }

    /// Whose posts each page (of `size` posts) of `handle`'s timeline shows, each owner once,
    /// page by page; one empty page for an empty timeline.
    func timelinePageOwners(of handle: String, graph: SocialGraph, size: Int) -> [[String]] {
        let ranks = timelineRanks(of: handle, graph: graph)
        guard !ranks.isEmpty else { return [[]] }
        return stride(from: 0, to: ranks.count, by: size).map { start in
            var shown: [String] = []
            var last: Int32 = -1
            for number in ranks[start..<min(start + size, ranks.count)].map({ ownerOfRank[$0] }).sorted() where number != last {
                shown.append(owners[Int(number)])
                last = number
            }
            return shown
        }
    }

    private func timelineRanks(of handle: String, graph: SocialGraph) -> [Int] {
        graph.timelineOwners(of: handle).flatMap { ranksByOwner[$0] ?? [] }.sorted()
    }
}
