import Foundation
import TomoCore

/// The files tomo has written into an output folder and may not have deleted yet, kept in the
/// output folder itself (`.tomo-made`, beside the `.tomo-output` marker): a build deletes only
/// files of this record that the site no longer has. A file tomo never made (put into the
/// output by hand) is kept, by a full build and an incremental one alike, and a full build
/// names it in a warning. Kept in the output, not in `.tomo-cache/`, the record outlives a
/// deleted cache: what the site stops publishing after that (a removed user, a post made
/// private) is still deleted.
///
/// Unlike the build state, the record is never dropped while a build writes: before the first
/// file lands it grows by every path the build may make (`grow`), and once the output is
/// committed it shrinks to the site's paths. While a kept state is valid its output paths are
/// the record (it only adds to them), so an incremental build does not read it. A build killed
/// at any moment leaves a record that holds every file it made. It belongs to the folder it
/// lies in: copied along with the output (`cp -a`, `rsync -a`, a backup or a CI cache
/// restored), it still names the files tomo made there, so the copy's builds delete what the
/// site stops publishing. A folder made anew starts with an empty record.
enum MadeFiles {
    private static let formatLine = "tomo-made-files 2"
    /// The first line of the records older tomos wrote, followed by a line naming the output's
    /// marker then, which a record no longer depends on.
    private static let markedFormatLine = "tomo-made-files 1"
    /// The record's name at the top of the output, and the name it is written under first.
    static let name = ".tomo-made"
    static let writingName = ".tomo-made.new"

    /// The record of the output folder `output`, or nil when there is none (an output an older
    /// tomo wrote) or it is damaged or names a path outside the output: then which files tomo
    /// made is unknown.
    static func load(output: String) -> Set<String>? {
        guard let bytes = RegularFile.contents(output + "/" + name),
              let text = BuildState.checkedText(bytes) else { return nil }
        var lines = text.split(separator: "\n")[...]
        switch lines.popFirst() {
        case Substring(formatLine): break
        case Substring(markedFormatLine): guard lines.popFirst()?.hasPrefix("marker ") == true else { return nil }
        default: return nil
        }
        // The record lies in the output, where anyone who can write there can change it: a
        // path that could not have been made there (`../x`, `/etc/x`) voids it, since the
        // files it names may be deleted.
        let paths = lines.map(String.init)
        guard paths.allSatisfy({ OutputFolder.pathProblem($0) == nil }) else { return nil }
        return Set(paths)
    }

    /// Keeps `paths` as the record; a path with a line break cannot be kept, and then there is
    /// no record. Written whole under another name and renamed over the last one (the build
    /// holds the output, so no other tomo writes it), never through a link planted there.
    @discardableResult
    static func save(_ paths: some Sequence<String>, output: String) -> Int32? {
        save(output: output) { add in
            for path in paths {
                var path = path
                path.withUTF8(add)
            }
        }
    }

    /// Keeps the paths of `digests` and `added` as the record, as `save(_:output:)` does:
    /// the paths of a kept table go in as the bytes it read (467,086 at 10,000 users), without a
    /// string made for each.
    @discardableResult
    static func save(_ digests: OutputDigests, adding added: [String] = [], output: String) -> Int32? {
        save(output: output) { add in
            digests.forEachPath(add)
            for path in added {
                var path = path
                path.withUTF8(add)
            }
        }
    }

    /// Writes the record of the paths `paths` gives, each one's UTF-8 bytes to the function it is
    /// handed; the errno of a write that failed (a full disk), and then the last record is left
    /// as it was.
    private static func save(output: String, paths: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void) -> Int32? {
        let record = output + "/" + name
        var bytes = Array("\(formatLine)\n".utf8)
        var lineBreak = false
        paths { path in
            guard !lineBreak else { return }
            if let base = path.baseAddress, memchr(base, 0x0A, path.count) != nil {
                lineBreak = true
                return
            }
            bytes.append(contentsOf: path)
            bytes.append(UInt8(ascii: "\n"))
        }
        guard !lineBreak else {
            unlink(record)
            return nil
        }
        bytes += Array("\(BuildState.checksumPrefix)\(String(BuildState.digest(bytes), radix: 16))\n".utf8)
        let writing = output + "/" + writingName
        unlink(writing)
        if let failure = OutputFolder.create(writing, with: bytes) {
            return failure
        }
        guard rename(writing, record) == 0 else {
            let failure = errno
            unlink(writing)
            return failure
        }
        return nil
    }

    /// Grows the record, before a build writes, by every path it may make, and says how many
    /// paths the record holds then. With `kept` digests (an incremental build) the record holds
    /// their paths already, and only the planned files they lack are added; otherwise the
    /// `recorded` paths (nil: none known) and every planned file. A record that cannot be
    /// written stops the build before its first file lands: a file made without being recorded
    /// would never be deleted.
    static func grow(kept: OutputDigests?, recorded: Set<String>?, plan: [PlannedFile], toMake: [PlannedFile], output: String) throws(Diagnostic) -> Int {
        let failure: Int32?
        let count: Int
        if let kept {
            let added = toMake.map(\.path).filter { kept[$0] == nil }
            var status = stat()
            failure = !added.isEmpty || lstat(output + "/" + name, &status) != 0 ? save(kept, adding: added, output: output) : nil
            count = kept.count + added.count
        } else {
            var made = recorded ?? []
            let before = made.count
            for planned in plan { made.insert(planned.path) }
            failure = made.count != before || recorded == nil ? save(made, output: output) : nil
            count = made.count
        }
        if let failure {
            throw Diagnostic("cannot write \(output)/\(name), the record of the files tomo made there: \(String(cString: strerror(failure))); free some space (or make the folder writable, or move away what is at \(writingName)) and build again")
        }
        return count
    }
}
