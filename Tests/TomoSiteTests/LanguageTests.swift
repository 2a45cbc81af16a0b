import Foundation
import Testing
import TomoCore
import TomoStore
import TomoTestSupport
@testable import TomoSite
import TomoTheme

/// Languages on built sites: CLDR plurals through ICU, label files along a tag's fallbacks, a
/// site's own label files, dates in the language, and a profile's own language.
@Suite struct LanguageTests {
    static let counts = [0, 1, 2, 3, 5, 11, 21, 22, 100, 101]
    /// What a site's label file gives for a language the theme lacks: each CLDR form named, so
    /// the page shows which form ICU chose.
    static let formsFile = #"{"followersCount": {"one": "{count} one", "few": "{count} few", "many": "{count} many", "other": "{count} other"}}"#

    /// A site in `language` with a profile per count, `u<count>`, followed by that many others.
    func followedSite(language: String, files: [String: String] = [:]) throws -> SiteFolder {
        var all = files
        all["content/site.yaml"] = SiteFolder.siteYAML + "language: \(language)\n"
        for count in Self.counts { all["content/users/u\(count).yaml"] = "name: U\(count)\n" }
        // Pages count the followers that have a profile.
        for fan in 0..<(Self.counts.max() ?? 0) { all["content/users/fan\(fan).yaml"] = "name: Fan \(fan)\n" }
        let site = try SiteFolder(all)
        _ = try StoreFile(site: site.root).update { store throws(Diagnostic) in
            var outcome = try store.addUser("fan0")
            for fan in 1..<(Self.counts.max() ?? 1) { outcome = try store.addUser("fan\(fan)") }
            for count in Self.counts {
                outcome = try store.addUser("u\(count)")
                for fan in 0..<count { outcome = try store.follow("fan\(fan)", "u\(count)") }
            }
            return outcome
        }
        try site.build()
        return site
    }

    func followersText(_ site: SiteFolder, _ count: Int) throws -> String {
        let page = try #require(site.page("u\(count)/index.html"))
        let link = try #require(page.range(of: "<a href=\"/u\(count)/followers/\">"))
        return String(page[link.upperBound...].prefix { $0 != "<" })
    }

    @Test(arguments: [
        ("en", [:], ["0 followers", "1 follower", "2 followers", "3 followers", "5 followers", "11 followers", "21 followers", "22 followers", "100 followers", "101 followers"]),
        // French takes the singular for 0 as well as 1.
        ("fr", [:], ["0 abonné", "1 abonné", "2 abonnés", "3 abonnés", "5 abonnés", "11 abonnés", "21 abonnés", "22 abonnés", "100 abonnés", "101 abonnés"]),
        ("ja", [:], Self.counts.map { "フォロワー \($0)人" }),
        // Polish and Russian, from a site's own label file: few for 2–4 (not 12–14), many for
        // the rest, and Russian's one for 21 and 101.
        ("pl", ["templates/labels/pl.json": Self.formsFile], ["0 many", "1 one", "2 few", "3 few", "5 many", "11 many", "21 many", "22 few", "100 many", "101 many"]),
        ("ru", ["templates/labels/ru.json": Self.formsFile], ["0 many", "1 one", "2 few", "3 few", "5 many", "11 many", "21 one", "22 few", "100 many", "101 one"]),
    ])
    func countsTakeTheLanguagesPluralForm(language: String, files: [String: String], expected: [String]) throws {
        let site = try followedSite(language: language, files: files)
        let shown = try Self.counts.map { try followersText(site, $0) }
        #expect(shown == expected)
        #expect(site.page("u0/index.html")?.contains("<html lang=\"\(language)\">") == true)
    }

