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
        return Set(configured.map { min($0, ceiling) }).sorted()
    }
}
