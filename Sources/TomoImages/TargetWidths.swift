/// Which widths to make for one image.
enum TargetWidths {
    /// WebP cannot encode a side longer than this (JPEG's limit, 65,535, is never the tighter).
    static let maximum = 16383

    /// Whether every thumbnail of a `originalWidth` × `originalHeight` image (upright) fits
    /// WebP: `plan` makes a tall image narrower until its height fits, but one pixel wide is as
    /// narrow as a thumbnail gets, and there it is `originalHeight / originalWidth` pixels tall.
    /// The one rule a build, `tomo check` and `tomo post add` hold an image to.
    static func fits(originalWidth: Int, originalHeight: Int) -> Bool {
        originalWidth > 0 && originalHeight <= maximum * originalWidth
    }

    /// Each configured width that is narrower than the image, plus the image's own width when
    /// some configured width reaches it, so nothing is enlarged and a small icon still gets
    /// exactly one variant at its own size. Widths are also kept small enough that the height
    /// fits WebP (a very tall panorama; `fits` says whether any width does). Sorted, without
    /// repeats.
    static func plan(configured: [Int], originalWidth: Int, originalHeight: Int) -> [Int] {
        let heightLimit = originalHeight > 0 ? maximum * originalWidth / originalHeight : maximum
        let ceiling = max(1, min(originalWidth, maximum, heightLimit))
        // Sorted, then each repeat dropped: a few widths for each of 100,000 photos, no Set.
        var widths: [Int] = []
        for width in configured.map({ min($0, ceiling) }).sorted() where widths.last != width {
            widths.append(width)
        }
        return widths
    }
}
