import Foundation
import Synchronization
import TomoCore

/// What the image cache knows of its sources between builds, in one binary file
/// (`<cache>/index/sources`): the SHA-256 of each source image by its stamp, so a build reads and
/// hashes only the photos that are new or changed; and the manifest of each source hash as the
/// last build found it in the cache, so that a build that finds the cache folder as that build
/// left it opens no manifest and looks up no thumbnail (at 100,000 photos, 700,000 system calls).
///
/// Trusting the manifests rests on the cache folder's stamp. Every cache file is written by a
/// rename into the folder and none is changed in place, so a file added, deleted or renamed
/// there changes the folder's modification and change times. The index lives in a folder of its
/// own, so that writing it leaves the cache folder's stamp alone. The manifests are saved only
/// when the cache folder did not change while the build ran, with its stamp as the build found
/// it, and only when that stamp was two seconds old when the build began: a file deleted later
/// changes the folder's times to a later clock tick, which a stamp taken in that very tick (or
/// second, on a coarse file system) would not show. After a build that added thumbnails, the
/// next one checks the manifests against the files again, as before there was an index, and
/// saves them for the builds after it.
final class SourceIndex: Sendable {
    private struct State {
        var hashes: [String: (stamp: FileStamp, hash: String)]
        /// By source hash: those the file kept while the folder is unchanged, and those checked
        /// against the cache's files or made in this process.
        var manifests: [String: CacheManifest]
        var hashesChanged: Bool
        var manifestsChanged: Bool
    }

    /// The state as it was read, looked up without a lock: a build looks up every one of its
    /// 100,000 photos here from every core, and records only the few that are new.
    private let loaded: State
    /// Whether `state` holds a manifest that `loaded` does not.
    private let rememberedAny = Atomic(false)

    /// The first thing in the file; another one (an older tomo's) is ignored.
    private static let format = "tomo-image-index 1"

    private let folder: String
    private let file: String
    private let pipeline: String
    /// The cache folder's stamp when this index was read, and the time it was read (ns since 1970).
    private let folderAtLoad: FileStamp?
    private let loadedAt: Int64
    /// How old (ns) the cache folder's stamp must be for the manifests checked under it to be
    /// saved: two seconds, the coarsest time stamps of a file system Linux writes (FAT's).
    private let racyWindow: Int64
    private let state: Mutex<State>
    /// Whether this index only reads (`tomo check`): it changes nothing on disk and `save` writes nothing.
    private let readOnly: Bool

    /// The index of the cache `folder` whose manifests were made by `pipeline` (another
    /// pipeline's are not read). `readOnly`: for a command that writes nothing (`tomo check`),
    /// which neither takes over (and deletes) the older text file nor makes the index's folder.
    init(folder: URL, pipeline: String, racyWindow: Int64 = 2_000_000_000, readOnly: Bool = false) {
        self.folder = folder.path
        self.readOnly = readOnly
        self.racyWindow = racyWindow
        file = folder.path + "/index/sources"
        self.pipeline = pipeline
        var kept = State(hashes: [:], manifests: [:], hashesChanged: false, manifestsChanged: false)
        // The text file of source hashes that older tomos kept beside the thumbnails: its hashes
        // are taken over (a site of 100,000 photos does not read them all again after an
        // upgrade), then it goes. Both before the folder's stamp is taken, with the index's own
        // folder, so that none of them changes it later.
        let legacy = folder.path + "/sources"
        if let bytes = RegularFile.contents(legacy) {
            kept.hashes = Self.legacyHashes(bytes)
            kept.hashesChanged = !kept.hashes.isEmpty
            if !readOnly { unlink(legacy) }
        }
        if !readOnly { mkdir(folder.path + "/index", 0o755) }
        folderAtLoad = Self.folderStamp(folder.path)
        loadedAt = Self.now()
        if let bytes = RegularFile.contents(file), let read = Self.read(bytes, pipeline: pipeline) {
            if kept.hashes.isEmpty {
                kept.hashes = read.hashes
            } else {
                kept.hashes.merge(read.hashes) { _, indexed in indexed }
            }
            if read.folder == folderAtLoad { kept.manifests = read.manifests }
        }
        loaded = kept
        state = Mutex(kept)
    }

    /// The hash recorded for `path` when the file still has `stamp`.
    func hash(of path: String, stamp: FileStamp) -> String? {
        if let known = loaded.hashes[path], known.stamp == stamp { return known.hash }
        return state.withLock { state in
            guard let known = state.hashes[path], known.stamp == stamp else { return nil }
            return known.hash
        }
    }

    func record(_ hash: String, of path: String, stamp: FileStamp) {
        state.withLock { state in
            state.hashes[path] = (stamp, hash)
            state.hashesChanged = true
        }
    }

    /// The manifest of `sourceHash` as kept or found in this process, when there is one.
    func manifest(of sourceHash: String) -> CacheManifest? {
        // Once one is remembered, a loaded manifest may be out of date.
        if !rememberedAny.load(ordering: .acquiring), let kept = loaded.manifests[sourceHash] { return kept }
        return state.withLock { $0.manifests[sourceHash] }
    }

