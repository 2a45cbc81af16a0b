import Foundation
import Testing
import TomoCore
@testable import TomoContent

/// A site with alice's profile, her post `file` holding `text`, and a photo `sunset.jpg` beside it.
private func postSite(_ text: String, file: String = "content/posts/alice/sunset.md", more: [String: String] = [:]) throws -> SiteFixture {
    try SiteFixture([
        "content/users/alice.yaml": "name: Alice\nicon: alice/icon.png\n",
        "content/users/alice/icon.png": "png",
        "content/posts/alice/sunset.jpg": "jpeg",
        file: text,
    ].merging(more) { _, new in new })
}

private let frontMatterEnd = "alt: A red sky\n---\nCaption\n"

@Suite struct PostLoadingTests {
    @Test func completePostLoadsEveryField() throws {
        let site = try postSite("---\nphoto: sunset.jpg\ndate: 2026-05-01T18:30:00+09:00\nalt: Sunset over Tokyo Bay\nvisibility: followers\n---\n\nThe sky over **Odaiba**.\nSecond line.\n\n")
        let result = site.load()
        #expect(result.diagnostics.isEmpty)
        #expect(result.postFileCount == 1)
        let post = try #require(result.content?.posts.first)
        #expect(post.id == "alice/sunset")
        #expect(post.file == "content/posts/alice/sunset.md")
        #expect(post.photo == "sunset.jpg")
        #expect(post.photoFile == "content/posts/alice/sunset.jpg")
        #expect(post.dateText == "2026-05-01T18:30:00+09:00")
        #expect(post.date == ISO8601DateFormatter().date(from: "2026-05-01T09:30:00Z"))
        #expect(post.utcOffset == 9 * 3600)
        #expect(post.alt == "Sunset over Tokyo Bay")
        #expect(post.visibility == .followers)
        #expect(post.caption.markdown == "The sky over **Odaiba**.\nSecond line.")
        #expect(post.caption.html == "<p>The sky over <strong>Odaiba</strong>.\nSecond line.</p>\n")
        #expect(post.caption.firstLine == "The sky over Odaiba.")
    }

    /// A photo's name with a space or a line feed after it (`|` keeps one) says so, as an
    /// icon's does, rather than calling the photo "not a photo file".
    @Test(arguments: ["photo: \"sunset.jpg \"\n", "photo: |\n  sunset.jpg\n", "photo: \" sunset.jpg\"\n"])
    func aPhotoWithASpaceOrLineFeedAroundItSaysSo(yaml: String) throws {
        let errors = try postSite("---\n" + yaml + "date: 2026-05-01\n" + frontMatterEnd).errors()
        #expect(errors.count == 1 && errors[0].hasPrefix("content/posts/alice/sunset.md:2:"), "\(errors)")
        #expect(errors.first?.hasSuffix("starts or ends with a space or a line feed, which the file's name does not (a block scalar, `|` or `>`, keeps its last line feed): write `photo: sunset.jpg` on one line") == true, "\(errors)")
    }

    @Test func visibilityIsPublicByDefaultAndAnEmptyCaptionIsFine() throws {
        let site = try postSite("---\nphoto: sunset.jpg\ndate: 2026-05-01\nalt: A red sky\n---\n")
        let result = site.load()
        #expect(result.diagnostics.isEmpty)
        let post = try #require(result.content?.posts.first)
        #expect(post.visibility == .public)
        #expect(post.caption == Post.Caption(markdown: "", html: "", firstLine: ""))
    }

    @Test func captionHTMLIsSafe() throws {
        let site = try postSite("---\nphoto: sunset.jpg\ndate: 2026-05-01\n\(frontMatterEnd)<script>alert(1)</script> [x](javascript:alert(1)) <img src=x onerror=alert(1)>\n")
        let post = try #require(site.load().content?.posts.first)
        #expect(!post.caption.html.contains("<script"))
        #expect(!post.caption.html.contains("<img"))
        #expect(!post.caption.html.contains("javascript:"))
        #expect(post.caption.html.contains("<!-- raw HTML omitted -->"))
    }

