import Foundation
import Testing
import TomoTestSupport

/// A site hosted under a folder (`https://example.github.io/mysite/`) links inside it: over
/// every byte of every output file (pages, feeds, the sitemap, search.json, the theme's scripts
/// and stylesheet), every URL that names the site's host or is root-relative starts with the
/// base URL or the base path, and names a file the build wrote.
@Suite struct SubPathHostingTests {
    /// A base path of one folder, and of two with an escaped space and an IPv6 host.
    static let baseURLs = ["https://example.github.io/mysite/", "http://[::1]:8080/deep/a%20b/"]

    @Test(arguments: baseURLs)
    func everyLinkOfEveryFileCarriesTheBasePath(baseURL: String) throws {
        let site = try demoSiteCopy()
        // Two posts a page: every timeline and list has newer and older links.
        let config = site.url.appendingPathComponent("content/site.yaml")
        let yaml = try String(contentsOf: config, encoding: .utf8)
        try yaml.replacingOccurrences(of: "pageSize: 20", with: "pageSize: 2").write(to: config, atomically: true, encoding: .utf8)
        let result = runTomo(["build", "--base-url", baseURL], in: site.url)
        #expect(result.status == 0, "\(result.error)")

        let output = site.url.appendingPathComponent("public")
        let files = fileTree(output)
        let scan = LinkScan(baseURL: baseURL, files: Set(files.keys))
        for (path, data) in files.sorted(by: { $0.key < $1.key }) {
            scan.check(String(decoding: data, as: UTF8.self), in: path)
        }
        #expect(scan.problems.count == 0, "\(scan.problems.prefix(20).joined(separator: "\n"))")
        // Every kind of file was read, and the links of those that have some were found.
        for kind in ["html", "xml", "json", "js", "css", "txt"] {
            #expect(scan.scannedByKind[kind, default: 0] > 0, "no .\(kind) file was scanned")
        }
        for kind in ["html", "xml", "json", "txt"] {
            #expect(scan.checkedByKind[kind, default: 0] > 0, "no URL of the site found in any .\(kind) file")
        }
        #expect(scan.checkedByKind["html", default: 0] > 1000)
    }
}

/// The URLs of output files, and what is wrong with them.
private final class LinkScan {
    let baseURL: String
    let root: String
    let host: String
    let files: Set<String>
    private(set) var problems: [String] = []
    /// How many files of each extension were read, and how many of the site's URLs they had.
    private(set) var scannedByKind: [String: Int] = [:]
    private(set) var checkedByKind: [String: Int] = [:]

    init(baseURL: String, files: Set<String>) {
        self.baseURL = baseURL
        let afterScheme = baseURL.range(of: "://").map { baseURL[$0.upperBound...] } ?? baseURL[...]
        host = String(afterScheme.prefix { $0 != "/" })
        root = String(afterScheme.drop { $0 != "/" })
        self.files = files
    }

    /// Checks every URL-like value of `text`, the file at `path` of the output.
    func check(_ text: String, in path: String) {
        let kind = String(path.split(separator: ".").last ?? "")
        var values: [String] = []
        switch kind {
        case "html", "xml":
            // Structured data (JSON-LD) is JSON inside a script element: its strings are URLs
            // as they are, and the rest of the page is read without it.
            var text = text
            for json in Self.matches(#"<script type="application/ld\+json">(.*?)</script>"#, in: text) {
                guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) else {
                    problems.append("\(path): its JSON-LD is not JSON")
                    continue
                }
                values += Self.strings(in: object)
                text = text.replacingOccurrences(of: json, with: "")
            }
            // Unescaped once, the HTML inside a feed's <content> shows its attributes too.
            let markup = Self.unescaped(text)
            values += Self.matches(#"[A-Za-z_:][-A-Za-z0-9_:.]*\s*=\s*"([^"]*)""#, in: markup)
            values += Self.matches(#"[A-Za-z_:][-A-Za-z0-9_:.]*\s*=\s*'([^']*)'"#, in: markup)
            values += Self.matches(#">([^<]+)<"#, in: markup).filter { $0.contains("://") }
        case "json":
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else {
                problems.append("\(path): not JSON")
                return
            }
            values += Self.strings(in: object)
        case "js":
            values += Self.matches(#""((?:[^"\\\n]|\\.)*)""#, in: text)
            values += Self.matches(#"'((?:[^'\\\n]|\\.)*)'"#, in: text)
            values += Self.matches(#"`((?:[^`\\]|\\.)*)`"#, in: text)
        case "css":
            values += Self.matches(#"url\(\s*["']?([^"')]*)"#, in: text)
            values += Self.matches(#"@import\s+["']([^"']*)"#, in: text)
        case "txt":
            values += text.split(whereSeparator: \.isWhitespace).map(String.init).filter { $0.contains("://") }
        default:
            return
        }
        scannedByKind[kind, default: 0] += 1
        for value in values {
            // A srcset, a list of URLs: every piece between commas and spaces.
            for piece in value.split(whereSeparator: { $0 == "," || $0.isWhitespace }) {
                check(url: String(piece), in: path, kind: kind)
            }
        }
    }

    private func check(url: String, in path: String, kind: String) {
        let sitePath: String
        if url.hasPrefix("/") && !url.hasPrefix("//") {
            guard url.hasPrefix(root) else {
                problems.append("\(path): \(url) is outside the base path \(root)")
                return
            }
            sitePath = String(url.dropFirst(root.count))
        } else if let schemeEnd = url.range(of: "://"), url[schemeEnd.upperBound...].hasPrefix(host + "/") || url[schemeEnd.upperBound...] == host {
            guard url.hasPrefix(baseURL) else {
                problems.append("\(path): \(url) is outside the base URL \(baseURL)")
                return
            }
            sitePath = String(url.dropFirst(baseURL.count))
        } else {
            return
        }
        checkedByKind[kind, default: 0] += 1
        // The file it names: `alice/` is `alice/index.html`; fragments and queries aside.
        let bare = String(sitePath.prefix { $0 != "#" && $0 != "?" })
        let decoded = bare.removingPercentEncoding ?? bare
        let file = decoded.isEmpty || decoded.hasSuffix("/") ? decoded + "index.html" : decoded
        if !files.contains(file) { problems.append("\(path): \(url) names no file of the site (\(file))") }
    }

    /// The first capture group of every match of `pattern` in `text`.
    private static func matches(_ pattern: String, in text: String) -> [String] {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// Every string value in a parsed JSON value.
    private static func strings(in value: Any) -> [String] {
        switch value {
        case let text as String: [text]
        case let array as [Any]: array.flatMap(strings)
        case let object as [String: Any]: object.values.flatMap(strings)
        default: []
        }
    }

    /// `text` with the five markup escapes and numeric references decoded once.
    private static func unescaped(_ text: String) -> String {
        var result = text
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&#39;", "'"), ("&#x27;", "'")] {
            result = result.replacingOccurrences(of: entity, with: character)
        }
        return result.replacingOccurrences(of: "&amp;", with: "&")
    }
}
