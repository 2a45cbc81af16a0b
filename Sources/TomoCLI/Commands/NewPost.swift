import Foundation
import TomoContent
import TomoCore
import TomoImages
import TomoStore

/// `tomo post add`: every input checked before anything is written, then the photo copied
/// beside a new post file in `content/posts/<handle>/`, the only folder it writes in.
struct NewPost {
    let site: URL
    let handle: String
    let photo: URL
    /// Lower case, one of `ContentPath.photoExtensions`.
    let photoExtension: String
    let slug: String
    let dateText: String
    let alt: String?
    let visibility: Post.Visibility
    let caption: String
    /// The photo is in the posts folder already, the same bytes, without its post: a `post add`
    /// stopped between the two (a `kill -9`, a crash), which this one finishes.
    let finishing: Bool

    var folder: URL { site.appendingPathComponent(ContentPath.postsFolder(of: handle)) }
    var postName: String { "\(slug).md" }
    var photoName: String { "\(slug).\(photoExtension)" }
    var id: String { "\(handle)/\(slug)" }

    init(_ invocation: Invocation) throws {
        handle = invocation.arguments[0]
        if let problem = Identifiers.handleProblem(handle) { throw Diagnostic(problem) }
        // The parser checked every option value against its kind: a typo is wrong usage
        // (exit 2) before anything here, whatever the site holds.
        visibility = try invocation.value("visibility", ValueTypes.visibility) ?? .public
        if let text = try invocation.value("date", ValueTypes.date) {
            dateText = text
        } else {
            let now = Date()
            dateText = WrittenDate.text(for: now, utcOffset: TimeZone.current.secondsFromGMT(for: now))
        }
        alt = invocation.option("alt").flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        caption = invocation.option("caption") ?? ""

        site = try invocation.siteDirectory()
        _ = try StoreFile(site: site).read(sections: [.users]).requireUser(handle)
        guard try UserContentFiles(site: site, handle: handle).hasProfile else {
            throw Diagnostic("\(handle) has no profile \(ContentPath.profileFile(handle)): write one first (`tomo user add \(handle)` writes a starter profile)")
        }
        let photoArgument = invocation.arguments[1]
        photo = invocation.path(photoArgument)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: photo.path, isDirectory: &isDirectory) else {
            throw Diagnostic("no photo at \(photoArgument): give the path of an image file")
        }
        guard !isDirectory.boolValue else {
            throw Diagnostic("\(photoArgument) is a folder: give the path of an image file in it")
        }
        // Named after the path as typed: the working-directory path may already have followed a link.
        let typedName = (photoArgument as NSString).lastPathComponent as NSString
        photoExtension = typedName.pathExtension.lowercased()
        guard ContentPath.photoExtensions.contains(photoExtension) else {
            throw Diagnostic("\(photoArgument) is not a photo tomo can publish: use a .\(ContentPath.photoExtensions.joined(separator: ", ."))")
        }
        // Decoded whole, as the next build will: a text file named .jpg or a cut-off download
        // is refused here, not by that build.
        try ImageProcessor.verify(ImageSource(file: photo.resolvingSymlinksInPath(), displayPath: photoArgument))
        let folder = site.appendingPathComponent(ContentPath.postsFolder(of: handle))
        let source = photo.resolvingSymlinksInPath()
        let named = invocation.option("slug")
        slug = named ?? Self.freeSlug(from: typedName.deletingPathExtension, photoExtension: photoExtension, photo: source, in: folder)
        finishing = Self.isUnfinished(slug: slug, photoExtension: photoExtension, photo: source, in: folder)
        if named != nil, !finishing, let taken = Self.takenFile(slug: slug, photoExtension: photoExtension, in: folder) {
            throw Diagnostic("\(ContentPath.postFile(handle, taken)) already exists: \(handle)/\(slug) is taken; choose another --slug")
        }
    }

    /// Copies the photo and writes the post; on any failure removes what it wrote. The post's
    /// warnings (no alt text) are returned for the person to read.
    func write() throws -> [Diagnostic] {
        let postURL = folder.appendingPathComponent(postName)
        let photoURL = folder.appendingPathComponent(photoName)
        let text = PostFileText.make(photo: photoName, date: dateText, alt: alt, visibility: visibility, caption: caption)
        let madeFolder = !FileManager.default.fileExists(atPath: folder.path)
        // A folder this command made goes again when it fails: it wrote nothing, then.
        func undo(_ urls: [URL] = []) {
            for url in urls { unlink(url.path) }
            if madeFolder { rmdir(folder.path) }
        }
        // The photo this command finishes the post of was there before it: it stays.
        let photoMade = finishing ? [] : [photoURL]
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // A symbolic link is followed: the post gets the photo's bytes, not a link out of the site.
            if !finishing { try place(photoName) { try FileManager.default.copyItem(at: photo.resolvingSymlinksInPath(), to: $0) } }
        } catch {
            undo()
            throw Diagnostic("cannot copy the photo to \(ContentPath.postFile(handle, photoName)): \(Diagnostic.reason(of: error))")
        }
        do {
            try place(postName) { try Data(text.utf8).write(to: $0) }
        } catch {
            undo(photoMade)
            throw Diagnostic("cannot write \(ContentPath.postFile(handle, postName)): \(Diagnostic.reason(of: error))")
        }
        // The inputs were checked; reading the post back proves the file says what was meant.
        // It may not show the owner's private address either, as the whole site's load finds.
        let (post, diagnostics) = ContentLoader.loadPost(site: site, id: id)
        let addresses = ContentLoader.privateAddresses(of: [ContentLoader.loadProfile(site: site, handle: handle).profile].compactMap { $0 })
        let problems = post.map { post in ContentLoader.privateAddressProblems(in: [post], addresses: addresses, site: site) } ?? []
        if post == nil || !problems.isEmpty {
            undo([postURL] + photoMade)
            throw DiagnosticList(diagnostics + problems)
        }
        return diagnostics
    }

    /// Makes the file `name` in the post's folder whole or not at all (`RegularFile.createWhole`).
    private func place(_ name: String, writing write: (URL) throws -> Void) throws {
        try RegularFile.createWhole(folder.appendingPathComponent(name).path, writing: write)
    }

    /// The file that makes `slug` taken (the post or a photo of that name), or nil when it is free.
    private static func takenFile(slug: String, photoExtension: String, in folder: URL) -> String? {
        ["\(slug).md", "\(slug).\(photoExtension)"].first { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }
    }

    /// Whether the slug's photo is in `folder` with the bytes of `photo`, and its post is not:
    /// what a `post add` of this photo stopped half way leaves.
    private static func isUnfinished(slug: String, photoExtension: String, photo: URL, in folder: URL) -> Bool {
        let existing = folder.appendingPathComponent("\(slug).\(photoExtension)")
        return !FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(slug).md").path)
            && FileManager.default.contentsEqual(atPath: existing.path, andPath: photo.path)
    }

    /// The photo's name as a slug (`IMG 0012.JPG` gives `img-0012`, a name without a-z or 0-9
    /// gives `post`), with `-2`, `-3`… appended until it is free, or until it is the post a
    /// `post add` of this photo left unfinished.
    private static func freeSlug(from name: String, photoExtension: String, photo: URL, in folder: URL) -> String {
        let base = Identifiers.slug(from: name).isEmpty ? "post" : Identifiers.slug(from: name)
        var number = 1
        while true {
            let suffix = number == 1 ? "" : "-\(number)"
            let slug = Identifiers.slug(from: base, limit: 80 - suffix.count) + suffix
            if takenFile(slug: slug, photoExtension: photoExtension, in: folder) == nil
                || isUnfinished(slug: slug, photoExtension: photoExtension, photo: photo, in: folder) { return slug }
            number += 1
        }
    }
}
