import Foundation
import Testing
import TomoTestSupport

/// Where the real `tomo serve` listens and what address its pages give: `--host ::1` (IPv6),
/// `--host 0.0.0.0` and `::` (every interface: pages name the machine's network address, never
/// 0.0.0.0), and `--base-url` (pages give that address and are served under its path).
@Suite(.serialized) struct ServeAddressTests {
    /// `tomo serve ARGUMENTS` on a free port, of a small site (kept as long as the preview runs).
    static func serve(_ arguments: [String]) throws -> (site: TemporaryFolder, preview: LoggedPreview) {
        let site = try TemporaryFolder([
            "content/site.yaml": "title: Test\n",
            "content/users/alice.yaml": "name: Alice\n",
            "content/pages/about.md": "---\ntitle: About\n---\nHello.\n",
        ])
        return (site, try LoggedPreview(site: site.url, arguments: arguments))
    }

    /// The canonical link of a page.
    static func canonical(_ page: String) -> String? {
        guard let start = page.range(of: #"<link rel="canonical" href=""#) else { return nil }
        return String(page[start.upperBound...].prefix { $0 != "\"" })
    }

    @Test func anIPv6HostBindsAndPagesNameItInBrackets() throws {
        let served = try Self.serve(["--host", "::1"])
        // Stopped at the end, which keeps its site until then.
        defer { served.preview.stop() }
        let preview = served.preview
        let port = preview.port
        preview.address = "::1"
        let base = "http://[::1]:\(port)/"
        #expect(preview.url == base)
        let page = try preview.get("alice/")
        #expect(page.status == 200)
        #expect(Self.canonical(page.text) == base + "alice/")
        let feed = try preview.get("alice/feed.xml").text
        #expect(feed.contains(#"<link rel="alternate" type="text/html" href="\#(base)alice/"/>"#), "\(feed)")
    }

    /// On every interface the address printed and written into pages is one this machine
    /// answers on from the network (its first interface address; 127.0.0.1 or ::1 only when it
    /// has none), and never the unspecified 0.0.0.0 or `::`.
    @Test(arguments: ["0.0.0.0", "::"])
    func everyInterfaceGivesPagesTheMachinesAddress(host: String) throws {
        let served = try Self.serve(["--host", host])
        // Stopped at the end, which keeps its site until then.
        defer { served.preview.stop() }
        let preview = served.preview
        let port = preview.port
        let url = try #require(URL(string: preview.url))
        let address = try #require(url.host).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        #expect(!["0.0.0.0", "::", ""].contains(address), "\(preview.url)")
        #expect(preview.url == "http://\(address.contains(":") ? "[\(address)]" : address):\(port)/")
        // Fetched at that address, the page names it.
        preview.address = address
        let page = try preview.get("about/")
        #expect(page.status == 200)
        #expect(Self.canonical(page.text) == preview.url + "about/")
        let feed = try preview.get("feed.xml").text
        #expect(feed.contains(#"<link rel="alternate" type="text/html" href="\#(preview.url)"/>"#), "\(feed)")
    }

    /// Served under the base URL's path: every link of the served home page and of a profile
    /// answers 200 there, `/` leads to the site, a path outside it is the 404 page. A path that
    /// is not ASCII is served, and given, percent-encoded (`written`), as pages give it.
    @Test(arguments: [
        ("https://example.github.io/mysite/", "https://example.github.io/mysite/"),
        ("http://127.0.0.1:9/deep/a%20b/", "http://127.0.0.1:9/deep/a%20b/"),
        ("http://127.0.0.1:9/café/", "http://127.0.0.1:9/caf%C3%A9/"),
    ])
    func aBaseURLUnderAPathIsServedUnderThatPath(typed: String, baseURL: String) throws {
        let served = try Self.serve(["--base-url", typed])
        // Stopped at the end, which keeps its site until then.
        defer { served.preview.stop() }
        let preview = served.preview
        let port = preview.port
        let afterScheme = try #require(baseURL.range(of: "://")).upperBound
        let root = String(baseURL[afterScheme...].drop { $0 != "/" })
        #expect(preview.url == "http://127.0.0.1:\(port)\(root)")
        _ = try preview.line { $0 == "Pages give \(baseURL) as their address (--base-url)" }

        let sitePath = String(root.dropFirst()).removingPercentEncoding ?? ""
        let home = try preview.get(sitePath)
        #expect(home.status == 200)
        #expect(Self.canonical(home.text) == baseURL)
        var links: Set<String> = []
        for page in [home.text, try preview.get(sitePath + "alice/").text] {
            for attribute in ["href", "src", "action"] {
                var rest = page[...]
                while let start = rest.range(of: " \(attribute)=\"") {
                    let value = rest[start.upperBound...].prefix { $0 != "\"" }
                    if value.hasPrefix("/") { links.insert(String(value)) }
                    rest = rest[start.upperBound...]
                }
            }
        }
        #expect(links.contains(root + "static/style.css") && links.contains(root + "alice/"), "\(links)")
        for link in links {
            #expect(link.hasPrefix(root), "\(link)")
            let decoded = link.removingPercentEncoding ?? link
            #expect(try preview.get(String(decoded.dropFirst())).status == 200, "\(link)")
        }

        let top = try preview.get("")
        #expect(top.status == 302 && top.headers["location"] == root)
        #expect(try preview.get("alice/").status == 404)
    }
}
