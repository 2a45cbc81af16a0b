import Foundation
import TomoContent
import TomoCore
import TomoStore

/// The files `tomo init` writes: a site that builds at once and shows each kind of content.
public enum SiteStarter {
    static let files: [(path: String, text: String)] = [
        ("content/site.yaml", SchemaFiles.modeline(ContentSchema.site, for: "content/site.yaml") + "\n" + """
        # Site settings. Every field is explained in tomo's docs/content.md ("content/site.yaml").
        title: My Tomo site
        baseURL: https://example.com/
        language: en            # a BCP 47 tag (ja, fr, zh-Hans, pt-BR…): labels and dates
        description: Profile pages and photos.
        homeUsers: 50           # newest users on the home page
        pageSize: 20            # posts per timeline page
        # contact: hello@example.com
        images:
          widths: [320, 640, 1280]

        """),
        ("content/users/example.yaml", SchemaFiles.modeline(ContentSchema.profile, for: "content/users/example.yaml") + "\n" + """
        # A profile: the file name is the handle (example → /example/).
        name: Example User
        bio: |
          Hello! This is my **profile**. Edit `content/users/example.yaml`
          and run `tomo build` (or keep `tomo serve` running) to see it change.
        links:
          website: https://example.com
          # twitter: https://twitter.com/you
          # instagram: https://www.instagram.com/you/
          # mastodon: https://mastodon.social/@you
        items:
          - text: Hello, I'm new here.
          - text: My website
            url: https://example.com
            color: blue
        itemColor: gray
        # email: you@example.com      # never published unless showEmail: true
        # showEmail: false

        """),
        ("content/pages/about.md", """
        ---
        title: About
        ---
        This site is made with **Tomo**. Write free pages like this one in `content/pages/`.

        """),
        (".gitignore", """
        /public/
        /.tomo-cache/
        /content/.store.lock
        /content/.files.lock
        /content/.store.json.tmp

        """),
        (SchemaFiles.editorSettingsFile, SchemaFiles.editorSettings),
    ]

    /// Files kept as they are when the folder has them already (a site's own ignore list and
    /// editor settings).
    private static let keptIfPresent: Set<String> = [".gitignore", SchemaFiles.editorSettingsFile]

    /// Creates a starter site in `folder` (made if missing), registers the example user in the
    /// store, and returns the paths it wrote.
    /// Refuses to touch a folder that already holds a site.
    public static func create(at folder: URL) throws(Diagnostic) -> [String] {
        let fileManager = FileManager.default
        // Something at the folder's name that is no folder (a file, a device, a link to
        // nothing) is named as what it is, not as a file that cannot be written inside it.
        if let target = FolderEntries.danglingLinkTarget(folder.path) {
            throw Diagnostic("\(folder.path) is a symbolic link to \(target), which does not exist: create that folder first, or choose another folder for the site")
        }
        var status = stat()
        if stat(folder.path, &status) == 0, !status.isFolder {
            throw Diagnostic("\(folder.path) is a file, not a folder: choose another folder for the site")
        }
        if fileManager.fileExists(atPath: folder.appendingPathComponent(ContentPath.siteConfigFile).path) {
            throw Diagnostic("\(folder.path) already holds a site (content/site.yaml exists): nothing was changed")
        }
        // A file this init would write, there already with the very bytes it would write, is
        // what an init stopped half way (a `kill -9`) left: the same init finishes the site.
        func isThere(_ file: (path: String, text: String)) -> Bool {
            fileManager.contents(atPath: folder.appendingPathComponent(file.path).path) == Data(file.text.utf8)
        }
        for file in files where !keptIfPresent.contains(file.path) && !isThere(file) {
            if fileManager.fileExists(atPath: folder.appendingPathComponent(file.path).path) {
                throw Diagnostic("\(folder.appendingPathComponent(file.path).path) already exists: nothing was changed (run tomo init in an empty folder)")
            }
        }
        let store = StoreFile(site: folder)
        let schemas = folder.appendingPathComponent(SchemaFiles.folder)
        let schemaFiles = ContentSchema.documents.map { schemas.appendingPathComponent($0.fileName) }
        let toWrite = files.filter { !isThere($0) && (!keptIfPresent.contains($0.path) || !fileManager.fileExists(atPath: folder.appendingPathComponent($0.path).path)) }
        // What this init makes, files and folders in the order made, goes again when it fails
        // (a full disk): the folder is left as it was and the same init can run again.
        var made: [URL] = []
        func willMake(_ url: URL) {
            var missing: [URL] = []
            var place = url
            while !fileManager.fileExists(atPath: place.path), place.path.count > 1 {
                missing.append(place)
                place = place.deletingLastPathComponent()
            }
            made += missing.reversed().filter { !made.contains($0) }
        }
        func write(_ file: (path: String, text: String)) throws(Diagnostic) {
            let url = folder.appendingPathComponent(file.path)
            willMake(url.deletingLastPathComponent())
            do {
                try fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try RegularFile.createWhole(url.path) { try Data(file.text.utf8).write(to: $0) }
            } catch {
                throw Diagnostic("cannot write \(url.path): \(Diagnostic.reason(of: error))")
            }
            // Only once it is made: a file another init made first (two at once) is not this
            // one's to remove.
            made.append(url)
        }
        do throws(Diagnostic) {
            for file in toWrite where file.path != ContentPath.siteConfigFile { try write(file) }
            willMake(store.url)
            willMake(store.lockURL)
            _ = try store.update { store throws(Diagnostic) in try store.addUser("example") }
            schemaFiles.forEach(willMake)
            _ = try SchemaFiles.write(to: schemas)
            // content/site.yaml, which makes the folder a site, last.
            for file in toWrite where file.path == ContentPath.siteConfigFile { try write(file) }
        } catch {
            for url in made.reversed() where unlink(url.path) != 0 { rmdir(url.path) }
            throw error
        }
        // Every file but a kept one the folder had: the site's files, written now or before.
        var written = files.map(\.path).filter { path in !keptIfPresent.contains(path) || toWrite.contains { $0.path == path } }
        written.insert(StoreFile.displayPath, at: min(3, written.count))
        return written + schemaFiles.map { "\(SchemaFiles.folder)/\($0.lastPathComponent)" }
    }
}
