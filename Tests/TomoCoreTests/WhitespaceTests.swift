import Testing
import TomoCore

/// Captions, alt texts and bios are trimmed before they reach a page.
@Suite struct WhitespaceTests {
    @Test func trimsSpacesTabsAndLineBreaksAtBothEnds() {
        #expect("  \t\nA sunny day\r\n\n".trimmingWhitespace() == "A sunny day")
        #expect("inner  spaces stay".trimmingWhitespace() == "inner  spaces stay")
    }

    @Test func trimsUnicodeSpacesAndKeepsOtherScripts() {
        // An ideographic space (U+3000) and a no-break space (U+00A0) around Japanese text.
        #expect("\u{3000}夕焼け 🌇\u{00A0}".trimmingWhitespace() == "夕焼け 🌇")
        // A combining accent right after the trimmed space stays with the text.
        #expect(" \u{301}e ".trimmingWhitespace() == "\u{301}e")
    }

    @Test func givesEmptyTextForOnlyWhitespace() {
        #expect("".trimmingWhitespace() == "")
        #expect(" \n\t\u{3000}".trimmingWhitespace() == "")
    }

    @Test func trimsSubstrings() {
        let line = "key:   value  "
        #expect(line[line.index(line.startIndex, offsetBy: 4)...].trimmingWhitespace() == "value")
    }
}
