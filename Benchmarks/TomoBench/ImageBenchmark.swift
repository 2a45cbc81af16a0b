import Foundation
import TomoCore
import TomoImages

/// Thumbnails 3000×2000 camera-sized JPEGs at the default widths (320, 640, 1280) in WebP and
/// JPEG, first one image at a time on one thread, then the whole batch on all cores, and prints
/// thumbnails/s and peak memory of each pass; then a rebuild from the warm cache.
///
/// The photos are made here with libvips itself (through TomoImages): a synthetic picture with
/// smooth shapes and grain is written as an uncompressed TIFF, encoded once to a JPEG, and
/// copied with a different trailing byte so each copy has its own content hash.
/// `TOMO_BENCH_PHOTOS=N` changes how many (default 12).
enum ImageBenchmark {
    static let width = 3000
    static let height = 2000

    static func run() throws {
        let count = ProcessInfo.processInfo.environment["TOMO_BENCH_PHOTOS"].flatMap(Int.init) ?? 12
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tomo-bench-images-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let sources = try makePhotos(count: count, in: folder)
        let photoBytes = try FileManager.default.attributesOfItem(atPath: sources[0].file.path)[.size] as? Int ?? 0
        print(String(format: "images: %d photos %d×%d JPEG (%.1f MB each), widths %@, WebP + JPEG, quality %d",
                     count, width, height, Double(photoBytes) / 1_000_000,
                     ImageProcessor.defaultWidths.map(String.init).joined(separator: ", "), ImageProcessor.defaultQuality))

        if let resident = memoryMegabytes("VmRSS:") {
            print(String(format: "images: resident before the passes (libvips and its libraries loaded): %.0f MB", resident))
        }

        // One image after another on this thread (libvips itself is held to one thread too).
        let single = try ImageProcessor(cacheFolder: folder.appendingPathComponent("cache-single"))
        var peakIsPerPass = resetPeakMemory()
        let singleTime = try measure {
            for source in sources { _ = try single.process(source) }
        }
        report("1 thread", encodes: single.encodeCount, photos: count, seconds: singleTime, peakIsPerPass: peakIsPerPass)

        let parallel = try ImageProcessor(cacheFolder: folder.appendingPathComponent("cache-parallel"))
        peakIsPerPass = resetPeakMemory()
        let parallelTime = try measure {
            for result in parallel.process(sources) { _ = try result.get() }
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        report("\(cores) cores", encodes: parallel.encodeCount, photos: count, seconds: parallelTime, peakIsPerPass: peakIsPerPass)
        print(String(format: "images: all cores vs one thread: %.2f×", singleTime / parallelTime))

        // A rebuild with nothing changed: hashing the sources and reading manifests only.
        let rebuild = try ImageProcessor(cacheFolder: folder.appendingPathComponent("cache-parallel"))
        let rebuildTime = try measure {
            for result in rebuild.process(sources) { _ = try result.get() }
        }
        print(String(format: "images: rebuild from cache: %d encodes, %.3f s for %d photos", rebuild.encodeCount, rebuildTime, count))
    }

    private static func report(_ label: String, encodes: Int, photos: Int, seconds: Double, peakIsPerPass: Bool) {
        let peak = peakIsPerPass ? peakMemoryMegabytes() : nil
        let memory = peak.map { String(format: ", peak RSS %.0f MB", $0) } ?? ""
        print(String(format: "images: %@: %d thumbnails in %.2f s: %.1f thumbnails/s, %.2f photos/s%@",
                     label, encodes, seconds, Double(encodes) / seconds, Double(photos) / seconds, memory))
    }

    static func measure(_ work: () throws -> Void) throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try work()
        let elapsed = clock.now - start
        return elapsed.seconds
    }

