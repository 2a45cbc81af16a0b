import Testing
import TomoCore
@testable import TomoYAML

/// A key indented differently from its siblings is named as an indentation mistake, not as a
/// value that needs quotes; a value that holds ": " still gets the quotes advice.
@Suite struct IndentationMessageTests {
    private func firstProblem(_ text: String) -> Diagnostic? {
        do {
            _ = try YAMLParser.parse(Array(text.utf8), file: "test.yaml")
            return nil
        } catch {
            return error.diagnostics.first
        }
    }

    static let indentationMistakes: [(text: String, line: Int)] = [
        // A top-level key indented under the one before it.
        ("name: Alice\n  bio: Hello\n", 2),
        ("name: Alice\nbio: Hello\n    icon: alice/icon.jpg\n", 3),
        // A key of a nested mapping indented more than its sibling.
        ("links:\n  website: https://example.com\n    instagram: https://www.instagram.com/alice/\n", 3),
        // An item's second key indented less than its first (after "- ").
        ("items:\n  - text: Hello\n   url: https://example.com\n", 3),
        // An item's second key indented more than its first.
        ("items:\n  - text: Hello\n      url: https://example.com\n", 3),
        // A key of a nested mapping indented less than its sibling, but not back to its parent.
        ("links:\n    website: https://example.com\n  instagram: https://www.instagram.com/alice/\n", 3),
        // After a comment line.
        ("title: About\n# the date\n date: 2026-05-01\n", 3),
    ]

    @Test(arguments: indentationMistakes) func aMisindentedKeyIsCalledAnIndentationMistake(_ mistake: (text: String, line: Int)) throws {
        let problem = try #require(firstProblem(mistake.text))
        #expect(problem.message.contains("indent"), "\(problem)")
        #expect(!problem.message.contains("put a value that contains"), "\(problem)")
        #expect(problem.location?.line == mistake.line, "\(problem)")
    }

    @Test(arguments: ["name: Alice\nbio: Tokyo: Japan\n", "bio: a: b\n", "items:\n  - text: Note: read this\n"])
    func aValueWithAColonStillGetsTheQuotesAdvice(_ text: String) throws {
        let problem = try #require(firstProblem(text))
        #expect(problem.message.hasSuffix("put a value that contains \": \" in quotes"), "\(problem)")
        #expect(!problem.message.contains("indent"), "\(problem)")
    }
}
