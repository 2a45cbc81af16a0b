import TomoCore

/// What the cache holds for one source image (keyed by the SHA-256 of its bytes): its upright
/// size, and every variant encoded from it so far with the settings that made it.
///
/// Entries accumulate, so changing `images.widths` re-encodes only the new widths.
struct CacheManifest: Hashable {
    /// One encoded file in the cache.
    struct Entry: Hashable {
        var format: ImageFormat
        var quality: Int
        /// The width asked of libvips (already capped at the original's width).
        var target: Int
        /// The encoded file's real size.
        var width: Int
        var height: Int
        /// SHA-256 of the encoded bytes; its first 8 digits go into the published file name.
        var contentHash: String
        var byteCount: Int

        /// The cache file's name: a pure function of the source and the settings.
        func cacheFileName(sourceHash: String) -> String {
            sourceHash + cacheFileSuffix
        }

        /// What the cache file's name has after the source's hash (`-q80-640.webp`).
        var cacheFileSuffix: String {
            "-q\(quality)-\(target).\(format.fileExtension)"
        }
    }

    /// The code and libvips version that made the entries; any other value means "re-encode".
    var pipeline: String
    var width: Int
    var height: Int
    var hasAlpha: Bool
    var entries: [Entry]

    func entry(format: ImageFormat, quality: Int, target: Int) -> Entry? {
        entries.first { $0.format == format && $0.quality == quality && $0.target == target }
    }

    var json: JSONValue {
        .object([
            "pipeline": .string(pipeline),
            "width": .int(width),
            "height": .int(height),
            "hasAlpha": .bool(hasAlpha),
            "entries": .array(entries.map { entry in
                .object([
                    "format": .string(entry.format.rawValue),
                    "quality": .int(entry.quality),
                    "target": .int(entry.target),
                    "width": .int(entry.width),
                    "height": .int(entry.height),
                    "contentHash": .string(entry.contentHash),
                    "byteCount": .int(entry.byteCount),
                ])
            }),
        ])
    }

    /// Reads a manifest back; nil for anything unexpected (the cache is then simply rebuilt).
    init?(json: JSONValue) {
        guard let pipeline = json["pipeline"]?.stringValue,
              let width = json["width"]?.intValue,
              let height = json["height"]?.intValue,
              let hasAlpha = json["hasAlpha"]?.boolValue,
              let items = json["entries"]?.arrayValue
        else { return nil }
        var entries: [Entry] = []
        for item in items {
            guard let format = item["format"]?.stringValue.flatMap(ImageFormat.init(rawValue:)),
                  let quality = item["quality"]?.intValue,
                  let target = item["target"]?.intValue,
                  let entryWidth = item["width"]?.intValue,
                  let entryHeight = item["height"]?.intValue,
                  let contentHash = item["contentHash"]?.stringValue, contentHash.count >= 8,
                  let byteCount = item["byteCount"]?.intValue
            else { return nil }
            entries.append(Entry(
                format: format, quality: quality, target: target, width: entryWidth, height: entryHeight,
                contentHash: contentHash, byteCount: byteCount
            ))
        }
        self.init(pipeline: pipeline, width: width, height: height, hasAlpha: hasAlpha, entries: entries)
    }

    init(pipeline: String, width: Int, height: Int, hasAlpha: Bool, entries: [Entry]) {
        self.pipeline = pipeline
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
        self.entries = entries
    }
}
