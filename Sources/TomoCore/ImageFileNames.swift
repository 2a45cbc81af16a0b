/// Which file names are images, by extension: one list for the content's rules
/// (`ContentPath.isImage`) and for the rule of links (`SiteLinks`), which lets a link in
/// `content/` lead to an image only.
public enum ImageFileNames {
    /// The image formats a photo, icon or header may be in (what the image pipeline reads), by
    /// file extension in lower case: the one list `tomo post add`, posts' `photo`, the loader's
    /// and the watcher's sorting of files and the README's table of formats follow.
    public static let photoExtensions = ["jpg", "jpeg", "png", "webp", "gif", "tif", "tiff", "heic", "heif", "avif"]
    /// The files beside profiles and posts that are images: the formats above, and SVG, which
    /// a build refuses with its own message rather than as a stray file.
    private static let imageExtensions = Set(photoExtensions + ["svg"])

    public static func isImage(_ name: String) -> Bool { imageExtensions.contains(fileExtension(of: name).lowercased()) }

    /// The extension of a file name: the text after its last dot, "" without one (or for a
    /// name that only starts with a dot), as `pathExtension` gives it without NSString.
    public static func fileExtension(of name: String) -> String {
        // Looked for in the bytes, not the characters: a build asks for each of 200,000 names.
        // (A dot that a combining mark follows then starts an extension too, one that no
        // kind of file has.)
        let bytes = name.utf8
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot != bytes.startIndex else { return "" }
        return String(name[bytes.index(after: dot)...])
    }
}
