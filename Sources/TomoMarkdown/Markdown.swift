import CCmark
import TomoCore
#if canImport(Glibc)
import Glibc
#endif

/// Markdown (CommonMark) to HTML through libcmark, safe for user text.
///
/// Without `CMARK_OPT_UNSAFE`, raw HTML becomes `<!-- raw HTML omitted -->` and `javascript:`,
/// `vbscript:`, `file:` and `data:` links get an empty address. libcmark keeps no shared state,
/// so these functions may run on several threads at once.
public enum Markdown {
    /// How deep block quotes and lists may nest on one line. libcmark's time grows with the
    /// square of that depth: 80,000 `>` and a line of emphasis after them took it 25 s, so
    /// a deeper text is refused before it is parsed.
    public static let maximumNesting = 100

    /// Where a line of `markdown` opens more than `maximumNesting` block quotes and list items
    /// (`> > - 1. …`): its 1-based line, and the column of the marker past the limit; nil when
    /// no line does. Counted on the line's leading markers, as libcmark opens them.
    public static func nestingProblem(in markdown: String) -> (line: Int, column: Int)? {
        var line = 1
        var bytes = markdown.utf8[...]
        while !bytes.isEmpty {
            let end = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            if let column = markerPastLimit(bytes[..<end]) { return (line, column) }
            bytes = end == bytes.endIndex ? bytes[end...] : bytes[bytes.index(after: end)...]
            line += 1
        }
        return nil
    }

