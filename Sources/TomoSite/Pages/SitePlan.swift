import TomoContent
import TomoCore

/// Lists every file of the site: which template renders it, or where its bytes come from, and
/// what it reads. Each page kind plans its own files beside its view; nothing is rendered here.
enum SitePlan {
    /// What every HTML page reads: the site's settings, the theme, the free pages' links and the
    /// theme's preview image (shown by any page without an image of its own). Pages list it as
    /// one of their `inputLists`, so its one copy is shared by every page of the plan.
    static let everyPage: [InputKey] = [.site, .theme, .pageList, .staticFile(PreviewImage.themePath)]

    /// Every file, the root static folder's last; an error for each of those that would take
    /// the place of a file tomo makes (or of a folder tomo needs), since one of the two would be
    /// lost.
    /// `expectedCount`: how many files the last plan had, when known.
    static func files(for model: SiteModel, expectedCount: Int? = nil) throws(DiagnosticList) -> [PlannedFile] {
        // In two halves of about the same work, one on each core (the timelines, whose pages
        // follow every user's follows, are the larger part of the plan), put together in order.
        var (files, timelinesAndAfter) = concurrently({
            var files: [PlannedFile] = []
            if let expectedCount { files.reserveCapacity(expectedCount) }
            SitePages.plan(model, into: &files)
            FeedPages.plan(model, into: &files)
            ProfilePages.plan(model, into: &files)
            PostPages.plan(model, into: &files)
            return files
        }, {
            var files: [PlannedFile] = []
            TimelinePages.plan(model, into: &files)
            UserListPages.plan(model, into: &files)
            RedirectPages.plan(model, into: &files)
            return files
        })
        files.append(contentsOf: consume timelinesAndAfter)
        try addRootFiles(model.published.rootFolder.files, to: &files)
        // Grown by doubling, the list of 467,086 files would keep up to twice the room it needs
        // for as long as the plan is kept: copied to its size then, unless it was about its
        // size from the start (copying it took a tenth of a second).
        guard files.capacity - files.count > files.count / 16 else { return files }
        return files.withUnsafeBufferPointer { Array($0) }
    }

    /// The root static folder's files (`ownFiles`, by output path), after the generated ones.
    private static func addRootFiles(_ ownFiles: [String: String], to files: inout [PlannedFile]) throws(DiagnosticList) {
        guard !ownFiles.isEmpty else { return }
        // A generated file that reads the root file at its own path is made from it (the site's
        // own _redirects goes first in RedirectPages'), so that root file is not published alone.
        let madeFromRootFile = Set(files.filter { ownFiles[$0.path] != nil && $0.inputs.contains(.rootFile($0.path)) }.map(\.path))
        let rootFiles = ownFiles.keys.sorted().filter { !madeFromRootFile.contains($0) }
        let problems = collisions(of: rootFiles, with: files)
        guard problems.isEmpty else { throw DiagnosticList(problems) }
        for path in rootFiles {
            files.append(PlannedFile(path: path, inputs: [.rootFile(path)], source: .bytes { views throws(Diagnostic) in
                try views.rootFile(path)
            }))
        }
    }

    /// Each root static file published where a generated file is, or where one needs a folder,
    /// or inside what is a generated file, or at a path that differs from another published
    /// one only in letter case (`CaseCollisions`).
    private static func collisions(of rootFiles: [String], with generated: [PlannedFile]) -> [Diagnostic] {
        var byPath: [String: PlannedFile] = [:]
        for file in generated { byPath[file.path] = file }
        var byLetters = CaseCollisions(lookingFor: rootFiles)
        for file in generated { byLetters.add(file.path) }
        for path in rootFiles { byLetters.add(path) }
        var problems: [Diagnostic] = []
        for path in rootFiles {
            let location = SourceLocation(file: ContentPath.rootStaticFolder + "/" + path, line: 1, column: 1)
            if let file = byPath[path] {
                problems.append(Diagnostic("this file would be published as \(path), but tomo makes \(path) itself (\(origin(of: file))): rename or remove this file", at: location))
                continue
            }
            if let inner = byLetters.fileInside(folder: path), let file = byPath[inner] {
                problems.append(Diagnostic("this file would be published as \(path), but tomo makes the folder \(path)/ (\(holding(inner, file))): rename or remove this file", at: location))
                continue
            }
            if let folder = FolderNesting.folders(of: path).first(where: { byPath[String($0)] != nil }), let file = byPath[String(folder)] {
                problems.append(Diagnostic("this file would be published inside \(folder)/, but tomo makes \(folder) as a file (\(origin(of: file))): move this file elsewhere in \(ContentPath.rootStaticFolder)/", at: location))
                continue
            }
            // Hosts whose file names ignore letter case would keep one of two paths that
            // differ only in it.
            if let (at, other) = byLetters.collision(of: path) {
                let what = at == path ? "this file would be published as \(path)" : "this file would be published inside \(at)/"
                let which: String
                switch other {
                case .file(let file): which = byPath[file].map { "\(file) that tomo makes (\(origin(of: $0)))" } ?? "\(ContentPath.rootStaticFolder)/\(file)"
                case .folder(let folder, let inner): which = byPath[inner].map { "the folder \(folder)/ that tomo makes (\(holding(inner, $0)))" } ?? "the folder \(ContentPath.rootStaticFolder)/\(folder)/"
                }
                problems.append(Diagnostic("\(what), which differs only in letter case from \(which); a host whose file names ignore case keeps only one of them: rename or remove this file", at: location))
            }
        }
        return problems
    }

    /// What a generated file is, for a message naming it.
    /// What a folder tomo makes holds, by `file` at `path` in it: a page or a theme file by its
    /// path; thumbnails and share cards by what they are, since their names hold the hash of
    /// an image that `tomo check` does not encode (and would name another file).
    private static func holding(_ path: String, _ file: PlannedFile) -> String {
        if case .file = file.source { return "for thumbnails of images or share cards" }
        return "for \(path), \(origin(of: file))"
    }

    private static func origin(of file: PlannedFile) -> String {
        switch file.source {
        case .page(let template, _): return "the page of the \(template) template"
        case .file: return "a thumbnail of an image or a share card"
        case .bytes:
            if case .staticFile(let path)? = file.inputs.first(where: { if case .staticFile = $0 { true } else { false } }) {
                return "the theme's static file templates/\(path)"
            }
            return "a file tomo writes"
        }
    }
}
