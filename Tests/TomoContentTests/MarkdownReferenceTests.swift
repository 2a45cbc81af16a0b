import Foundation
import Testing
import TomoCore
@testable import TomoContent
import TomoMarkdown

/// Character references in Markdown that give a character no page may hold (a control
/// character, a noncharacter) are an error at their line in every text that is Markdown, as
/// the same character written raw is; and an image whose address was refused shows its
/// description, not an empty `<img src="">`.
@Suite struct MarkdownReferenceTests {
    @Test(arguments: ["&#x1B;", "&#27;", "&#x85;", "&#xFDD0;", "&#x10FFFF;", "&#x1FFFE;"])
    func aReferenceToAForbiddenCharacterIsAnErrorAtItsLine(reference: String) throws {
        for (where_, text) in [("text", "Fine.\nSee \(reference) here."), ("link", "Fine.\n[a](https://example.com/\(reference))"),
                               ("title", "Fine.\n[a](https://example.com/ \"t\(reference)\")"),
                               // A code fence's info string becomes the block's class.
                               ("fence", "Fine.\n```go\(reference)\ncode\n```")] {
            let site = try MarkdownNestingTests.site(caption: text, page: text, bio: text)
            let errors = site.errors()
            let line = 2
            #expect(errors.count == 3, "\(where_) \(errors)")
            #expect(errors.allSatisfy { $0.contains("through a character reference (&#…;), which no page may hold: remove the reference") }, "\(errors)")
            #expect(errors.contains { $0.hasPrefix("content/pages/about.md:\(3 + line):1: the page gives the ") }, "\(where_) \(errors)")
            #expect(errors.contains { $0.hasPrefix("content/posts/alice/p.md:\(6 + line):1: the caption gives the ") }, "\(where_) \(errors)")
            #expect(errors.contains { $0.hasPrefix("content/users/alice.yaml:3:6: the bio gives the ") && $0.hasSuffix("(its line \(line))") }, "\(where_) \(errors)")
        }
    }

    @Test func referencesToOtherCharactersRead() throws {
        // libcmark makes &#0; and &#xFFFF; U+FFFD; in code, a reference is its own text.
        let text = "&#x41; &amp; &#x1F600; &#0; &#xFFFF; &#x9; tab `&#x1B;`\n\n    &#xFFFF;"
        let site = try MarkdownNestingTests.site(caption: text, page: text, bio: text)
        #expect(site.errors() == [])
    }

    @Test func anImageWithoutAnAddressShowsItsDescription() {
        #expect(Markdown.html("![a <b> & c](javascript:alert(1))") == "<p>a &lt;b&gt; &amp; c</p>\n")
        #expect(Markdown.html("x ![one]() y ![two](vbscript:x \"t\")") == "<p>x one y two</p>\n")
        #expect(Markdown.html("![ok](https://example.com/a.png)") == "<p><img src=\"https://example.com/a.png\" alt=\"ok\" /></p>\n")
    }
}
