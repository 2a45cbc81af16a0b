import Foundation
import Testing
import TomoCore
@testable import TomoCLI
import TomoTestSupport

/// The site's address is checked by one rule, whether it comes from site.yaml's `baseURL`
/// (an error at its place, exit 1) or from `tomo build --base-url` (wrong usage, exit 2).
@Suite struct BaseURLTests {
    static let refused = [
        "https://example.com/?page=1", "https://example.com/#top", "https://example.com?x",
        "https://user:secret@example.com/", "https://user@example.com/",
        "https://example.com:65536/", "https://example.com:0/", "https://example.com:http/", "https://example.com:/",
        "https://example.com:-1/", "https://example.com:0000080000/",
        "https:///", "https://:8080/", "https://", "https://.example.com/", "https://exa..mple.com/", "https://exa_mple.com/",
        "https://exa mple.com/", "https://example.com/a b/", "https://example.com/\t", " https://example.com/",
        "https://example.com/\u{1B}[31m", "https://example.com/\u{0}", "https://example.com/\u{85}",
        "https://example.com/\"onload=\"x", "https://example.com/<b>", "https://example.com/%zz/", "https://example.com/%4",
        "ftp://example.com/", "mailto:site@example.com", "javascript:alert(1)", "file:///srv/site/",
        "//example.com/", "example.com", "https:example.com", "https://[::1/", "https://[zz]/", "https://[::1]x/",
        // One byte too long for every profile's address to fit a QR code.
        "https://example.com/" + String(repeating: "a", count: 2299 - 19),
    ]

    static let accepted: [(url: String, base: String)] = [
        ("https://example.com", "https://example.com/"),
        ("http://example.com:8080/blog", "http://example.com:8080/blog/"),
        // In the one spelling browsers and crawlers compare: scheme and host in lower case,
        // the scheme's own port left out.
        ("HTTPS://Example.COM/a%20b/", "https://example.com/a%20b/"),
        ("https://example.com:443/", "https://example.com/"),
        ("http://Example.com:80/Blog", "http://example.com/Blog/"),
        ("http://example.com:443/", "http://example.com:443/"),
        ("https://example.com:08443/", "https://example.com:8443/"),
        ("https://[::ABCD]:443/", "https://[::abcd]/"),
        ("http://127.0.0.1:65535/", "http://127.0.0.1:65535/"),
        ("https://[::1]:8080/", "https://[::1]:8080/"),
        // Feeds and the sitemap take URIs: a host in its IDNA form, the path percent-encoded.
        ("https://例え.jp/", "https://xn--r8jz45g.jp/"),
        ("https://Exämple.com:8443/café", "https://xn--exmple-cua.com:8443/caf%C3%A9/"),
        ("https://example.com/😀/", "https://example.com/%F0%9F%98%80/"),
        ("https://my-site.example.com./~alice/", "https://my-site.example.com./~alice/"),
        // The longest address, without its final slash.
        ("https://example.com/" + String(repeating: "a", count: 2299 - 20),
         "https://example.com/" + String(repeating: "a", count: 2299 - 20) + "/"),
    ]

    static func site(baseURL: String?) throws -> TemporaryFolder {
        try TemporaryFolder([
            // A JSON string is a YAML double-quoted scalar: any character can be written.
            "content/site.yaml": "title: T\n" + (baseURL.map { "baseURL: \(JSONWriter.string(.string($0)))\n" } ?? ""),
            "content/users/alice.yaml": "name: Alice\n",
        ])
    }

    @Test(arguments: refused)
    func aBadAddressIsRefusedInSiteYAML(url: String) throws {
        let site = try Self.site(baseURL: url)
        for command in ["check", "build"] {
            let result = runTomo([command], in: site.url)
            #expect(result.status == 1, "\(command) \(url.debugDescription)")
            // At the baseURL line: at its value, or at a raw character's own column (JSON
            // leaves U+0085 raw).
            #expect(result.error.contains("error: content/site.yaml:2:"), "\(command) \(url.debugDescription): \(result.error)")
        }
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public").path))
    }

