import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The parts of an Atom document the tests check, read with an XML parser.
public final class AtomSummary: NSObject, XMLParserDelegate {
    public private(set) var rootName = ""
    public private(set) var feedElements: Set<String> = []
    public private(set) var entries: [[String: String]] = []
    /// The text of the feed's own elements (`updated`, `title`…).
    public private(set) var feedTexts: [String: String] = [:]
    private var path: [String] = []
    private var text = ""

    public init(_ data: Data) throws {
        super.init()
        let parser = XMLParser(data: data)
        parser.delegate = self
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.coderReadCorrupt) }
    }

    public func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        if path.isEmpty { rootName = name }
        if path == ["feed"] {
            feedElements.insert(name)
            if name == "entry" { entries.append([:]) }
        }
        path.append(name)
        text = ""
    }

    public func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    public func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if path.count == 3, path[1] == "entry", !entries.isEmpty {
            entries[entries.count - 1][name] = text
        }
        if path.count == 2 { feedTexts[name] = text }
        path.removeLast()
    }
}
