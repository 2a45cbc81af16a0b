/// Which widths to make for one image.
enum TargetWidths {
    /// WebP cannot encode wider than this.
    static let maximum = 16383

    /// Each configured width that is narrower than the image, plus the image's own width when
    /// some configured width reaches it, so nothing is enlarged and a small icon still gets
    /// exactly one variant at its own size. Sorted, without repeats.
    static func plan(configured: [Int], originalWidth: Int) -> [Int] {
        let ceiling = min(originalWidth, maximum)
        return Set(configured.map { min($0, ceiling) }).sorted()
    }
}
