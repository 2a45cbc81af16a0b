import Foundation
import Testing
@testable import TomoCLI
import TomoCore
import TomoTestSupport

/// Every count a command prints agrees with its noun: on sites with 0, 1 and 2 of everything
/// (users, posts, images, pages, likes, warnings, errors, batch lines), no output says
/// "1 images" or "2 error".
@Suite struct PluralMessageTests {
    static let nouns = ["user", "page", "post", "image", "file", "error", "warning", "command", "like", "report", "follow"]

    /// The counted nouns in `text` that disagree with their count.
    static func disagreements(in text: String) -> [String] {
        var found: [String] = []
        for noun in nouns {
            let plural = Plural.plural(of: noun)
            for pattern in ["(?<![0-9.])1 \(plural)\\b", "(?<![0-9.])(0|[2-9]|[1-9][0-9]+) \(noun)\\b"] {
                guard let expression = try? NSRegularExpression(pattern: pattern) else { return ["bad pattern \(pattern)"] }
                for match in expression.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    if let range = Range(match.range, in: text) { found.append(String(text[range])) }
                }
            }
        }
        return found
    }

    @Test func theCheckerFindsTheMistakesItLooksFor() {
        #expect(Self.disagreements(in: "Built 1 images, 2 error and 1 file") == ["1 images", "2 error"])
        #expect(Self.disagreements(in: "Built 1 page and 2 images (0 files, 10 written)").isEmpty)
    }

    /// A site with `size` users (each without an icon: one warning each), pages and posts, each
    /// post liked by every user.
    static func site(of size: Int) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        #expect(runTomo(["init", folder.path]).status == 0)
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("content/pages/about.md"))
        #expect(runTomo(["user", "rm", "example", "--yes", "--site", folder.path]).status == 0)
        for index in 0..<size {
            #expect(runTomo(["user", "add", "u\(index)", "--site", folder.path]).status == 0)
            try folder.write("content/pages/p\(index).md", "---\ntitle: Page \(index)\n---\nHello.\n")
            try folder.copy(sampleJPEG, to: "content/posts/u0/photo\(index).jpg")
            try folder.write("content/posts/u0/post\(index).md", "---\nphoto: photo\(index).jpg\ndate: 2026-05-01T18:30:00+09:00\n---\nHi.\n")
        }
        return folder
    }

    @Test(arguments: [0, 1, 2]) func everyCountAgreesWithItsNoun(size: Int) throws {
        let folder = try Self.site(of: size)
        let site = ["--site", folder.path]
        var outputs: [String] = []
        func run(_ arguments: [String]) {
            let result = runTomo(arguments + site)
            outputs.append(result.output + result.error)
        }
        run(["check"])
        run(["build"])
        run(["build"])
        run(["build", "--timings", "--full"])
        run(["user", "list"])
        let likes = (0..<size).map { "like u\($0) u0/post0" }
        try folder.write("likes.txt", likes.joined(separator: "\n") + "\n")
        run(["batch", folder.url.appendingPathComponent("likes.txt").path])
        if size > 0 {
            run(["report", "u0", "u0/post0", "--reason", "spam"])
            run(["post", "rm", "u0/post0"])
            run(["post", "rm", "u0/post0", "--yes"])
        }
        // As many broken profiles as the size: that many errors.
        for index in 0..<size { try folder.write("content/users/u\(index).yaml", "name: [\n") }
        run(["check"])
        run(["build"])
        let text = outputs.joined(separator: "\n")
        #expect(Self.disagreements(in: text).isEmpty, "\(Self.disagreements(in: text)) in:\n\(text)")
        // The counts were printed at all (the test would pass on silence otherwise).
        #expect(text.contains("\(Plural.count(size, "user")), 0 pages") || text.contains("\(Plural.count(size, "user")), \(Plural.count(size, "page"))"))
        #expect(text.contains("\(Plural.count(size, "image"))"))
        #expect(text.contains("applied \(Plural.count(size, "command"))"))
    }

    @Test func irregularAndSpelledPlurals() {
        #expect(Plural.count(1, "reply") == "1 reply")
        #expect(Plural.count(2, "reply") == "2 replies")
        #expect(Plural.count(0, "match") == "0 matches")
        #expect(Plural.count(3, "day") == "3 days")
        #expect(Plural.count(2, "person") == "2 people")
        #expect(Plural.count(1, "person") == "1 person")
    }
}
