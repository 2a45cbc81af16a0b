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
    /// The HTML for `markdown`.
    public static func html(_ markdown: String) -> String {
        var source = markdown
        return source.withUTF8 { buffer in
            let options = CMARK_OPT_DEFAULT
            guard let output = buffer.withMemoryRebound(to: CChar.self, { cmark_markdown_to_html($0.baseAddress, $0.count, options) }) else {
                return ""
            }
            // libcmark allocates with malloc; the memory is ours to release.
            defer { free(output) }
            return String(cString: output)
        }
    }

    /// The first line of the first paragraph or heading, markup removed: "Photographer in
    /// **Tokyo**." gives "Photographer in Tokyo.". For cards and descriptions; HTML-escape it
    /// like any other text.
    public static func firstLinePlainText(_ markdown: String) -> String {
        var source = markdown
        guard let document = source.withUTF8({ buffer in
            buffer.withMemoryRebound(to: CChar.self) { cmark_parse_document($0.baseAddress, $0.count, CMARK_OPT_DEFAULT) }
        }) else { return "" }
        defer { cmark_node_free(document) }
        guard let iterator = cmark_iter_new(document) else { return "" }
        defer { cmark_iter_free(iterator) }

        var text = ""
        var enteredBlock = false
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            switch type {
            case CMARK_NODE_PARAGRAPH, CMARK_NODE_HEADING, CMARK_NODE_CODE_BLOCK:
                if event == CMARK_EVENT_EXIT { return text.trimmingWhitespace() }
                enteredBlock = true
                if type == CMARK_NODE_CODE_BLOCK, let literal = cmark_node_get_literal(node) {
                    return String(String(cString: literal).prefix { $0 != "\n" }).trimmingWhitespace()
                }
            case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                if enteredBlock, let literal = cmark_node_get_literal(node) { text += String(cString: literal) }
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                if enteredBlock { return text.trimmingWhitespace() }
            default:
                continue
            }
        }
        return text.trimmingWhitespace()
    }
}