    /// `manifest` is what the cache holds for `sourceHash` now (checked against its files, or
    /// just made).
    func remember(_ manifest: CacheManifest, of sourceHash: String) {
        state.withLock { state in
            guard state.manifests[sourceHash] != manifest else { return }
            state.manifests[sourceHash] = manifest
            state.manifestsChanged = true
            rememberedAny.store(true, ordering: .releasing)
        }
    }

    /// Writes the index when something was recorded that it can keep (a lost write only costs
    /// the checks again): the manifests only when they still describe the cache folder (see the
    /// type's comment), so manifests checked anew under a folder that changed are no reason to
    /// write it.
    func save() {
        guard !readOnly else { return }
        let stillAsLoaded = folderAtLoad.map { Self.folderStamp(folder) == $0 && loadedAt &- max($0.modified, $0.changed) >= racyWindow } ?? false
        let snapshot: State? = state.withLock { state in
            guard state.hashesChanged || state.manifestsChanged && stillAsLoaded else { return nil }
            state.hashesChanged = false
            state.manifestsChanged = false
            return state
        }
        // A link planted in place of the index's folder is never written through.
        guard let snapshot, Self.folderStamp(folder + "/index") != nil else { return }
        var writer = ByteWriter(capacity: snapshot.hashes.count * 400)
        writer.write(Self.format)
        writer.write(pipeline)
        writer.write(stillAsLoaded ? folderAtLoad : nil) { $0.write($1) }
        writer.write(UInt64(snapshot.hashes.count))
        var shown: Set<String> = []
        for (path, known) in snapshot.hashes {
            writer.write(path)
            writer.write(known.stamp)
            writer.write(known.hash)
            shown.insert(known.hash)
        }
        let manifests = stillAsLoaded ? snapshot.manifests.filter { shown.contains($0.key) } : [:]
        writer.write(UInt64(manifests.count))
        for (hash, manifest) in manifests {
            writer.write(hash)
            writer.write(manifest.width)
            writer.write(manifest.height)
            writer.write(manifest.hasAlpha)
            writer.write(manifest.entries) { writer, entry in
                writer.write(entry.format == .webp)
                writer.write(entry.quality)
                writer.write(entry.target)
                writer.write(entry.width)
                writer.write(entry.height)
                writer.write(entry.contentHash)
                writer.write(entry.byteCount)
            }
        }
        _ = RegularFile.replace(file, with: writer.sealed)
    }

    private static func read(_ bytes: [UInt8], pipeline: String) -> (hashes: [String: (stamp: FileStamp, hash: String)], folder: FileStamp?, manifests: [String: CacheManifest])? {
        guard var reader = ByteReader(sealed: bytes) else { return nil }
        do {
            guard try reader.string() == format else { return nil }
            let samePipeline = try reader.string() == pipeline
            let folder = try reader.optional { reader throws(ByteReader.Malformed) in try reader.stamp() }
            var hashes: [String: (stamp: FileStamp, hash: String)] = [:]
            let count = try reader.count()
            hashes.reserveCapacity(count)
            for _ in 0..<count {
                let path = try reader.string()
                hashes[path] = (try reader.stamp(), try reader.string())
            }
            var manifests: [String: CacheManifest] = [:]
            let manifestCount = try reader.count()
            manifests.reserveCapacity(manifestCount)
            for _ in 0..<manifestCount {
                let hash = try reader.string()
                let width = try reader.int(), height = try reader.int(), hasAlpha = try reader.bool()
                let entries = try reader.array { reader throws(ByteReader.Malformed) in
                    CacheManifest.Entry(
                        format: try reader.bool() ? .webp : .jpeg, quality: try reader.int(), target: try reader.int(),
                        width: try reader.int(), height: try reader.int(), contentHash: try reader.string(), byteCount: try reader.int()
                    )
                }
                manifests[hash] = CacheManifest(pipeline: pipeline, width: width, height: height, hasAlpha: hasAlpha, entries: entries)
            }
            guard reader.isAtEnd else { return nil }
            return (hashes, samePipeline ? folder : nil, samePipeline ? manifests : [:])
        } catch {
            return nil
        }
    }

    /// The lines of the older text file, `size inode modified changed sha256 path`; a damaged
    /// line is skipped.
    private static func legacyHashes(_ bytes: [UInt8]) -> [String: (stamp: FileStamp, hash: String)] {
        var hashes: [String: (stamp: FileStamp, hash: String)] = [:]
        _ = LineCursor.forEachLine(of: bytes) { line in
            guard let size = line.integer(), let inode = line.integer(), let modified = line.integer(),
                  let changed = line.integer() else { return true }
            let hash = line.word()
            let path = line.rest()
            guard hash.utf8.count == 64, hash.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }), !path.isEmpty else { return true }
            hashes[path] = (FileStamp(size: size, inode: UInt64(bitPattern: inode), modified: modified, changed: changed), hash)
            return true
        }
        return hashes
    }

    /// The stamp of the cache folder itself (not following a link), nil when it is no folder.
    private static func folderStamp(_ path: String) -> FileStamp? {
        var status = stat()
        guard lstat(path, &status) == 0, status.isFolder else { return nil }
        return FileStamp(status)
    }

    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }
}