    @Test func postsAreSortedByIdAndPhotosAreNoWarning() throws {
        let post = "---\nphoto: sunset.jpg\ndate: 2026-05-01\n\(frontMatterEnd)"
        let site = try postSite(post, file: "content/posts/alice/b.md", more: [
            "content/posts/alice/a.md": post,
            "content/posts/alice/c.png": "png",
            "content/posts/alice/notes.txt": "x",
        ])
        let result = site.load()
        #expect(result.content?.posts.map(\.id) == ["alice/a", "alice/b"])
        #expect(result.diagnostics.map(\.description) == [
            "content/posts/alice/notes.txt:1:1: ignored: a post folder holds <slug>.md posts and their photos",
        ])
        #expect(result.warnings.count == 1)
    }

    /// A folder with no post at all still says what it holds is ignored (a post named
    /// `SUNSET.MD` is no post); its photos are no warning.
    @Test func aFolderWithoutPostsWarnsOfWhatIsNotAPhoto() throws {
        let site = try SiteFixture([
            "content/users/alice.yaml": "name: Alice\n",
            "content/posts/alice/SUNSET.MD": "---\nphoto: sunset.jpg\ndate: 2026-05-01\n---\n",
            "content/posts/alice/sunset.jpg": "jpeg",
            "content/posts/alice/notes.txt": "x",
        ])
        let result = site.load()
        #expect(result.content?.posts.isEmpty == true)
        #expect(result.diagnostics.map(\.description).filter { $0.hasPrefix("content/posts/") } == [
            "content/posts/alice/SUNSET.MD:1:1: ignored: a post folder holds <slug>.md posts and their photos",
            "content/posts/alice/notes.txt:1:1: ignored: a post folder holds <slug>.md posts and their photos",
        ])
    }

    @Test func aPhotoWithAHiddenNameIsAnError() throws {
        let site = try postSite("---\nphoto: .sunset.jpg\ndate: 2026-05-01\n" + frontMatterEnd, more: ["content/posts/alice/.sunset.jpg": "jpeg"])
        #expect(site.errors().first?.hasSuffix("photo \".sunset.jpg\" names a hidden file or folder (its name starts with .), which tomo neither reads nor watches for changes: rename it without the leading .") == true, "\(site.errors())")
    }

    @Test func missingAltTextIsAWarning() throws {
        let site = try postSite("---\nphoto: sunset.jpg\ndate: 2026-05-01\n---\nHi\n")
        #expect(site.errors().isEmpty)
        #expect(site.warnings() == [
            "content/posts/alice/sunset.md:2:1: no alt text: people who cannot see the photo learn nothing of it (add `alt: what the photo shows`)",
        ])
        #expect(site.load().content?.posts.count == 1)
    }

    // MARK: - Errors, one per test, with file, line, column and message

    @Test func noFrontMatterIsAnError() throws {
        let site = try postSite("Just a caption\n")
        #expect(site.errors() == [
            "content/posts/alice/sunset.md:1:1: a post starts with front matter: put `---`, `photo: sunset.jpg`, `date: 2026-05-01T18:30:00+09:00` and `---` on the first four lines",
        ])
        #expect(site.load().content?.posts.isEmpty == true)
    }

    @Test func unclosedFrontMatterIsNamed() throws {
        let site = try postSite("---\nphoto: sunset.jpg\ndate: 2026-05-01\nCaption\n")
        #expect(site.errors() == [
            "content/posts/alice/sunset.md:1:1: the front matter opened on line 1 is not closed: add a line with only `---` after its last field",
        ])
    }

    @Test func yamlErrorsHaveTheFilesLineNumbers() throws {
        let site = try postSite("---\nphoto: sunset.jpg\ndate: [2026\n---\n")
        let errors = site.errors()
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("content/posts/alice/sunset.md:4:") == true)
    }

    @Test func unknownKeyHasDidYouMean() throws {
        let site = try postSite("---\nphoto: sunset.jpg\ndate: 2026-05-01\nvisibilty: public\n\(frontMatterEnd)")
        #expect(site.errors() == [
            "content/posts/alice/sunset.md:4:1: unknown key \"visibilty\" in a post's front matter (did you mean \"visibility\"?)",
        ])
    }

    @Test func draftIsReadAsABooleanAndAnythingElseIsAnErrorAtItsValue() throws {
        #expect(try postSite("---\nphoto: sunset.jpg\ndate: 2026-05-01\ndraft: true\n\(frontMatterEnd)").load().content?.posts.first?.draft == true)
        #expect(try postSite("---\nphoto: sunset.jpg\ndate: 2026-05-01\ndraft: false\n\(frontMatterEnd)").load().content?.posts.first?.draft == false)
        #expect(try postSite("---\nphoto: sunset.jpg\ndate: 2026-05-01\n\(frontMatterEnd)").load().content?.posts.first?.draft == false)
        for value in ["yes", "\"true\"", "1", "[true]"] {
            let site = try postSite("---\nphoto: sunset.jpg\ndate: 2026-05-01\ndraft: \(value)\n\(frontMatterEnd)")
            #expect(site.errors().count == 1, "\(value)")
            #expect(site.errors().first?.hasPrefix("content/posts/alice/sunset.md:4:8: expected true or false for \"draft\"") == true, "\(value): \(site.errors())")
        }
    }

    @Test func missingPhotoIsAnError() throws {
        let site = try postSite("---\ndate: 2026-05-01\n\(frontMatterEnd)")
        #expect(site.errors() == ["content/posts/alice/sunset.md:2:1: \"photo\" is missing or empty: add a line like `photo: sunset.jpg`"])
    }

    @Test func emptyPhotoIsAnError() throws {
        let site = try postSite("---\nphoto:\ndate: 2026-05-01\n\(frontMatterEnd)")
        #expect(site.errors() == ["content/posts/alice/sunset.md:2:7: \"photo\" is missing or empty: add a line like `photo: sunset.jpg`"])
    }

    @Test func missingDateIsAnError() throws {
        let site = try postSite("---\nphoto: sunset.jpg\n\(frontMatterEnd)")
        #expect(site.errors() == ["content/posts/alice/sunset.md:2:1: \"date\" is missing or empty: add a line like `date: 2026-05-01T18:30:00+09:00`"])
    }

    @Test func emptyFrontMatterNamesBothRequiredFields() throws {
        let site = try postSite("---\n---\nCaption\n")
        #expect(site.errors() == [
            "content/posts/alice/sunset.md:1:1: \"photo\" is missing or empty: add a line like `photo: sunset.jpg`",
            "content/posts/alice/sunset.md:1:1: \"date\" is missing or empty: add a line like `date: 2026-05-01T18:30:00+09:00`",
        ])
    }

    @Test func photoThatDoesNotExistIsAnError() throws {
        let site = try postSite("---\nphoto: sunrise.jpg\ndate: 2026-05-01\n\(frontMatterEnd)")
        #expect(site.errors() == ["content/posts/alice/sunset.md:2:8: photo file not found: put the photo at content/posts/alice/sunrise.jpg or fix the path"])
    }

    @Test func photoOutsideThePostFolderIsAnError() throws {
        let site = try postSite("---\nphoto: ../../users/alice/icon.png\ndate: 2026-05-01\n\(frontMatterEnd)")
        #expect(site.errors() == [
            "content/posts/alice/sunset.md:2:8: photo \"../../users/alice/icon.png\" must stay inside content/posts/alice/: put the photo beside the post and write its file name",
        ])
    }

    @Test func photoThatIsNoImageIsAnError() throws {
        let site = try postSite("---\nphoto: sunset.md\ndate: 2026-05-01\n\(frontMatterEnd)")
        #expect(site.errors() == [
            "content/posts/alice/sunset.md:2:8: photo \"sunset.md\" is not a photo file: use a .jpg, .jpeg, .png, .webp, .gif, .tif, .tiff, .heic, .heif, .avif",
        ])
    }

    @Test func dateThatIsNotISO8601IsAnError() throws {
        let site = try postSite("---\nphoto: sunset.jpg\ndate: May 1st 2026\n\(frontMatterEnd)")
        #expect(site.errors() == [
            "content/posts/alice/sunset.md:3:7: \"May 1st 2026\" is not a date: write date as 2026-05-01T18:30:00+09:00 (ISO 8601 with the UTC offset, -23:59 to +23:59), 2026-05-01 18:30 or 2026-05-01; a time without an offset is taken as UTC",
        ])
    }

    @Test func unknownVisibilityHasDidYouMean() throws {
        let site = try postSite("---\nphoto: sunset.jpg\ndate: 2026-05-01\nvisibility: folowers\n\(frontMatterEnd)")
        #expect(site.errors() == [
            "content/posts/alice/sunset.md:4:13: unknown visibility \"folowers\" (did you mean \"followers\"?): use public, followers or private",
        ])
    }

    /// A value written by mistake at any length (a paste, a runaway script) gives a message a
    /// line long: quoted by its first 100 characters and its length.
    @Test func aLongValueIsQuotedShortened() throws {
        let long = String(repeating: "m", count: 100_000)
        let quoted = "\"\(String(repeating: "m", count: 100))…\" (100,000 characters)"
        // YAML takes a key of at most 1,024 characters.
        let key = String(repeating: "k", count: 1_000)
        let site = try postSite("---\nphoto: sunset.jpg\ndate: \(long)\nvisibility: \(long)\n\(key): 1\n\(frontMatterEnd)")
        let errors = site.errors()
        #expect(errors.count == 3 && errors.allSatisfy { $0.count < 400 }, "\(errors.map { $0.prefix(300) })")
        #expect(errors.contains { $0.hasPrefix("content/posts/alice/sunset.md:3:7: \(quoted) is not a date") })
        #expect(errors.contains { $0.hasPrefix("content/posts/alice/sunset.md:4:13: unknown visibility \(quoted): use public") })
        #expect(errors.contains { $0.hasPrefix("content/posts/alice/sunset.md:5:1: unknown key \"\(String(repeating: "k", count: 100))…\" (1,000 characters) in a post") })
    }

    @Test func badSlugIsAnError() throws {
        let site = try postSite("---\nphoto: sunset.jpg\ndate: 2026-05-01\n\(frontMatterEnd)", file: "content/posts/alice/My Sunset.md")
        #expect(site.errors() == [
            "content/posts/alice/My Sunset.md:1:1: bad file name: slug \"My Sunset\" may use only a-z, 0-9 and - (try \"my-sunset\"); the file name is the post's slug",
        ])
    }

    @Test func badHandleFolderIsAnError() throws {
        let site = try postSite("x", more: ["content/posts/Bob/a.md": "---\n---\n"])
        #expect(site.errors().first == "content/posts/Bob/:1:1: bad folder name: handle \"Bob\" may use only a-z, 0-9 and _ (try \"bob\"); the folder name is the handle of the user who posts")
    }

    @Test func postFolderWithoutProfileIsAnError() throws {
        let site = try postSite("---\nphoto: sunset.jpg\ndate: 2026-05-01\n\(frontMatterEnd)", more: ["content/posts/bob/a.md": "---\n---\n"])
        #expect(site.errors() == [
            "content/posts/bob/:1:1: no profile content/users/bob.yaml for these posts: add the user with `tomo user add bob`, or move the posts to their owner's folder",
        ])
        #expect(site.load().content?.posts.map(\.id) == ["alice/sunset"])
    }

    @Test func everyErrorOfAFileIsReportedAtOnce() throws {
        let site = try postSite("---\nphoto: nope.jpg\ndate: yesterday\nvisibility: secret\n---\n")
        #expect(site.errors().count == 3)
    }

    @Test func writtenPostFilesReadBackExactly() throws {
        let alt = "Quotes \" and \\ backslash,\ttab, # hash, - dash\nnew line \u{202E} and 日本語"
        let text = PostFileText.make(photo: "sunset.jpg", date: "2026-05-01 18:30", alt: alt, visibility: .private, caption: "\n**Hi**\n")
        let post = try #require(try postSite(text).load().content?.posts.first)
        #expect(post.alt == alt)
        #expect(post.visibility == .private)
        #expect(post.dateText == "2026-05-01 18:30")
        #expect(post.caption.markdown == "**Hi**")
    }

    /// Posts come out in id order (`handle/slug`), though their files are listed in name order,
    /// which is not always the same: `a-b.md` comes before `a.md`, slug `a` before `a-b`.
    @Test func postsComeInIdOrderNotInTheOrderOfTheirFileNames() throws {
        let post = "---\nphoto: sunset.jpg\ndate: 2026-05-01 18:30\n\(frontMatterEnd)"
        let site = try postSite(post, more: [
            "content/posts/alice/a.md": post, "content/posts/alice/a-b.md": post, "content/posts/alice/a-b-c.md": post,
            "content/users/al.yaml": "name: Al\n", "content/posts/al/b.md": post, "content/posts/al/sunset.jpg": "jpeg",
        ])
        let ids = try #require(site.load().content?.posts.map(\.id))
        #expect(ids == ["al/b", "alice/a", "alice/a-b", "alice/a-b-c", "alice/sunset"])
    }

    // MARK: - One post at a time

    @Test func loadPostReadsOneAndNothingWhenTheFileIsGone() throws {
        let site = try postSite("---\nphoto: sunset.jpg\ndate: 2026-05-01 18:30\n\(frontMatterEnd)")
        let (post, diagnostics) = ContentLoader.loadPost(site: site.root, id: "alice/sunset")
        #expect(diagnostics.isEmpty)
        #expect(post?.id == "alice/sunset")
        #expect(post?.utcOffset == 0)
        let gone = ContentLoader.loadPost(site: site.root, id: "alice/sunrise")
        #expect(gone.post == nil && gone.diagnostics.isEmpty)
        #expect(ContentLoader.loadPost(site: site.root, id: "../x").diagnostics.count == 1)
    }

    @Test func loadPostReportsTheFilesErrors() throws {
        let site = try postSite("---\nphoto: sunset.jpg\ndate: soon\n\(frontMatterEnd)")
        let (post, diagnostics) = ContentLoader.loadPost(site: site.root, id: "alice/sunset")
        #expect(post == nil)
        #expect(diagnostics.map(\.location?.description) == ["content/posts/alice/sunset.md:3:7"])
    }
}

