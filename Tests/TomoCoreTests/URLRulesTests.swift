import Testing
@testable import TomoCore

@Suite struct URLRulesTests {
    @Test(arguments: [
        "https://example.com", "http://example.com:8080/a?b#c", "HTTPS://EXAMPLE.COM/", "https://user@example.com/",
        "https://[::1]:8080/", "mailto:alice@example.com", "mailto:alice@example.com?subject=Hi", "https://例え.jp/",
        "https://en.wikipedia.org/wiki/Foo_(bar)", "https://a.example/?q=a%20b&x=[1]", "https://a:b@c.example:1/",
        "http://192.0.2.1/", "http://255.255.255.255:8080/", "http://0.0.0.0/", "https://123.example/", "https://example.com./",
        "https://x0.example/", "https://0xcafe.example/",
    ])
    func allowed(url: String) {
        #expect(URLRules.linkProblem(url) == nil)
    }

    @Test(arguments: [
        ("javascript:alert(1)", "URL scheme \"javascript:\" is not allowed: use an http, https or mailto URL"),
        ("JavaScript:alert(1)", "URL scheme \"javascript:\" is not allowed: use an http, https or mailto URL"),
        ("vbscript:x", "URL scheme \"vbscript:\" is not allowed: use an http, https or mailto URL"),
        ("file:///etc/passwd", "URL scheme \"file:\" is not allowed: use an http, https or mailto URL"),
        // A misspelt allowed scheme is named as the typo it is; one far from any is not.
        ("htps://example.com/", "URL scheme \"htps:\" is not allowed: use an http, https or mailto URL (did you mean \"https\"?)"),
        ("htttp://example.com/", "URL scheme \"htttp:\" is not allowed: use an http, https or mailto URL (did you mean \"http\"?)"),
        ("mialto:a@b.example", "URL scheme \"mialto:\" is not allowed: use an http, https or mailto URL (did you mean \"mailto\"?)"),
        ("ftp://example.com/", "URL scheme \"ftp:\" is not allowed: use an http, https or mailto URL"),
        ("//evil.example/", "\"//evil.example/\" is a relative address: write the full URL, starting with https://"),
        ("alice@example.com", "\"alice@example.com\" is not an absolute URL: start it with https:// or mailto: (e.g. \"mailto:alice@example.com\")"),
        ("https:example.com", "\"https:example.com\" is not a valid URL: it needs a host, like https://example.com/"),
        ("http://:80/", "\"http://:80/\" is not a valid URL: it needs a host, like http://example.com/"),
        ("https://a b.example", "\"https://a b.example\" holds a space: write the address without it (a space in a path is %20)"),
        ("https://a.example/\nx", "\"https://a.example/\nx\" holds the control character U+000A: write the address without it (a space in a path is %20)"),
        ("https://a.example/\u{2028}", "\"https://a.example/\u{2028}\" holds the space character U+2028: write the address without it (a space in a path is %20)"),
        (" javascript:alert(1)", "\" javascript:alert(1)\" holds a space: write the address without it (a space in a path is %20)"),
        ("https://ex.com/\"onx=1", "\"https://ex.com/\"onx=1\" holds the character \": write the address without it (a space in a path is %20)"),
        ("https://ex.com/<x>", "\"https://ex.com/<x>\" holds the character <: write the address without it (a space in a path is %20)"),
        ("https://ex.com/%zz", "\"https://ex.com/%zz\" has a % that is not followed by two hex digits: write % itself as %25"),
        ("https://ex.com/?q=%", "\"https://ex.com/?q=%\" has a % that is not followed by two hex digits: write % itself as %25"),
        ("https://ex.com:99999/", "\"https://ex.com:99999/\" has the port \"99999\", which is not a number from 1 to 65535"),
        ("https://[::1/", "\"https://[::1/\" has an IPv6 host without its closing ]"),
        ("https://ex!ample.com/", "\"https://ex!ample.com/\" has a host that is not a domain name or an IP address, like example.com or 127.0.0.1"),
        ("mailto:", "\"mailto:\" needs an e-mail address after mailto:"),
        // A host ending in a number is read by browsers as an IPv4 address, and refused when it
        // is not one.
        ("http://1.2.3.999/", "\"http://1.2.3.999/\" has a host that ends in a number, which browsers read as an IPv4 address, and it is not one written in full (four numbers from 0 to 255, like 192.0.2.1)"),
        ("http://256.1.1.1/", "\"http://256.1.1.1/\" has a host that ends in a number, which browsers read as an IPv4 address, and it is not one written in full (four numbers from 0 to 255, like 192.0.2.1)"),
        ("https://example.123/", "\"https://example.123/\" has a host that ends in a number, which browsers read as an IPv4 address, and it is not one written in full (four numbers from 0 to 255, like 192.0.2.1)"),
        ("https://example.0x1F/", "\"https://example.0x1F/\" has a host that ends in a number, which browsers read as an IPv4 address, and it is not one written in full (four numbers from 0 to 255, like 192.0.2.1)"),
        ("http://1.2.3/", "\"http://1.2.3/\" has a host that ends in a number, which browsers read as an IPv4 address, and it is not one written in full (four numbers from 0 to 255, like 192.0.2.1)"),
        ("http://01.2.3.4:80/", "\"http://01.2.3.4:80/\" has a host that ends in a number, which browsers read as an IPv4 address, and it is not one written in full (four numbers from 0 to 255, like 192.0.2.1)"),
    ])
    func refused(url: String, message: String) {
        #expect(URLRules.linkProblem(url) == message)
    }

    @Test func aSiteAddressIsHttpOrHttpsOnly() {
        #expect(URLRules.siteAddressProblem("https://example.com/") == nil)
        #expect(URLRules.siteAddressProblem("mailto:a@b.example") == "\"mailto:a@b.example\" must be an http or https address, like https://example.com/")
        #expect(URLRules.siteAddressProblem("https://example.com:99999/") == "\"https://example.com:99999/\" has the port \"99999\", which is not a number from 1 to 65535")
        for dots in ["https://ex.com/a/../b/", "https://ex.com/./", "https://ex.com/a/.."] {
            #expect(URLRules.siteAddressProblem(dots) == "\"\(dots)\" has a . or .. folder in its path: write the folder it leads to, like https://example.com/blog/")
        }
        #expect(URLRules.siteAddressProblem("https://ex.com/a..b/") == nil)
    }

    @Test func anEmailValueIsAnAddressOrAMailtoURLOfOne() {
        for text in ["alice@example.com", "mailto:alice@example.com", "MailTo:alice@example.com", "a.b+c@例え.jp"] {
            let address = URLRules.emailAddress(text)
            #expect(address.map { !$0.contains(":") } == true, "\(text)")
            #expect(URLRules.mailtoURL(address ?? "").lowercased().components(separatedBy: "mailto:").count == 2, "\(text)")
        }
        for text in ["mailto:mailto:alice@example.com", "alice", "a@b", "mailto:a@b.example?subject=Hi", "a@b.example,c@d.example",
                     "a b@c.example", "a@b.example/x", "a@-b.example#x", "a\u{1B}@b.example", ""] {
            #expect(URLRules.emailAddress(text) == nil, "\(text)")
        }
    }
}
