import Foundation
import TomoContent
import TomoCore

/// The site's root static folder, `static/` beside `content/` and `templates/`: every file in it,
/// dot files included (`.nojekyll`, `.well-known/atproto-did`), is published byte for byte at the
/// same path from the output's root (`static/robots.txt` → `robots.txt`). Links follow the site's
/// rule (`SiteLinks`); a folder that cannot be read, a name no output may have and a file that is
/// not a regular one are errors, never a file left out.
struct RootFolder: Sendable, Equatable {
    /// Output path (`CNAME`, `.well-known/atproto-did`) → the file's path on disk.
    let files: [String: String]

    static let empty = RootFolder(files: [:])

    static func load(site: URL) throws(DiagnosticList) -> RootFolder {
        let folder = ContentPath.rootStaticFolder
        let links = SiteLinks(site: site.path)
        if let problem = links.problem(onPathOf: folder) { throw DiagnosticList([problem]) }
        let walk = FolderEntries.files(under: site.path + "/" + folder, display: folder, includingHidden: true, links: links)
        var problems = walk.problems
        var files: [String: String] = [:]
        for relative in walk.files ?? [] {
            let location = SourceLocation(file: folder + "/" + relative, line: 1, column: 1)
            // Tabs and line breaks too: a name is one line of the build's state.
            if let scalar = relative.unicodeScalars.first(where: { $0.value < 0x20 || ForbiddenCharacters.contains($0) }) {
                problems.append(Diagnostic("this name holds \(ForbiddenCharacters.describe(scalar)), which no published file may have: rename it", at: location))
                continue
            }
            if let problem = OutputFolder.pathProblem(relative) {
                problems.append(Diagnostic("this file cannot be published at \(relative) (\(problem)): rename it", at: location))
                continue
            }
            let path = site.path + "/" + folder + "/" + relative
            if let failure = RegularFile.check(path) {
                problems.append(Diagnostic("cannot publish this file: \(failure.reason)", at: location))
                continue
            }
            files[Self.publishedName(relative)] = path
        }
        guard problems.isEmpty else { throw DiagnosticList(problems) }
        return RootFolder(files: files)
    }

    /// The path a file at `relative` is published at: in Unicode's composed form (NFC), as
    /// links and addresses write it. A name saved decomposed (NFD, as macOS tools may) is
    /// another file to Linux and to a host, but the same path to tomo, which compares names as
    /// text: published as written, renaming it to its other form left the old one in the output.
    /// (Two names of one folder that are one text in both forms are refused where the folder is
    /// listed, `FolderFailure.RefusedName`.)
    static func publishedName(_ relative: String) -> String {
        relative.precomposedStringWithCanonicalMapping
    }

    /// The bytes of the file published at `path`, read now.
    func contents(of path: String) throws(Diagnostic) -> [UInt8] {
        guard let file = files[path] else { throw Diagnostic("\(ContentPath.rootStaticFolder)/\(path) is gone") }
        switch RegularFile.read(file) {
        case .success(let bytes): return bytes
        case .failure(let failure):
            throw Diagnostic("cannot publish this file: \(failure.reason)", at: SourceLocation(file: ContentPath.rootStaticFolder + "/" + path, line: 1, column: 1))
        }
    }
}