    /// By `tomo build --base-url` and `tomo serve --base-url` alike (serve is given a host it
    /// cannot listen on too: were the address let through, it would stop there, not serve).
    @Test(arguments: refused)
    func aBadAddressIsRefusedOnTheCommandLine(url: String) throws {
        let site = try Self.site(baseURL: nil)
        for (command, after) in [(["build"], []), (["serve"], ["--host", "256.0.0.1"])] {
            let result = runTomo(command + ["--base-url", url] + after, in: site.url)
            #expect(result.status == 2, "\(command[0]) \(url.debugDescription)")
            // By the address rule, or for a control character by the rule of all command-line text.
            #expect(result.error.hasPrefix("error: --base-url "), "\(command[0]) \(url.debugDescription): \(result.error)")
            #expect(result.error.contains("usage: tomo \(command[0])"))
        }
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public").path))
    }

    @Test(arguments: accepted)
    func aGoodAddressStartsEveryAbsoluteURLThroughEitherPath(url: String, base: String) throws {
        let fromYAML = try Self.site(baseURL: url)
        #expect(runTomo(["check"], in: fromYAML.url).status == 0)
        let fromCommandLine = try Self.site(baseURL: nil)
        for (site, arguments) in [(fromYAML, ["build"]), (fromCommandLine, ["build", "--base-url", url])] {
            let result = runTomo(arguments, in: site.url)
            #expect(result.status == 0, "\(arguments): \(result.error)")
            let sitemap = try String(contentsOf: site.url.appendingPathComponent("public/sitemap.xml"), encoding: .utf8)
            #expect(sitemap.contains("<loc>\(base)</loc>") && sitemap.contains("<loc>\(base)alice/</loc>"), "\(sitemap)")
        }
    }

    /// Without baseURL in site.yaml, build and check warn that pages use the fallback address,
    /// unless `--base-url` gives one; and a build that then has no address again warns again.
    @Test func theMissingBaseURLWarningIsGivenOnlyWithoutAnAddress() throws {
        let site = try Self.site(baseURL: nil)
        let warning = "warning: content/site.yaml:1:1: no baseURL"
        for command in [["check"], ["build"]] {
            let given = runTomo(command + ["--base-url", "https://staging.example/"], in: site.url)
            #expect(given.status == 0 && !given.error.contains(warning), "\(command): \(given.error)")
            let fallback = runTomo(command, in: site.url)
            #expect(fallback.status == 0 && fallback.error.contains(warning), "\(command): \(fallback.error)")
        }
        #expect(!runTomo(["build", "--base-url", "https://staging.example/"], in: site.url).error.contains(warning))
        #expect(runTomo(["build"], in: site.url).error.contains(warning))
        let again = runTomo(["build"], in: site.url)
        #expect(again.output.contains("Nothing changed") && again.error.contains(warning), "a build with nothing changed repeats it: \(again.output)")
    }

    /// A host with no IDNA form, and a path too long for a QR code once percent-encoded: both
    /// refused by `tomo check` and `tomo build` alike, with what to write instead, at the
    /// `baseURL` line (which `--format gnu` gives to editors and CI).
    @Test(arguments: [
        ("https://-ä.com/", "has no ASCII form (IDNA)"),
        ("https://example.com/" + String(repeating: "é", count: 700), "(the address written in ASCII, as feeds and the sitemap need it)"),
    ])
    func anAddressWithoutAnASCIIFormIsRefused(url: String, message: String) throws {
        let site = try Self.site(baseURL: url)
        for command in ["check", "build"] {
            let result = runTomo([command], in: site.url)
            #expect(result.status == 1, "\(command)")
            #expect(result.error.contains(message), "\(command): \(result.error)")
            #expect(result.error.contains("error: content/site.yaml:2:10: "), "\(command): \(result.error)")
        }
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public").path))
    }
}
