import Foundation
import TomoCore
import TomoMarkdown
import TomoYAML

/// Validates one post file: YAML front matter (`photo`, `date`, `alt`, `visibility`, `draft`)
/// and a Markdown caption.
struct PostReader {
    /// The keys of a post's front matter.
    static let table = KeyTable("a post's front matter", [
        KeySpec("photo", .file(extensions: ContentPath.photoExtensions), "The photo's file name, beside the post (e.g. 2026-05-01-tokyo.jpg).", required: true),
        KeySpec("date", .date, "When it was taken or posted: 2026-05-01T18:30:00+09:00, 2026-05-01 18:30 or 2026-05-01 (without an offset, UTC).", required: true),
        KeySpec("alt", .text, "What the photo shows, for people who cannot see it."),
        KeySpec("visibility", .word(Post.Visibility.allCases.map(\.rawValue)), "Who sees the post.", default: .string(Post.Visibility.public.rawValue)),
        KeySpec("draft", .boolean, "Leaves the post out of the build (tomo build --drafts keeps it).", default: .bool(false)),
    ])

    let handle: String
    let slug: String
    let file: String
    /// `content/posts/<handle>/`, which the photo path is relative to.
    let folder: URL
    let reader: NodeReader

    /// The post, or nil when an error makes it unusable; problems go to `reader`.
    func read(_ bytes: [UInt8]) -> Post? {
        guard let (document, fields) = frontMatter(bytes) else { return nil }
        let photo = self.photo(fields)
        let date = self.date(fields)
        let visibility = self.visibility(fields)
        let draft = reader.bool(fields, "draft") ?? false
        let alt = reader.string(fields, "alt").flatMap { $0.trimmingWhitespace().isEmpty ? nil : $0 }
        // No alt text is a warning; `alt:` with no value is an error already.
        if alt == nil, fields["alt"]?.scalar != .null {
            reader.warning("no alt text: people who cannot see the photo learn nothing of it (add `alt: what the photo shows`)", at: fields["alt"]?.location ?? fields.location)
        }
        let start = SourceLocation(file: file, line: 1, column: 1)
        let caption = document.body.trimmingWhitespace()
        // The caption is parsed trimmed: its first line is the body's first one that is not blank.
        let blankLines = document.body.prefix { $0.isWhitespace }.count { $0.isNewline }
        guard let parsedCaption = reader.readableMarkdown(caption, named: "the caption", at: start, firstLine: document.bodyLine + blankLines),
              let photo, let date, let visibility, !reader.hasErrors else { return nil }
        return Post(
            handle: handle,
            slug: slug,
            file: file,
            photo: photo,
            date: date.parsed.instant,
            dateText: date.text,
            utcOffset: date.parsed.utcOffset,
            alt: alt,
            visibility: visibility,
            draft: draft,
            caption: Post.Caption(markdown: caption, html: parsedCaption.html, firstLine: parsedCaption.firstLinePlainText),
            photoAt: fields["photo"]?.location
        )
    }

    /// The post's visibility alone, read from the front matter by the same steps as `read`:
    /// what the store's commands ask of every post a batch likes, where reading each photo and
    /// caption too would cost more than the batch. Nil after reporting why it cannot be told.
    /// The post's `visibility` and `draft` as `read` takes them, without the rest of the post;
    /// nil after reporting why not.
    func standing(_ bytes: [UInt8]) -> (visibility: Post.Visibility, isDraft: Bool)? {
        guard let fields = frontMatter(bytes)?.fields, let visibility = visibility(fields) else { return nil }
        return (visibility, reader.bool(fields, "draft") ?? false)
    }

    /// The front matter's fields and the caption after it; nil after reporting why not.
    private func frontMatter(_ bytes: [UInt8]) -> (document: FrontMatter, fields: Fields)? {
        guard let document = reader.splitFrontMatter(bytes, file: file) else { return nil }
        guard let yaml = document.yaml else {
            reader.error(
                "a post starts with front matter: put `---`, `photo: \(slug).jpg`, `date: 2026-05-01T18:30:00+09:00` and `---` on the first four lines",
                at: SourceLocation(file: file, line: 1, column: 1)
            )
            return nil
        }
        guard let root = reader.parseYAML(yaml, file: file) else { return nil }
        // `---` right after `---` is front matter with no fields: report what is missing.
        let frontMatter = root.scalar == .null ? YAMLNode(.mapping([]), at: SourceLocation(file: file, line: 1, column: 1)) : root
        guard let fields = reader.fields(of: frontMatter, table: Self.table) else { return nil }
        return (document, fields)
    }

    /// The photo's path: an image file that exists and stays inside the post's folder.
    private func photo(_ fields: Fields) -> String? {
        guard let path = reader.string(fields, "photo", required: "\(slug).jpg"), let node = fields["photo"] else { return nil }
        let fileExtension = ContentPath.fileExtension(of: path).lowercased()
        guard ContentPath.photoExtensions.contains(fileExtension) else {
            // `photo: "x.png "`: a photo's name, but for the space after it.
            if let trimmed = NodeReader.trimmedPath(path), ContentPath.photoExtensions.contains(ContentPath.fileExtension(of: trimmed).lowercased()) {
                reader.surroundingSpaceError(path, key: "photo", trimmed: trimmed, at: node.location)
            } else {
                reader.error("photo \(path.quotedValue) is not a photo file: use a .\(ContentPath.photoExtensions.joined(separator: ", ."))", at: node.location)
            }
            return nil
        }
        return reader.containedFile(
            path, key: "photo", at: node.location, in: folder,
            outside: "must stay inside content/posts/\(handle)/: put the photo beside the post and write its file name",
            missing: "put the photo at content/posts/\(handle)/\(path) or fix the path"
        )
    }

    private func date(_ fields: Fields) -> (text: String, parsed: WrittenDate)? {
        guard let text = reader.string(fields, "date", required: "2026-05-01T18:30:00+09:00"), let node = fields["date"] else { return nil }
        guard let date = WrittenDate.parse(text) else {
            reader.error("\(text.quotedValue) is not a date: write date as \(WrittenDate.acceptedForms); a time without an offset is taken as UTC", at: node.location)
            return nil
        }
        return (text, date)
    }

    /// Public only when the key is absent: one that is there but cannot be read (empty, a
    /// list) is nil, never the default.
    private func visibility(_ fields: Fields) -> Post.Visibility? {
        guard let node = fields["visibility"] else { return .public }
        guard let word = reader.string(fields, "visibility") else { return nil }
        guard let visibility = Post.Visibility(rawValue: word) else {
            let hint = Suggestion.hint(for: word, in: Post.Visibility.allCases.map(\.rawValue))
            reader.error("unknown visibility \(word.quotedValue)\(hint): use public, followers or private", at: node.location)
            return nil
        }
        return visibility
    }
}