@Suite struct WrittenDateTests {
    private func instant(_ text: String) -> Date? { ISO8601DateFormatter().date(from: text) }

    @Test func acceptedForms() {
        #expect(WrittenDate.parse("2026-05-01T18:30:00+09:00")?.instant == instant("2026-05-01T09:30:00Z"))
        #expect(WrittenDate.parse("2026-05-01T18:30:00+09:00")?.utcOffset == 32_400)
        #expect(WrittenDate.parse("2026-05-01T18:30:00-0330")?.utcOffset == -12_600)
        #expect(WrittenDate.parse("2026-05-01T18:30+09:00")?.instant == instant("2026-05-01T09:30:00Z"))
        #expect(WrittenDate.parse("2026-05-01T18:30:00Z")?.instant == instant("2026-05-01T18:30:00Z"))
        #expect(WrittenDate.parse("2026-05-01T18:30:00.250Z")?.instant == instant("2026-05-01T18:30:00Z")?.addingTimeInterval(0.25))
        #expect(WrittenDate.parse("2026-05-01 18:30")?.instant == instant("2026-05-01T18:30:00Z"))
        #expect(WrittenDate.parse("2026-05-01 18:30")?.hasZone == false)
        #expect(WrittenDate.parse("2026-05-01T18:30")?.instant == instant("2026-05-01T18:30:00Z"))
        #expect(WrittenDate.parse("2026-05-01")?.instant == instant("2026-05-01T00:00:00Z"))
        #expect(WrittenDate.parse("2026-05-01")?.hasTime == false)
    }

    @Test func refusedForms() {
        for text in ["2026-02-30", "0000-01-01", "2026-5-1", "May 1", "2026-05-01T25:00", "2026-05-01T18:61", "2026-05-01T18:30:00+25:00", "2026-05-01T", "2026-05-01 18:30 JST", ""] {
            #expect(WrittenDate.parse(text) == nil, "\(text)")
        }
    }

    @Test func textKeepsTheOffset() throws {
        let date = try #require(instant("2026-05-01T09:30:00Z"))
        #expect(WrittenDate.text(for: date, utcOffset: 32_400) == "2026-05-01T18:30:00+09:00")
        #expect(WrittenDate.text(for: date, utcOffset: -12_600) == "2026-05-01T06:00:00-03:30")
        #expect(WrittenDate.parse(WrittenDate.text(for: date, utcOffset: 0))?.instant == date)
    }
}