    /// The 1-based column (in bytes) of the leading container marker that goes past
    /// `maximumNesting`, or nil.
    private static func markerPastLimit(_ line: Substring.UTF8View.SubSequence) -> Int? {
        var depth = 0
        var index = line.startIndex
        func at(_ offset: Int) -> UInt8? {
            line.index(index, offsetBy: offset, limitedBy: line.endIndex).flatMap { $0 < line.endIndex ? line[$0] : nil }
        }
        func isBlank(_ byte: UInt8?) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == nil }
        while index < line.endIndex {
            let byte = line[index]
            var length = 0
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                index = line.index(after: index)
                continue
            } else if byte == UInt8(ascii: ">") {
                length = 1
            } else if (byte == UInt8(ascii: "-") || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "+")), isBlank(at(1)) {
                length = 1
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                var digits = 1
                while digits < 10, let next = at(digits), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) { digits += 1 }
                guard let mark = at(digits), mark == UInt8(ascii: ".") || mark == UInt8(ascii: ")"), isBlank(at(digits + 1)) else { return nil }
                length = digits + 1
            } else {
                return nil
            }
            depth += 1
            if depth > maximumNesting { return line.distance(from: line.startIndex, to: index) + 1 }
            index = line.index(index, offsetBy: length)
        }
        return nil
    }

    /// The HTML for `markdown`.
    public static func html(_ markdown: String) -> String {
        Document(markdown).html
    }

    /// A text parsed once, for all it is shown as: loading a site asks each bio for its HTML,
    /// summary and plain text, and each caption for its HTML and first line, and parsing
    /// is most of what each of those costs.
    public final class Document {
        /// The parsed tree, owned (nil when libcmark could not allocate it).
        private let root: OpaquePointer?

        public init(_ markdown: String) {
            var source = markdown
            root = source.withUTF8 { buffer in
                buffer.withMemoryRebound(to: CChar.self) { cmark_parse_document($0.baseAddress, $0.count, CMARK_OPT_DEFAULT) }
            }
            keepOnlyAllowedAddresses()
        }

        /// Empties the address of every link and image with a scheme other than http, https
        /// and mailto (`ftp:`, `tel:`, `intent:`, `data:image/…`, any `x-…:`), as libcmark does
        /// for `javascript:`: URLRules' rule for every address a page shows. An address without
        /// a scheme (`/about/`, `#top`, `photo.jpg`) is kept, but one that starts with two
        /// slashes (`//example.org/p`, which browsers read as another site's address though it
        /// looks like a path) is written with `https:`, as the other site's address it is.
        private func keepOnlyAllowedAddresses() {
            walk { node, event in
                let type = cmark_node_get_type(node)
                guard event == CMARK_EVENT_ENTER, type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE,
                      let url = cmark_node_get_url(node) else { return true }
                let address = String(cString: url)
                if let scheme = URLRules.scheme(of: address) {
                    if !URLRules.allowedSchemes.contains(scheme) { cmark_node_set_url(node, "") }
                } else if address.hasPrefix("//") {
                    cmark_node_set_url(node, "https:" + address)
                }
                return true
            }
        }

        deinit {
            if let root { cmark_node_free(root) }
        }

        /// The HTML of the text. An image whose address libcmark dropped (a `javascript:` or
        /// other unsafe one) or that had none shows its description as text: `<img src="">` is
        /// not valid HTML, and shows nothing.
        public var html: String {
            guard let root, let output = cmark_render_html(root, CMARK_OPT_DEFAULT) else { return "" }
            // libcmark allocates with malloc; the memory is ours to release.
            defer { free(output) }
            let html = String(cString: output)
            return html.contains(Self.imageWithoutAddress) ? Self.describingImagesWithoutAddress(html) : html
        }

        /// How libcmark writes an image without an address, up to its description.
        private static let imageWithoutAddress = "<img src=\"\" alt=\""

        /// `html` with each `<img src="" alt="DESCRIPTION"… />` replaced by DESCRIPTION (escaped
        /// by libcmark as attribute text, so it is safe as text: it holds no `"`).
        private static func describingImagesWithoutAddress(_ html: String) -> String {
            var result = ""
            var rest = html[...]
            while let start = rest.range(of: imageWithoutAddress) {
                result += rest[..<start.lowerBound]
                let description = rest[start.upperBound...].prefix { $0 != "\"" }
                let afterDescription = rest[description.endIndex...]
                guard let end = afterDescription.range(of: " />") else {
                    result += rest[start.lowerBound...]
                    return result
                }
                result += description
                rest = afterDescription[end.upperBound...]
            }
            return result + rest
        }

        /// The first character `ForbiddenCharacters` refuses in what the text shows or links
        /// to, and the 1-based line of the text it is on. Such a character can only come from
        /// a character reference (`&#x1B;`, `&#xFFFF;`), which libcmark decodes: written raw,
        /// it is refused before the text is parsed.
        public var forbiddenCharacter: (scalar: Unicode.Scalar, line: Int)? {
            var found: (scalar: Unicode.Scalar, line: Int)?
            var line = 1
            walk { node, event in
                guard event == CMARK_EVENT_ENTER else { return true }
                let start = Int(cmark_node_get_start_line(node))
                if start > 0 { line = start }
                let type = cmark_node_get_type(node)
                var texts: [UnsafePointer<CChar>?] = []
                if type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE {
                    texts = [cmark_node_get_url(node), cmark_node_get_title(node)]
                } else if type == CMARK_NODE_CODE_BLOCK {
                    // The info string (```` ```go ````) becomes the block's class.
                    texts = [cmark_node_get_literal(node), cmark_node_get_fence_info(node)]
                } else if type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE {
                    texts = [cmark_node_get_literal(node)]
                }
                for case let text? in texts {
                    if let scalar = String(cString: text).unicodeScalars.first(where: ForbiddenCharacters.contains) {
                        found = (scalar, line)
                        return false
                    }
                }
                return true
            }
            return found
        }

        /// See `Markdown.plainText`.
        public var plainText: String { Markdown.plainText(of: self) }
        /// See `Markdown.firstLinePlainText`.
        public var firstLinePlainText: String { Markdown.firstBlockPlainText(of: self, endingAtLineBreak: true) }
        /// See `Markdown.firstParagraphPlainText`.
        public var firstParagraphPlainText: String { Markdown.firstBlockPlainText(of: self, endingAtLineBreak: false) }

        /// The address of every link and image, as libcmark read it (character references
        /// decoded, `%` escapes not).
        public var destinations: [String] { linkTexts(cmark_node_get_url) }

        /// The title of every link and image that has one (`[x](/a "the title")`), which
        /// browsers show on hover.
        public var titles: [String] { linkTexts(cmark_node_get_title).filter { !$0.isEmpty } }

        private func linkTexts(_ read: (OpaquePointer) -> UnsafePointer<CChar>?) -> [String] {
            var found: [String] = []
            walk { node, event in
                let type = cmark_node_get_type(node)
                if event == CMARK_EVENT_ENTER, type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE, let text = read(node) {
                    found.append(String(cString: text))
                }
                return true
            }
            return found
        }

        /// Shows `visit` every node as the walk enters it (and leaves it, for nodes with
        /// children), until `visit` returns false.
        fileprivate func walk(_ visit: (_ node: OpaquePointer, _ event: cmark_event_type) -> Bool) {
            guard let root, let iterator = cmark_iter_new(root) else { return }
            defer { cmark_iter_free(iterator) }
            while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
                guard let node = cmark_iter_get_node(iterator) else { continue }
                if !visit(node, event) { return }
            }
        }
    }

    /// The whole text, markup removed: inline markup and links give their text, a line break
    /// inside a paragraph a space, and blocks (paragraphs, headings, list items, code) are
    /// separated by a newline. For machine-read descriptions (JSON-LD); escape it like any text.
    public static func plainText(_ markdown: String) -> String {
        Document(markdown).plainText
    }

    private static func plainText(of document: Document) -> String {
        var blocks: [String] = []
        var text = ""
        func endBlock() {
            let block = text.trimmingWhitespace()
            if !block.isEmpty { blocks.append(block) }
            text = ""
        }
        document.walk { node, _ in
            switch cmark_node_get_type(node) {
            case CMARK_NODE_PARAGRAPH, CMARK_NODE_HEADING:
                endBlock()
            case CMARK_NODE_CODE_BLOCK:
                endBlock()
                if let literal = cmark_node_get_literal(node) { text = String(cString: literal) }
                endBlock()
            case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                if let literal = cmark_node_get_literal(node) { text += String(cString: literal) }
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                text += " "
            default:
                break
            }
            return true
        }
        endBlock()
        return blocks.joined(separator: "\n")
    }

    /// The first line of the first paragraph or heading, markup removed: "Photographer in
    /// **Tokyo**." gives "Photographer in Tokyo.". For cards and descriptions; HTML-escape it
    /// like any other text.
    public static func firstLinePlainText(_ markdown: String) -> String {
        Document(markdown).firstLinePlainText
    }

    /// The first paragraph or heading, markup removed, its line breaks as spaces: a bio's
    /// summary on cards and in descriptions (shorten it with `shortened(toAtMost:)`).
    public static func firstParagraphPlainText(_ markdown: String) -> String {
        Document(markdown).firstParagraphPlainText
    }

    private static func firstBlockPlainText(of document: Document, endingAtLineBreak: Bool) -> String {
        var text = ""
        var enteredBlock = false
        var line: String?
        document.walk { node, event in
            let type = cmark_node_get_type(node)
            switch type {
            case CMARK_NODE_PARAGRAPH, CMARK_NODE_HEADING, CMARK_NODE_CODE_BLOCK:
                if event == CMARK_EVENT_EXIT {
                    line = text
                    return false
                }
                enteredBlock = true
                if type == CMARK_NODE_CODE_BLOCK, let literal = cmark_node_get_literal(node) {
                    line = String(String(cString: literal).prefix { $0 != "\n" })
                    return false
                }
            case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                if enteredBlock, let literal = cmark_node_get_literal(node) { text += String(cString: literal) }
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                guard enteredBlock else { break }
                if endingAtLineBreak {
                    line = text
                    return false
                }
                text += " "
            default:
                break
            }
            return true
        }
        return (line ?? text).trimmingWhitespace()
    }
}
