import Foundation
import Testing
import TomoTestSupport

/// The demo site built with the default theme, read as a browser would lay it out.
/// scripts/check_layout.py measures the same pages in Chromium; this is the cheap check
/// `swift test` runs.
@Suite struct DefaultThemeTests {
    /// Every page of the built demo, path → HTML, redirect pages (a meta refresh) left out.
    static func demoPages() throws -> [String: String] {
        let site = try demoSiteCopy()
        let output = site.url.appendingPathComponent("out")
        let result = runTomo(["build", "--out", output.path], in: site.url)
        guard result.status == 0 else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: result.error]) }
        return fileTree(output).filter { $0.key.hasSuffix(".html") }
            .mapValues { String(decoding: $0, as: UTF8.self) }
            .filter { !$0.value.contains(#"http-equiv="refresh""#) }
    }

    /// axe-core's page-has-heading-one, and no page with two.
    @Test func everyPageOfTheDemoHasExactlyOneH1() throws {
        let pages = try Self.demoPages()
        #expect(pages.count > 20)
        for (path, html) in pages {
            #expect(html.components(separatedBy: "<h1").count - 1 == 1, "\(path)")
        }
    }

    /// The width (CSS px) each photo and icon is drawn at on a 375-px phone and a 1400-px
    /// desktop, by class and the list it sits in: what templates/static/style.css lays out
    /// (main is 40rem, 46rem from 48rem up; grids of 2 and 3 columns; the timeline one column).
    static let renderedWidths: [String: (phone: Double, desktop: Double)] = [
        "post-grid post-photo": ((375 - 24 - 12) / 2, (736 - 48 - 24) / 3),
        "post-list post-photo": (375 - 24, 736 - 64),
        "post-photo-large": (375 - 24, 736 - 24),
        "header-image": (375, 736),
        "icon u-photo": (96, 128),
        "icon": (48, 48),
        "owner-icon": (40, 40),
        // A link's or an item's own icon (.link-icon, .item-icon in style.css).
        "link-icon": (20, 20),
        "item-icon": (24, 24),
    ]

    /// Each `sizes` asks for at least the drawn width (a sharp photo) and not much more (no
    /// file bigger than needed: at most the 15% a `vw` size gives for the page's margins); the
    /// timeline's one-column photos once asked for the grid's, and the profile icon, drawn at
    /// 96 px on a phone, for its desktop 128.
    @Test func everySizesAttributeMatchesTheRenderedWidth() throws {
        var checked = 0
        for (path, html) in try Self.demoPages() {
            var rest = html[...]
            while let start = rest.range(of: "<img ") {
                let tag = " " + rest[start.upperBound...].prefix { $0 != ">" }
                let before = html[..<start.lowerBound]
                rest = rest[start.upperBound...]
                guard let sizes = Self.attribute("sizes", in: tag), let imageClass = Self.attribute("class", in: tag) else { continue }
                // A post card's photo is drawn at the width of the list it is in.
                let grid = before.range(of: #"class="post-grid""#, options: .backwards)?.lowerBound
                let list = before.range(of: #"class="post-list""#, options: .backwards)?.lowerBound
                let container = (list ?? before.startIndex) > (grid ?? before.startIndex) ? "post-list" : "post-grid"
                let key = imageClass == "post-photo" ? "\(container) post-photo" : imageClass
                let widths = try #require(Self.renderedWidths[key], "\(path): an image of class \(imageClass)")
                for (viewport, drawn) in [(375.0, widths.phone), (1400.0, widths.desktop)] {
                    let asked = try #require(Self.width(sizes, viewport: viewport), "\(path): sizes=\"\(sizes)\"")
                    #expect(asked >= drawn && asked <= drawn * 1.15, "\(path): \(key) is \(drawn) px at \(viewport) but sizes=\"\(sizes)\" asks for \(asked)")
                }
                checked += 1
            }
        }
        #expect(checked > 50)
    }

    /// A timeline photo keeps the shape its `width` and `height` give before its bytes arrive
    /// (the page does not jump as photos load): no rule that reaches it sets `aspect-ratio`,
    /// which would replace that shape, and each has both attributes. Grids crop to squares.
    @Test func timelinePhotosReserveTheirSpaceBeforeTheyLoad() throws {
        let styleSheet = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("templates/static/style.css")
        let css = try String(contentsOf: styleSheet, encoding: .utf8).replacing(/\/\*[\s\S]*?\*\//, with: "")
        var gridIsSquare = false
        for rule in css.split(separator: "}") {
            let parts = rule.split(separator: "{", maxSplits: 1)
            guard parts.count == 2 else { continue }
            for selector in parts[0].split(separator: ",").map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }) where selector.hasSuffix(".post-photo") {
                let setsRatio = parts[1].contains("aspect-ratio")
                if selector.hasPrefix(".post-grid") {
                    gridIsSquare = gridIsSquare || parts[1].contains("aspect-ratio: 1;")
                } else {
                    #expect(!setsRatio, "\(selector) sets aspect-ratio, which reaches the timeline's photos")
                }
            }
        }
        #expect(gridIsSquare)
        var checked = 0
        for (path, html) in try Self.demoPages() where path.contains("/timeline/") {
            for tag in html.components(separatedBy: "<img ").dropFirst().map({ " " + $0.prefix { $0 != ">" } }) where Self.attribute("class", in: tag) == "post-photo" {
                #expect(Self.attribute("width", in: tag) != nil && Self.attribute("height", in: tag) != nil, "\(path): \(tag)")
                checked += 1
            }
        }
        #expect(checked > 5)
    }

    static func attribute(_ name: String, in tag: String) -> String? {
        guard let start = tag.range(of: " \(name)=\"") else { return nil }
        return String(tag[start.upperBound...].prefix { $0 != "\"" })
    }

    /// The width a `sizes` list gives at `viewport` CSS px: the first entry whose
    /// `(min-width: …)` or `(max-width: …)` holds, in px, rem (16 px) or vw.
    static func width(_ sizes: String, viewport: Double) -> Double? {
        func length(_ text: Substring) -> Double? {
            let text = text.trimmingCharacters(in: .whitespaces)
            for (unit, scale) in [("px", 1.0), ("rem", 16.0), ("vw", viewport / 100)] where text.hasSuffix(unit) {
                return Double(text.dropLast(unit.count)).map { $0 * scale }
            }
            return nil
        }
        for entry in sizes.split(separator: ",") {
            let entry = entry.trimmingCharacters(in: .whitespaces)
            let isMinimum = entry.hasPrefix("(min-width:")
            guard isMinimum || entry.hasPrefix("(max-width:"), let close = entry.firstIndex(of: ")") else { return length(Substring(entry)) }
            if let bound = length(entry[entry.index(entry.startIndex, offsetBy: 11)..<close]), isMinimum ? viewport >= bound : viewport <= bound {
                return length(entry[entry.index(after: close)...])
            }
        }
        return nil
    }
}
