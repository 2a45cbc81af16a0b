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
    /// file does not exist. Reads bytes, not a String: `tomo batch` asks this of 100,000 posts.
    public static func visibility(of post: PostID, in site: URL) throws(Diagnostic) -> PostVisibility? {
        let path = relativePath(of: post)
        switch RegularFile.read(site.path + "/" + path) {
        case .success(let bytes): return try visibility(inFrontMatterOf: bytes, file: path)
        case .failure(.missing): return nil
        case .failure(let failure): throw Diagnostic("cannot read \(path): \(failure.reason)", at: SourceLocation(file: path, line: 1, column: 1))
        }
    }

    /// The `visibility:` between the opening and closing `---` lines (lines end with `\n` or
    /// `\r\n`); public when there is no front matter or no such line.
    static func visibility(inFrontMatterOf bytes: [UInt8], file: String) throws(Diagnostic) -> PostVisibility {
        let key = Array("visibility:".utf8)
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            lineNumber += 1
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            let line = bytes[start..<end]
            start = end + 1
            let isFence = trimmed(line).elementsEqual("---".utf8)
            if lineNumber == 1 {
                if !isFence { return .public }
                continue
            }
            if isFence { break }
            guard line.starts(with: key) else { continue }
            var value = line.dropFirst(key.count)
            if let comment = value.indices.first(where: { value[$0] == UInt8(ascii: " ") && $0 + 1 < value.endIndex && value[$0 + 1] == UInt8(ascii: "#") }) {
                value = value[..<comment]
            }
            let word = String(decoding: trimmed(trimmed(value), dropping: [UInt8(ascii: "\""), UInt8(ascii: "'")]), as: UTF8.self)
            guard let visibility = PostVisibility(rawValue: word) else {
                let hint = Suggestion.hint(for: word, in: PostVisibility.allCases.map(\.rawValue))
                throw Diagnostic(
                    "unknown visibility \"\(word)\"\(hint): use public, followers or private",
                    at: SourceLocation(file: file, line: lineNumber, column: key.count + 2)
                )
            }
            return visibility
        }
        return .public
    }

    private static let blanks: [UInt8] = [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"), 0x0B, 0x0C]

    private static func trimmed(_ bytes: ArraySlice<UInt8>, dropping characters: [UInt8] = blanks) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, characters.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, characters.contains(last) { slice = slice.dropLast() }
        return slice
    }

    /// How many posts `handle` has (`.md` files in `content/posts/<handle>/`).
    public static func count(of handle: String, in site: URL) -> Int {
        let folder = site.appendingPathComponent("content/posts/\(handle)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".md") }.count
    }
}