    /// Makes `count` distinct JPEG photos in `folder` (the card benchmark draws cards from them too).
    static func makePhotos(count: Int, in folder: URL) throws -> [ImageSource] {
        let tiff = folder.appendingPathComponent("base.tiff")
        try Data(syntheticTIFF()).write(to: tiff)
        let encoder = try ImageProcessor(cacheFolder: folder.appendingPathComponent("cache-base"), widths: [width], quality: 90)
        let base = try encoder.variants(for: tiff, displayPath: "base.tiff")
        guard let jpeg = base.largest(in: .jpeg) else { throw BenchmarkError("no JPEG was made from the base picture") }
        let jpegBytes = try Data(contentsOf: jpeg.file)
        return try (0..<count).map { index in
            // Bytes after the end-of-image marker are ignored by decoders but change the hash.
            let file = folder.appendingPathComponent("photo-\(index).jpg")
            try (jpegBytes + Data("\(index)".utf8)).write(to: file)
            return ImageSource(file: file, displayPath: "photos/photo-\(index).jpg")
        }
    }

    /// An uncompressed baseline RGB TIFF: soft colour fields, a few discs and film-like grain,
    /// so the JPEG made from it costs about what a camera photo costs to decode.
    private static func syntheticTIFF() -> [UInt8] {
        let entries: [(tag: UInt16, type: UInt16, value: UInt32)] = [
            (256, 4, UInt32(width)), (257, 4, UInt32(height)), (258, 3, 134), (259, 3, 1), (262, 3, 2),
            (273, 4, 140), (277, 3, 3), (278, 4, UInt32(height)), (279, 4, UInt32(width * height * 3)), (284, 3, 1),
        ]
        var bytes: [UInt8] = Array("II".utf8) + le16(42) + le32(8) + le16(UInt16(entries.count))
        for entry in entries {
            // Tag 258 (bits per sample) has three values, stored at offset 134; the rest fit inline.
            let count: UInt32 = entry.tag == 258 ? 3 : 1
            let value = entry.type == 3 && count == 1 ? le16(UInt16(entry.value)) + [0, 0] : le32(entry.value)
            bytes += le16(entry.tag) + le16(entry.type) + le32(count) + value
        }
        bytes += le32(0) + le16(8) + le16(8) + le16(8)
        bytes.reserveCapacity(bytes.count + width * height * 3)
        var random: UInt64 = 0x9E37_79B9_7F4A_7C15
        for y in 0..<height {
            for x in 0..<width {
                random ^= random << 13
                random ^= random >> 7
                random ^= random << 17
                let grain = Double(Int(random & 31) - 16)
                let (fx, fy) = (Double(x), Double(y))
                let disc = ((fx - 1900) * (fx - 1900) + (fy - 800) * (fy - 800)) < 360_000 ? 60.0 : 0
                let red = 110 + 70 * sin(fx / 410) + disc + grain
                let green = 120 + 60 * cos(fy / 330) + 30 * sin((fx + fy) / 150) + grain
                let blue = 130 + 70 * sin((fx - fy) / 520) - disc / 2 + grain
                bytes.append(clamp(red))
                bytes.append(clamp(green))
                bytes.append(clamp(blue))
            }
        }
        return bytes
    }

    private static func clamp(_ value: Double) -> UInt8 {
        UInt8(max(0, min(255, value)))
    }

    private static func le16(_ value: UInt16) -> [UInt8] {
        [UInt8(value & 0xff), UInt8(value >> 8)]
    }

    private static func le32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xff), UInt8(value >> 8 & 0xff), UInt8(value >> 16 & 0xff), UInt8(value >> 24)]
    }

    /// Linux resets the process's peak resident size when "5" is written to clear_refs, so each
    /// pass reports its own peak; where that fails no peak is printed rather than a misleading one.
    private static func resetPeakMemory() -> Bool {
        let descriptor = open("/proc/self/clear_refs", O_WRONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return write(descriptor, "5", 1) == 1
    }

    private static func peakMemoryMegabytes() -> Double? {
        memoryMegabytes("VmHWM:")
    }

    /// A field of /proc/self/status in MB: VmRSS (resident now) or VmHWM (peak resident).
    private static func memoryMegabytes(_ field: String) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
              let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return nil }
        return kilobytes / 1024
    }

    struct BenchmarkError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