    /// zh-Hans-TW has no file: its labels come from zh-Hans (built in) where its own site file
    /// (and then zh's) has no key, and from English for a key no file of the chain has.
    @Test func labelsFallAlongTheTagsSubtagsThenToEnglish() throws {
        let site = try SiteFolder([
            "content/site.yaml": SiteFolder.siteYAML + "language: zh-hans-tw\n",
            "content/users/alice.yaml": "name: Alice\n",
            "templates/labels/zh.json": #"{"noPosts": "zh 的文字", "timeline": "zh 时间线"}"#,
            "templates/labels/zh-Hans-TW.json": #"{"timeline": "台灣時間線"}"#,
            "templates/labels/fr.json": #"{"timeline": "pas ici"}"#,
        ])
        try site.build()
        let page = try #require(site.page("alice/index.html"))
        #expect(page.contains("<html lang=\"zh-Hans-TW\">"))
        #expect(page.contains("台灣時間線"))           // the tag's own site file
        #expect(page.contains("还没有帖子。"))          // built-in zh-Hans wins over zh
        #expect(!page.contains("zh 的文字"))
        #expect(page.contains("0 位粉丝"))
        #expect(page.contains("<meta property=\"og:locale\" content=\"zh_TW\">"))

        // A key the chain lacks (here every file of pt's chain but English) is English.
        let portuguese = try SiteFolder([
            "content/site.yaml": SiteFolder.siteYAML + "language: pt-BR\n",
            "content/users/alice.yaml": "name: Alice\n",
            "templates/labels/pt.json": #"{"noPosts": "Ainda não há publicações."}"#,
        ])
        try portuguese.build()
        let pt = try #require(portuguese.page("alice/index.html"))
        #expect(pt.contains("<html lang=\"pt-BR\">"))
        #expect(pt.contains("Ainda não há publicações."))
        #expect(pt.contains("0 followers"))
        #expect(pt.contains("<meta property=\"og:locale\" content=\"pt_BR\">"))
    }

    /// (Saved by Notepad, with a byte order mark before it: the mark is read past.)
    @Test func aSitesLabelFileOverridesOnlyTheKeysItGives() throws {
        let site = try SiteFolder([
            "content/site.yaml": SiteFolder.siteYAML + "language: de\n",
            "content/users/alice.yaml": "name: Alice\n",
            "templates/labels/de.json": "\u{FEFF}" + #"{"noPosts": "Hier ist noch nichts.", "followersCount": {"one": "{count} Fan", "other": "{count} Fans"}}"#,
        ])
        try site.build()
        let page = try #require(site.page("alice/index.html"))
        #expect(page.contains("Hier ist noch nichts."))
        #expect(page.contains(">0 Fans</a>"))
        #expect(page.contains("0 Beiträge"))   // built-in German, not overridden
        #expect(!page.contains("Noch keine Beiträge."))
    }

