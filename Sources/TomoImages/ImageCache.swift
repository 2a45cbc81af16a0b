import Foundation
import TomoCore

/// The folder where encoded thumbnails and their manifests live between builds.
///
/// Every write is a temporary file in the same folder renamed over the target, so a crash or a
/// concurrent build leaves the old file or the new one, never half of one. Nothing is written
/// outside `folder`.
struct ImageCache: Sendable {
    let folder: URL
    /// `folder.path`, taken once: every thumbnail of every build is named through it.
    private let folderPath: String

    init(folder: URL) throws(Diagnostic) {
        self.folder = folder
        folderPath = folder.path
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw Diagnostic("cannot create the image cache folder \(folder.path): \(Diagnostic.reason(of: error))")
        }
        // The cache is rebuilt from content/ at will: keep it out of the site's git history
        // without asking the site to list it.
        let ignore = folder.appendingPathComponent(".gitignore")
        if !FileManager.default.fileExists(atPath: ignore.path) {
            try write(Array("# Tomo's image cache: safe to delete, rebuilt by the next build.\n*\n".utf8), to: ignore)
        }
    }

    /// The cache in `folder` as it is, for a command that writes nothing (`tomo check`): nothing
    /// is made, and a folder that is not there holds nothing.
    init(reading folder: URL) {
        self.folder = folder
        folderPath = folder.path
    }

    func file(named name: String) -> URL {
        folder.appendingPathComponent(name)
    }

    func path(named name: String) -> String {
        folderPath + "/" + name
    }

    /// The stamp of the cached file `name` when it is a regular file: anything else found there
    /// (a named pipe, a folder, a link planted in the cache) counts as missing, so the file is
    /// made again over it rather than published as it is.
    func stamp(named name: String) -> FileStamp? {
        var status = stat()
        guard lstat(path(named: name), &status) == 0, status.isRegularFile else { return nil }
        return FileStamp(status)
    }

    /// The manifest stored for a source, when it was made by `pipeline` and every file it lists
    /// is still there with its recorded size; otherwise nil (a deleted or damaged cache file
    /// only costs a re-encode).
    func manifest(sourceHash: String, pipeline: String) -> CacheManifest? {
        guard let data = RegularFile.contents(manifestFile(sourceHash: sourceHash).path),
              let json = try? JSONParser.parse(bytes: data, file: manifestFile(sourceHash: sourceHash).path),
              var manifest = CacheManifest(json: json),
              manifest.pipeline == pipeline
        else { return nil }
        manifest.entries.removeAll { entry in
            stamp(named: entry.cacheFileName(sourceHash: sourceHash))?.size != Int64(entry.byteCount)
        }
        return manifest
    }

    func store(_ manifest: CacheManifest, sourceHash: String) throws(Diagnostic) {
        try write(Array(JSONWriter.string(manifest.json).utf8), to: manifestFile(sourceHash: sourceHash))
    }

    func store(_ bytes: [UInt8], named name: String) throws(Diagnostic) {
        try write(bytes, to: file(named: name))
    }

    private func manifestFile(sourceHash: String) -> URL {
        file(named: "\(sourceHash).json")
    }

    private func write(_ bytes: [UInt8], to target: URL) throws(Diagnostic) {
        let temporary = folder.appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try Data(bytes).write(to: temporary)
        } catch {
            // A write that failed half way (a full disk) leaves what it wrote: it goes.
            unlink(temporary.path)
            throw Diagnostic("cannot write to the image cache \(folder.path): \(Diagnostic.reason(of: error))")
        }
        guard rename(temporary.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw Diagnostic("cannot write \(target.path) in the image cache: \(reason)")
        }
    }
}
