/// Which widths to make for one image.
enum TargetWidths {
    /// WebP cannot encode a side longer than this.
    static let maximum = 16383

    /// Each configured width that is narrower than the image, plus the image's own width when
    /// some configured width reaches it, so nothing is enlarged and a small icon still gets
    /// exactly one variant at its own size. Widths are also kept small enough that the height
    /// fits WebP (a very tall panorama). Sorted, without repeats.
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