    /// Each built-in file on its own, without English to fall back on, has every key English has.
    @Test(arguments: ["ja", "ko", "zh-Hans", "es", "fr", "de"])
    func everyBuiltInLanguageHasEveryEnglishLabel(tag: String) throws {
        func keys(_ language: String) throws -> Set<String> {
            let bytes = try #require(BuiltinTheme.contents(of: "labels/\(language).json"))
            return Set(try #require(try JSONParser.parse(bytes: Array(bytes), file: language).objectValue).keys)
        }
        #expect(try keys(tag) == keys("en"))
        // And the theme loads it as that language.
        let theme = try Theme.load(site: try TemporaryFolder(prefix: "tomo-labels").url)
        let labels = Labels(try #require(LanguageTag(tag)), files: theme.labelFiles)
        #expect(labels.text("noPosts") != Labels(.english, files: theme.labelFiles).text("noPosts"))
    }

    @Test(arguments: [
        ("templates/labels/en_US.json", "{}", "templates/labels/en_US.json:1:1: this label file's name \"en_US\" is not a BCP 47 language tag: subtags are joined by hyphens, so write en-US; a label file is named by its language's tag (labels/fr.json, labels/zh-Hans.json)"),
        ("templates/labels/fr.json", "{\n  \"followersCount\": {\"one\": \"x\"}\n}", "templates/labels/fr.json:2:3: the label \"followersCount\" has no \"other\" form: add it, for every count the other forms leave"),
        ("templates/labels/fr.json", "{\"likesCount\": {\"singular\": \"x\", \"other\": \"y\"}}", "templates/labels/fr.json:1:2: the label \"likesCount\" has the form \"singular\": plural forms are CLDR's zero, one, two, few, many and other"),
        ("templates/labels/fr.json", "{\"posts\": 3}", "templates/labels/fr.json:1:2: the label \"posts\" is neither a text nor an object of plural forms: write it in quotes"),
        ("templates/labels/fr.json", "[]", "templates/labels/fr.json:1:1: a label file is a JSON object of label names and texts"),
        // Columns as an editor shows them, after a byte order mark.
        ("templates/labels/fr.json", "\u{FEFF}{\"posts\": 3}", "templates/labels/fr.json:1:2: the label \"posts\" is neither a text nor an object of plural forms: write it in quotes"),
        // A control character written as a JSON escape would reach every page raw.
        ("templates/labels/en.json", "{\n  \"noPosts\": \"Nothing\\u0002here\"\n}", "templates/labels/en.json:2:3: the label \"noPosts\" holds the control character U+0002: remove it (text may hold tabs and line breaks, but no other control characters)"),
        ("templates/labels/en.json", "{\"likesCount\": {\"one\": \"x\", \"other\": \"\\u001b[31m{count}\"}}", "templates/labels/en.json:1:2: the label \"likesCount\" has a form \"other\" that holds the control character U+001B: remove it (text may hold tabs and line breaks, but no other control characters)"),
        ("templates/labels/en.json", "{\"noPosts\": \"\\uFDD0\"}", "templates/labels/en.json:1:2: the label \"noPosts\" holds the noncharacter U+FDD0: remove it (text may hold tabs and line breaks, but no other control characters)"),
    ])
    func aBrokenLabelFileIsALocatedError(path: String, text: String, message: String) throws {
        let site = try SiteFolder([path: text, "content/users/alice.yaml": "name: Alice\n"])
        #expect(site.buildErrors() == [message])
    }

    /// A user's name, bio summary and captions are in their language on every page that shows
    /// them (lists, grids, timelines, the search index), not in the page's: `lang` on each, for
    /// a screen reader's voice and the glyphs of Han characters.
    @Test func aUsersTextIsMarkedWithTheirLanguageOnOtherPages() throws {
        let site = try SiteFolder([
            "content/users/ken.yaml": "name: 山田 健\nlanguage: ja\nbio: 写真を撮ります。\n",
            "content/users/amy.yaml": "name: Amy\nbio: I take photos.\n",
            "content/posts/ken/walk.md": "---\nphoto: p.jpg\ndate: 2026-05-01\nalt: 海\n---\n朝の散歩\n",
        ])
        try site.writePhoto(forPostsOf: "ken")
        try site.build()
        let home = try #require(site.page("index.html"))
        #expect(home.contains(#"<html lang="en""#))
        #expect(home.contains(#"<span class="name" dir="auto" lang="ja">山田 健</span>"#), "\(home)")
        #expect(home.contains(#"<span class="summary" dir="auto" lang="ja">写真を撮ります。</span>"#))
        #expect(home.contains(#"<span class="name" dir="auto" lang="en">Amy</span>"#))
        #expect(home.contains(#"dir="auto" lang="ja">山田 健</a>"#), "the post card's owner")
        #expect(home.contains(#"<p class="post-caption" dir="auto" lang="ja">朝の散歩</p>"#))
        #expect(home.contains(#"alt="海" lang="ja""#), "the photo's alt text")
        let index = try #require(site.page("search.json"))
        #expect(index.contains(#"{"handle":"ken","language":"ja","name":"山田 健""#), "\(index)")
        #expect(index.contains(#"{"handle":"amy","language":"en","name":"Amy""#), "\(index)")
    }

    /// A raw control character in a site's template would be in every page made from it, as
    /// one in a label would; tabs, line breaks and U+2028 are text.
    @Test func aControlCharacterInASitesTemplateIsAnErrorAtIt() throws {
        let site = try SiteFolder([
            "templates/404.mustache": "<p>caf\u{e9}\n<b>\u{1B}[31m</b>\n",
            "templates/page.mustache": "{{<layout}}{{$content}}<h1>{{page.title}}</h1>\t\r\n\u{2028}{{/content}}{{/layout}}",
            "content/users/alice.yaml": "name: Alice\n",
        ])
        #expect(site.buildErrors() == ["templates/404.mustache:2:4: the control character U+001B is not allowed in the template: remove it (tabs and line breaks are fine)"])
    }

    @Test(arguments: [
        ("en", "May 1, 2026 at 6:30\u{202F}PM"),
        ("en-GB", "1 May 2026 at 18:30"),
        ("ja", "2026年5月1日 18:30"),
        ("ko", "2026년 5월 1일 오후 6:30"),
        ("zh-Hans", "2026年5月1日 18:30"),
        ("es", "1 de mayo de 2026, 18:30"),
        ("fr", "1 mai 2026 à 18:30"),
        ("de", "1. Mai 2026 um 18:30"),
    ])
    func datesAreWrittenInTheLanguageOnTheAuthorsClock(language: String, expected: String) throws {
        let date = Date(timeIntervalSince1970: 1_777_627_800)  // 2026-05-01T09:30:00Z, 18:30 in Tokyo
        #expect(PostDates.display(date, utcOffset: 9 * 3600, language: try #require(LanguageTag(language))) == expected)
    }

    /// Alice writes in Japanese on an English site: her pages, her feed and her entries in the
    /// site's feed say so; Bob's and the site's pages stay English.
    @Test func aProfilesOwnLanguageRulesItsPagesAndFeedEntries() throws {
        let site = try SiteFolder([
            "content/users/alice.yaml": "name: Alice\nlanguage: ja\n",
            "content/users/bob.yaml": "name: Bob\n",
            "content/posts/alice/tokyo.md": "---\nphoto: p.jpg\ndate: 2026-05-01T18:30:00+09:00\n---\n",
            "content/posts/bob/paris.md": "---\nphoto: p.jpg\ndate: 2026-05-01T18:30:00+02:00\n---\n",
        ])
        try site.writePhoto(forPostsOf: "alice", "bob")
        try site.build()
        let alice = try #require(site.page("alice/index.html"))
        #expect(alice.contains("<html lang=\"ja\">"))
        #expect(alice.contains("<meta property=\"og:locale\" content=\"ja_JP\">"))
        #expect(alice.contains("フォロワー 0人"))
        #expect(alice.contains("2026年5月1日 18:30"))
        let post = try #require(site.page("alice/posts/tokyo/index.html"))
        #expect(post.contains("<html lang=\"ja\">"))
        #expect(post.contains("Aliceさんの写真"))
        #expect(site.page("alice/timeline/index.html")?.contains("<html lang=\"ja\">") == true)
        #expect(site.page("alice/followers/index.html")?.contains("<html lang=\"ja\">") == true)
        #expect(site.page("alice/feed.xml")?.contains("<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"ja\">") == true)

        let bob = try #require(site.page("bob/index.html"))
        #expect(bob.contains("<html lang=\"en\">"))
        #expect(bob.contains("0 followers"))
        #expect(bob.contains("May 1, 2026 at 6:30\u{202F}PM"))
        #expect(site.page("index.html")?.contains("<html lang=\"en\">") == true)
        #expect(site.page("bob/feed.xml")?.contains("xml:lang=\"en\"") == true)

        let feed = try #require(site.page("feed.xml"))
        #expect(feed.contains("<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"en\">"))
        #expect(feed.contains("<entry xml:lang=\"ja\">\n    <id>"))
        #expect(feed.contains("<entry xml:lang=\"en\">\n    <id>"))
        #expect(feed.contains("<title>Aliceさんの写真</title>"))
        #expect(feed.contains("<title>Photo by Bob</title>"))
    }

    /// `<html dir>`: `rtl` for a language written right to left, by the tag's script subtag
    /// when it has one, else by its language subtag; none (HTML's left to right) otherwise.
    @Test(arguments: [
        ("ar", "rtl"), ("ar-EG", "rtl"), ("arz", "rtl"), ("he", "rtl"), ("iw", "rtl"), ("fa-IR", "rtl"), ("ur", "rtl"),
        ("ps", "rtl"), ("sd", "rtl"), ("ug", "rtl"), ("yi", "rtl"), ("dv", "rtl"), ("ckb", "rtl"), ("ar-aao", "rtl"),
        ("pa-Arab", "rtl"), ("az-Arab-IR", "rtl"), ("ms-Arab", "rtl"), ("en-Hebr", "rtl"), ("ff-Adlm", "rtl"),
        ("sd-Deva", nil), ("ar-Latn", nil), ("ks-Deva-IN", nil), ("en", nil), ("ja", nil), ("zh-Hans-TW", nil), ("pa", nil),
        ("de-CH-1996", nil), ("en-x-arab", nil), ("x-arabic", nil), ("i-klingon", nil),
    ] as [(String, String?)])
    func aPagesDirectionFollowsItsLanguagesScript(tag: String, direction: String?) throws {
        let language = try #require(LanguageTag(tag))
        #expect(LanguageRules.direction(of: language) == direction, "\(tag)")
    }

    /// A right-to-left site's pages, and a right-to-left profile's own pages on a left-to-right
    /// site, are laid out right to left (`dir="rtl"` beside `lang`); the others keep HTML's
    /// left to right and no `dir`.
    @Test func aRightToLeftLanguageLaysItsPagesOutRightToLeft() throws {
        for (siteLanguage, rightToLeft) in [("en", false), ("he", true)] {
            let site = try SiteFolder([
                "content/site.yaml": SiteFolder.siteYAML + "language: \(siteLanguage)\n",
                "content/users/layla.yaml": "name: ليلى\nlanguage: ar\n",
                "content/users/bob.yaml": "name: Bob\nlanguage: en\n",
                "content/posts/layla/first.md": "---\nphoto: p.jpg\ndate: 2026-05-01T18:30:00+03:00\nalt: صورة\n---\nمرحبا\n",
            ])
            try site.writePhoto(forPostsOf: "layla")
            try site.build()
            for path in ["layla/index.html", "layla/posts/first/index.html", "layla/timeline/index.html", "layla/followers/index.html"] {
                #expect(site.page(path)?.contains(#"<html lang="ar" dir="rtl">"#) == true, "\(path)")
            }
            #expect(site.page("bob/index.html")?.contains(#"<html lang="en">"#) == true)
            let siteTag = rightToLeft ? #"<html lang="\#(siteLanguage)" dir="rtl">"# : #"<html lang="\#(siteLanguage)">"#
            for path in ["index.html", "404.html"] {
                #expect(site.page(path)?.contains(siteTag) == true, "\(path) on a site in \(siteLanguage)")
            }
        }
    }

    /// English labels lent to an Arabic page (no Arabic label file) are isolated left to right,
    /// so "1 post" is not shown as "post 1", and the pagination is laid out the way its arrows
    /// point; on an English page the same labels are as written.
    @Test func labelsLentByALanguageWrittenTheOtherWayKeepTheirOwnDirection() throws {
        let site = try SiteFolder([
            "content/site.yaml": SiteFolder.siteYAML + "pageSize: 1\n",
            "content/users/layla.yaml": "name: ليلى\nlanguage: ar\n",
            "content/users/bob.yaml": "name: Bob\n",
            "content/posts/layla/a.md": "---\nphoto: p.jpg\ndate: 2026-05-01\nalt: صورة\n---\n",
            "content/posts/layla/b.md": "---\nphoto: p.jpg\ndate: 2026-05-02\nalt: صورة\n---\n",
            "content/posts/bob/a.md": "---\nphoto: p.jpg\ndate: 2026-05-01\nalt: A\n---\n",
            "content/posts/bob/b.md": "---\nphoto: p.jpg\ndate: 2026-05-02\nalt: B\n---\n",
        ])
        try site.writePhoto(forPostsOf: "layla", "bob")
        try site.build()
        let arabic = try #require(site.page("layla/timeline/index.html"))
        #expect(arabic.contains("\u{2066}Older →\u{2069}"))
        #expect(arabic.contains(#"<nav class="pagination" dir="ltr">"#))
        #expect(try #require(site.page("layla/index.html")).contains("\u{2066}2 posts\u{2069}"))
        let english = try #require(site.page("bob/timeline/index.html"))
        #expect(english.contains(">Older →</a>") && !english.contains("\u{2066}"))
    }

    /// Text a user wrote is laid out in its own direction wherever a page shows it (`dir="auto"`),
    /// whatever the page's: an Arabic bio in a card on an English page starts at its right, and
    /// an ellipsis cuts its end. Handles are Latin and always left to right.
    @Test func userTextIsLaidOutInItsOwnDirection() throws {
        let name = "ليلى أحمد"
        let bio = "مرحبا بكم في صفحتي"
        let site = try SiteFolder([
            "content/users/layla.yaml": "name: \(name)\nbio: \(bio)\nitems:\n  - text: تعليق\n  - text: رابط\n    url: https://example.com/\nlinks:\n  website: https://layla.example/\n",
            "content/users/bob.yaml": "name: Bob\n",
            "content/posts/layla/first.md": "---\nphoto: p.jpg\ndate: 2026-05-01T18:30:00+03:00\nalt: صورة\n---\nعنوان\n",
            "content/pages/about.md": "---\ntitle: من نحن\n---\nنص\n",
        ])
        try site.writePhoto(forPostsOf: "layla")
        _ = try StoreFile(site: site.root).update { store throws(Diagnostic) in
            _ = try store.addUser("layla")
            _ = try store.addUser("bob")
            return try store.follow("layla", "bob")
        }
        try site.build()
        let home = try #require(site.page("index.html"))
        // In the user's language too: here the site's, English (layla gives none).
        #expect(home.contains(#"<span class="name" dir="auto" lang="en">\#(name)</span>"#))
        #expect(home.contains(#"<span class="handle" dir="ltr">@layla</span>"#))
        #expect(home.contains(#"<span class="summary" dir="auto" lang="en">\#(bio)</span>"#))
        #expect(home.contains(#"<p class="post-caption" dir="auto" lang="en">عنوان</p>"#))
        #expect(home.contains(#"<a class="post-owner" href="/layla/" dir="auto" lang="en">\#(name)</a>"#))
        #expect(home.contains(#"<a href="/about/" dir="auto">من نحن</a>"#))
        #expect(home.contains(#"<a class="site-title" href="/" dir="auto">Test site</a>"#))
        #expect(home.contains(#"<h1 class="site-heading" dir="auto">Test site</h1>"#))
        let profile = try #require(site.page("layla/index.html"))
        #expect(profile.contains(#"<h1 class="name p-name" dir="auto">\#(name)</h1>"#))
        #expect(profile.contains(#"<p class="handle" dir="ltr">"#))
        #expect(profile.contains(#"<div class="bio p-note" dir="auto"><p>\#(bio)</p>"#))
        #expect(profile.contains(#"<li class="item item-comment" dir="auto" "#))
        #expect(profile.contains(#"<li class="item item-link" dir="auto" "#))
        #expect(profile.contains(#"<span class="label" dir="auto">"#))
        let post = try #require(site.page("layla/posts/first/index.html"))
        #expect(post.contains(#"<h1 class="visually-hidden" dir="auto">عنوان</h1>"#))
        #expect(post.contains(#"<span class="name" dir="auto">\#(name)</span>"#))
        #expect(post.contains(#"<span class="handle" dir="ltr">@layla</span>"#))
        #expect(post.contains(#"<div class="caption" dir="auto">"#))
        #expect(site.page("bob/followers/index.html")?.contains(#"<span class="summary" dir="auto" lang="en">\#(bio)</span>"#) == true)
        let about = try #require(site.page("about/index.html"))
        #expect(about.contains(#"<h1 dir="auto">من نحن</h1>"#) && about.contains(#"<div class="page-body" dir="auto">"#))
    }

    @Test func aMalformedProfileLanguageIsALocatedError() throws {
        let site = try SiteFolder(["content/users/alice.yaml": "name: Alice\nlanguage: ja_JP\n"])
        #expect(site.buildErrors() == ["content/users/alice.yaml:2:11: language \"ja_JP\" is not a BCP 47 language tag: subtags are joined by hyphens, so write ja-JP"])
    }

    /// A build fills in a like count for every post card: with the rules opened once per
    /// language and the forms of small counts kept, French's plural `likesCount` costs about
    /// what Japanese's plain one does, for the same 300,000 cards.
    @Test func fillingPluralLabelsCostsAboutWhatPlainOnesDo() throws {
        let theme = try Theme.load(site: try TemporaryFolder(prefix: "tomo-labels").url)
        func fill(_ tag: String) throws -> Duration {
            let labels = Labels(try #require(LanguageTag(tag)), files: theme.labelFiles)
            var length = 0
            let elapsed = ContinuousClock().measure {
                for card in 0..<300_000 { length &+= labels.text("likesCount", count: card % 1_500).utf8.count }
            }
            #expect(length > 300_000)
            return elapsed
        }
        let plain = try fill("ja")
        let plural = try fill("fr")
        #expect(plural < plain * 2 + .milliseconds(200), "plural \(plural), plain \(plain)")
    }

    /// Each edit that changes a page's language (a profile's own, the site's, a label file)
    /// leaves an incremental build equal to a full one, and shows on the pages it should.
    @Test func aLanguageEditRebuildsWhatItChangesAndNothingStaysStale() throws {
        let site = try SiteFolder([
            "content/users/alice.yaml": "name: Alice\n",
            "content/users/bob.yaml": "name: Bob\n",
            "content/posts/alice/tokyo.md": "---\nphoto: p.jpg\ndate: 2026-05-01T18:30:00+09:00\n---\n",
        ])
        try site.writePhoto(forPostsOf: "alice")
        try site.build()
        let edits: [(path: String, text: String, page: String, shows: String)] = [
            ("content/users/alice.yaml", "name: Alice\nlanguage: fr\n", "alice/posts/tokyo/index.html", "1 mai 2026 à 18:30"),
            ("content/site.yaml", SiteFolder.siteYAML + "language: de\n", "bob/index.html", "<html lang=\"de\">"),
            ("templates/labels/fr.json", #"{"followersCount": {"one": "{count} fan", "other": "{count} fans"}}"#, "alice/index.html", "0 fan<"),
            ("content/users/alice.yaml", "name: Alice\n", "feed.xml", "<entry xml:lang=\"de\">"),
        ]
        for edit in edits {
            Thread.sleep(forTimeInterval: 0.01)
            try site.write(edit.path, edit.text)
            try site.build()
            #expect(site.page(edit.page)?.contains(edit.shows) == true, "after writing \(edit.path)")
            #expect(try site.outputFiles() == site.fullBuild(), "after writing \(edit.path)")
        }
    }
}
