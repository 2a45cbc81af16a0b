import Foundation
import TomoCore

/// The little the store needs from post files: whether a post exists, and its `visibility:`.
/// A minimal front-matter reader on purpose (the content module will own post parsing);
/// it reads only the lines between the opening and closing `---`.
public enum PostFrontMatter {
    /// `content/posts/<handle>/<slug>.md`, relative to the site.
    public static func relativePath(of post: PostID) -> String {
        "content/posts/\(post.handle)/\(post.slug).md"
    }

    /// The post's visibility (public when the front matter does not say), or nil when the post
    /// file does not exist.
    public static func visibility(of post: PostID, in site: URL) throws(Diagnostic) -> PostVisibility? {
        let path = relativePath(of: post)
        guard let data = FileManager.default.contents(atPath: site.appendingPathComponent(path).path) else { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard lines.first.map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) == "---" }) == true else { return .public }
        for (index, line) in lines.enumerated().dropFirst() {
            if line.trimmingCharacters(in: .whitespacesAndNewlines) == "---" { break }
            guard line.hasPrefix("visibility:") else { continue }
            var value = line.dropFirst("visibility:".count)
            if let comment = value.range(of: " #") { value = value[..<comment.lowerBound] }
            let word = value.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            guard let visibility = PostVisibility(rawValue: word) else {
                let hint = Suggestion.hint(for: word, in: PostVisibility.allCases.map(\.rawValue))
                throw Diagnostic(
                    "unknown visibility \"\(word)\"\(hint): use public, followers or private",
                    at: SourceLocation(file: path, line: index + 1, column: "visibility:".count + 2)
                )
            }
            return visibility
        }
        return .public
    }

    /// How many posts `handle` has (`.md` files in `content/posts/<handle>/`).
    public static func count(of handle: String, in site: URL) -> Int {
        let folder = site.appendingPathComponent("content/posts/\(handle)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".md") }.count
    }
}
