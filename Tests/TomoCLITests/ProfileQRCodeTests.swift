import Foundation
import Testing
import TomoTestSupport

/// `/<handle>/qr.svg`: a QR code that a real decoder (zbarimg, after libvips drew it) reads
/// back as the profile's absolute address, whatever the base URL (`--base-url`, `tomo serve`);
/// shown on the profile page with `qr: true`.
@Suite struct ProfileQRCodeTests {
    /// A host alone, a sub-path, an IPv6 host with a port, percent-encoded segments, a host and
    /// path in Japanese (the code holds the address as the site writes it, in ASCII), and a path
    /// long enough for a symbol of a high version.
    static let baseURLs = [
        "https://example.com/",
        "https://例え.jp/写真/",
        "https://example.github.io/my-site/",
        "http://[::1]:8080/deep/",
        "http://[2001:db8::7]/a%20b/%E6%97%A5%E6%9C%AC/",
        "https://example.com/" + String(repeating: "a-long-folder/", count: 40),
    ]
    /// Each address as the site writes it.
    static let written = ["https://例え.jp/写真/": "https://xn--r8jz45g.jp/%E5%86%99%E7%9C%9F/"]
    /// The shortest handle and one of the longest (30 characters).
    static let handles = ["a", "a_very_long_handle_of_30_chars"]

    @Test(arguments: baseURLs)
    func everyProfilesCodeReadsBackAsItsAddress(baseURL: String) throws {
        let site = try TemporaryFolder()
        try site.write("content/site.yaml", "title: QR\nqr: true\n")
        for handle in Self.handles { try site.write("content/users/\(handle).yaml", "name: Someone\n") }
        let result = runTomo(["build", "--base-url", baseURL], in: site.url)
        try #require(result.status == 0, "\(result.error)")

        let address = Self.written[baseURL] ?? baseURL
        let root = String(address.drop { $0 != "/" }.dropFirst(2).drop { $0 != "/" })
        for handle in Self.handles {
            let svg = try Data(contentsOf: site.url.appendingPathComponent("public/\(handle)/qr.svg"))
            #expect(try decodedQRCode(svg) == address + handle + "/", "\(handle) at \(baseURL)")
            let page = try String(contentsOf: site.url.appendingPathComponent("public/\(handle)/index.html"), encoding: .utf8)
            #expect(page.contains(#"<p class="qr"><img src="\#(root)\#(handle)/qr.svg" width="160" height="160" alt="QR code of Someone&#39;s profile"></p>"#), "\(page)")
        }
    }

    /// One path of dark modules inside a four-module quiet zone, a viewBox, crisp edges and a
    /// title, on a white square: the same bytes for the same address.
    @Test func theSVGIsOnePathInsideAQuietZone() throws {
        let site = try TemporaryFolder()
        try site.write("content/site.yaml", "title: QR\nbaseURL: https://example.com/\n")
        try site.write("content/users/alice.yaml", "name: Alice\n")
        try #require(runTomo(["build"], in: site.url).status == 0)
        let svg = try String(contentsOf: site.url.appendingPathComponent("public/alice/qr.svg"), encoding: .utf8)
        let side = try #require(svg.firstMatch(of: /viewBox="0 0 (\d+) \1"/).flatMap { Int($0.1) })
        // Version 2 (25 modules) holds the 26 bytes of https://example.com/alice/ at level M.
        #expect(side == 25 + 8)
        #expect(svg.hasPrefix(##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 33 33" shape-rendering="crispEdges"><title>https://example.com/alice/</title><rect width="33" height="33" fill="#fff"/><path fill="#000" d="M4 4h7v1h-7z"##), "\(svg)")
        #expect(svg.ranges(of: "<path").count == 1)
        let numbers = svg.matches(of: /M(\d+) (\d+)h(\d+)/).map { (Int($0.1)!, Int($0.2)!, Int($0.3)!) }
        #expect(numbers.allSatisfy { $0.0 >= 4 && $0.1 >= 4 && $0.0 + $0.2 <= side - 4 && $0.1 < side - 4 })
        #expect(svg.utf8.count < 8_000)
        #expect(try decodedQRCode(Data(svg.utf8)) == "https://example.com/alice/")
        // Without `qr: true` the file is made all the same, and the page does not show it.
        let page = try String(contentsOf: site.url.appendingPathComponent("public/alice/index.html"), encoding: .utf8)
        #expect(!page.contains("qr.svg"))
    }

    /// A base URL too long for a profile's code is an error at `baseURL`, by `tomo check` and
    /// `tomo build` alike and before anything is written; `--base-url` is wrong usage. One
    /// byte shorter, even a handle of 30 characters gets its code.
    @Test func aBaseURLTooLongForACodeIsAnErrorAtBaseURL() throws {
        let site = try TemporaryFolder()
        let baseURL = "https://example.com/" + String(repeating: "folder/", count: 430)
        try site.write("content/site.yaml", "title: QR\nbaseURL: \(baseURL)\n")
        try site.write("content/users/alice.yaml", "name: Alice\n")
        let message = "baseURL is 3030 bytes long, and a profile's address (this, a handle and /) must fit in a QR code: write an address of at most 2300 bytes, its final / included"
        for command in ["check", "build"] {
            let result = runTomo([command], in: site.url)
            #expect(result.status == 1)
            #expect(result.error.hasPrefix("error: content/site.yaml:2:10: \(message)\n"), "\(command): \(result.error)")
        }
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public").path))
        try site.write("content/site.yaml", "title: QR\n")
        let fromCommandLine = runTomo(["build", "--base-url", baseURL], in: site.url)
        #expect(fromCommandLine.status == 2)
        #expect(fromCommandLine.error.hasPrefix("error: --base-url is 3030 bytes long"), "\(fromCommandLine.error)")

        let longest = "https://example.com/" + String(repeating: "b", count: 2299 - 20)
        try site.write("content/users/a_very_long_handle_of_30_chars.yaml", "name: Someone\n")
        let built = runTomo(["build", "--base-url", longest], in: site.url)
        #expect(built.status == 0, "\(built.error)")
        let svg = try Data(contentsOf: site.url.appendingPathComponent("public/a_very_long_handle_of_30_chars/qr.svg"))
        #expect(svg.count > 1000)
    }

    /// `tomo serve` makes the code of the address it serves at, and serves the contact card as
    /// text/vcard.
    @Test func servedCodesReadAsTheServedAddress() throws {
        let site = try TemporaryFolder()
        try site.write("content/site.yaml", "title: QR\nbaseURL: https://example.com/\n")
        try site.write("content/users/alice.yaml", "name: Alice\n")
        let preview = try LoggedPreview(site: site.url)
        defer { preview.stop() }
        let svg = try preview.get("alice/qr.svg")
        #expect(svg.status == 200 && svg.headers["content-type"] == "image/svg+xml")
        #expect(try decodedQRCode(Data(svg.body)) == preview.url + "alice/")
        let card = try preview.get("alice/contact.vcf")
        #expect(card.status == 200 && card.headers["content-type"] == "text/vcard; charset=utf-8", "\(card.headerLines)")
        #expect(try ParsedVCard(Data(card.body)).values("URL") == [preview.url + "alice/"])
    }
}
