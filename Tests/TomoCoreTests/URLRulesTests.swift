import Testing
@testable import TomoCore

@Suite struct URLRulesTests {
    @Test(arguments: [
        "https://example.com", "http://example.com:8080/a?b#c", "HTTPS://EXAMPLE.COM/", "https://user@example.com/",
        "https://[::1]:8080/", "mailto:alice@example.com", "mailto:alice@example.com?subject=Hi", "https://例え.jp/",
    ])
    func allowed(url: String) {
        #expect(URLRules.linkProblem(url) == nil)
    }

    @Test(arguments: [
        ("javascript:alert(1)", "URL scheme \"javascript:\" is not allowed: use an http, https or mailto URL"),
        ("JavaScript:alert(1)", "URL scheme \"javascript:\" is not allowed: use an http, https or mailto URL"),
        ("vbscript:x", "URL scheme \"vbscript:\" is not allowed: use an http, https or mailto URL"),
        ("file:///etc/passwd", "URL scheme \"file:\" is not allowed: use an http, https or mailto URL"),
        ("//evil.example/", "\"//evil.example/\" is a relative address: write the full URL, starting with https://"),
        ("alice@example.com", "\"alice@example.com\" is not an absolute URL: start it with https:// or mailto: (e.g. \"mailto:alice@example.com\")"),
        ("https:example.com", "\"https:example.com\" is not a valid URL: it needs a host, like https://example.com/"),
        ("http://:80/", "\"http://:80/\" is not a valid URL: it needs a host, like http://example.com/"),
        ("https://a b.example", "\"https://a b.example\" contains spaces: write them as %20 or remove them"),
        ("mailto:", "\"mailto:\" needs an e-mail address after mailto:"),
    ])
    func refused(url: String, message: String) {
        #expect(URLRules.linkProblem(url) == message)
    }

    @Test func aSiteAddressIsHttpOrHttpsOnly() {
        #expect(URLRules.siteAddressProblem("https://example.com/") == nil)
        #expect(URLRules.siteAddressProblem("mailto:a@b.example") == "\"mailto:a@b.example\" must be an http or https address, like https://example.com/")
        #expect(URLRules.siteAddressProblem("https://example.com:99999/") == "\"https://example.com:99999/\" has the port \"99999\", which is not a number from 1 to 65535")
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
