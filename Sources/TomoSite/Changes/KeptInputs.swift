import Foundation
import TomoCore

/// The stamp of every input file of the last build, by a digest of its path, and how its
/// profiles' images were published (`PublishedImages.ownersDigest`). With them the next build
/// knows which files changed and brings the kept fingerprints up to date from those alone
/// (`InputFingerprints.updated`, as `tomo serve` does), instead of making every one again.
///
/// Kept in the build state's folder (`inputs`) for the build whose `InputStamps.digest` it
/// names: any other (one written by a build that failed or was killed before its state was
/// saved, a damaged or cut file) is not used, and every fingerprint is made again.
struct KeptInputs: Sendable {
    /// Each path's digest, with its stamp's.
    private var stamps: [UInt64: UInt64]
    /// `PublishedImages.ownersDigest` of the build.
    var imageOwners: UInt64 = 0

    /// The inputs of a build that stamped `byPath`, and which paths differ from `kept`: nil
    /// (with or without `kept`) when a path appeared or went, which changes what the site
    /// holds and makes every fingerprint again.
    static func taking(_ byPath: [String: FileStamp], comparedWith kept: KeptInputs?) -> (inputs: KeptInputs, changed: [String]?) {
        var stamps = [UInt64: UInt64](minimumCapacity: byPath.count)
        var changed: [String] = []
        var matched = 0
        for (path, stamp) in byPath {
            let key = Self.digest(of: path)
            let digest = stamp.digest
            stamps[key] = digest
            guard let before = kept?.stamps[key] else { continue }
            matched += 1
            if before != digest { changed.append(path) }
        }
        guard let kept, matched == byPath.count, matched == kept.stamps.count else { return (KeptInputs(stamps: stamps), nil) }
        return (KeptInputs(stamps: stamps), changed)
    }

    private static func digest(of path: String) -> UInt64 {
        var hasher = StableHasher()
        hasher.add(path)
        return hasher.value
    }

    private static let format = "tomo-build-inputs 1"

    private static func file(site: URL, output: String) -> String {
        BuildState.folder(site: site, output: output).appendingPathComponent("inputs").path
    }

    /// What the build whose inputs' digest is `inputs` kept, or nil.
    static func load(site: URL, output: String, inputs: UInt64) -> KeptInputs? {
        guard let bytes = RegularFile.contents(file(site: site, output: output)), var reader = ByteReader(sealed: bytes) else { return nil }
        do {
            guard try reader.string() == format, try reader.uint64() == inputs else { return nil }
            let imageOwners = try reader.uint64()
            let count = try reader.count()
            var stamps = [UInt64: UInt64](minimumCapacity: count)
            for _ in 0..<count {
                let key = try reader.uint64()
                stamps[key] = try reader.uint64()
            }
            guard reader.isAtEnd, stamps.count == count else { return nil }
            return KeptInputs(stamps: stamps, imageOwners: imageOwners)
        } catch {
            return nil
        }
    }

    /// Writes these as the inputs of the build whose inputs' digest is `inputs`, before its
    /// state is saved.
    func save(site: URL, output: String, inputs: UInt64) {
        var writer = ByteWriter(capacity: 64 + stamps.count * 18)
        writer.write(Self.format)
        writer.write(inputs)
        writer.write(imageOwners)
        writer.write(UInt64(stamps.count))
        for (key, digest) in stamps {
            writer.write(key)
            writer.write(digest)
        }
        try? FileManager.default.createDirectory(at: BuildState.folder(site: site, output: output), withIntermediateDirectories: true)
        _ = RegularFile.replace(Self.file(site: site, output: output), with: writer.sealed)
    }
}
