import TomoCore

/// Where each kind of content lives in a site folder, and what a changed path there is. Every
/// `content/...` path is spelt here: the loader, the commands and the change engine ask this
/// type instead of putting strings together.
public enum ContentPath: Sendable, Hashable {
    /// `content/site.yaml`.
    case siteConfig
    /// `content/users/<handle>.yaml` or `.json`.
    case profile(handle: String)
    /// An image beside the profiles (`content/users/alice/icon.jpg`, `content/users/me.png`), or
    /// a name there without an extension (a folder of images, or an editor's temporary file).
    case profileImage
    /// `content/posts/<handle>/<slug>.md`.
    case post(id: String)
    /// A photo beside the posts (`content/posts/alice/sunset.jpg`).
    case postPhoto(handle: String)
    /// `content/posts/<handle>` itself (a folder moved, renamed or removed), or a file in it
    /// that is neither a post nor a photo.
    case postsFolder(handle: String)
    /// Anything under `content/pages/`.
    case page
    /// `content/store.json`.
    case store
    /// A template or label file of the theme (`templates/profile.mustache`).
    case template
    /// A static file of the theme, by its path in the output (`static/style.css`).
    case themeStatic(path: String)
    /// Anything under the root static folder `static/` (or the folder itself): published as it is.
    case rootStatic
    /// A hidden file or an editor's temporary file: not content, nothing to do.
    case ignored
    /// Anything else (`content` itself, `content/posts`, a folder of pages…): what it does is
    /// not known without reading the whole site again.
    case other

    public static let siteConfigFile = "content/site.yaml"
    public static let usersFolder = "content/users"
    public static let postsFolder = "content/posts"
    public static let pagesFolder = "content/pages"
    /// The root static folder, beside `content/` and `templates/`: copied to the output's root.
    public static let rootStaticFolder = "static"

    /// Whether the site file or folder `path` is `content/` or inside it.
    public static func isInContent(_ path: String) -> Bool {
        path == "content" || path.hasPrefix("content/")
    }

    /// Whether the site file or folder `path` is inside the root static folder, where every
    /// name is published, hidden files and editors' backups included (elsewhere they are not
    /// content).
    public static func isInRootStatic(_ path: String) -> Bool {
        path == rootStaticFolder || path.hasPrefix(rootStaticFolder + "/")
    }

    /// `content/users/<handle>.<format>` (`yaml` or `json`).
    public static func profileFile(_ handle: String, format: String = "yaml") -> String {
        "\(usersFolder)/\(handle).\(format)"
    }

    /// A file beside the profiles, by its path relative to `content/users` (an icon's value).
    public static func userFile(_ relative: String) -> String { "\(usersFolder)/\(relative)" }

    /// `content/posts/<handle>`.
    public static func postsFolder(of handle: String) -> String { "\(postsFolder)/\(handle)" }

    /// A file in a user's posts folder (`content/posts/alice/sunset.md`).
    public static func postFile(_ handle: String, _ name: String) -> String { "\(postsFolder)/\(handle)/\(name)" }

    /// `content/pages/<name>`.
    public static func pageFile(_ name: String) -> String { "\(pagesFolder)/\(name)" }

    /// The extension of a file name (`ImageFileNames.fileExtension`).
    public static func fileExtension(of name: String) -> String { ImageFileNames.fileExtension(of: name) }

    public static func baseName(of name: String) -> String {
        let bytes = name.utf8
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot != bytes.startIndex, bytes.index(after: dot) != bytes.endIndex else { return name }
        return String(name[..<dot])
    }

    /// The image formats a photo, icon or header may be in (`ImageFileNames`).
    public static let photoExtensions = ImageFileNames.photoExtensions
    public static let profileExtensions: Set<String> = ["yaml", "json"]

    public static func isImage(_ name: String) -> Bool { ImageFileNames.isImage(name) }

    /// What the file or folder at `path` (relative to the site folder) is.
    public init(classifying path: String) {
        if Self.isInRootStatic(path) {
            self = .rootStatic
            return
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if let last = parts.last, Self.isTemporary(last) {
            self = .ignored
            return
        }
        switch (parts.first, parts.count > 1 ? parts[1] : nil) {
        case ("content", "site.yaml"?) where parts.count == 2:
            self = .siteConfig
        case ("content", "store.json"?) where parts.count == 2:
            self = .store
        case ("content", "users"?) where parts.count >= 3:
            let name = parts[2]
            if parts.count == 3, Self.profileExtensions.contains(Self.fileExtension(of: name)) {
                self = .profile(handle: Self.baseName(of: name))
            } else if Self.isImage(parts[parts.count - 1]) || Self.fileExtension(of: parts[parts.count - 1]).isEmpty {
                self = .profileImage
            } else {
                self = .ignored
            }
        case ("content", "posts"?) where parts.count >= 3:
            let handle = parts[2]
            if parts.count == 4, Self.fileExtension(of: parts[3]) == "md" {
                self = .post(id: "\(handle)/\(Self.baseName(of: parts[3]))")
            } else if parts.count == 4, Self.isImage(parts[3]) {
                self = .postPhoto(handle: handle)
            } else {
                self = .postsFolder(handle: handle)
            }
        case ("content", "pages"?) where parts.count >= 3:
            self = .page
        case ("templates", "static"?) where parts.count >= 3:
            self = .themeStatic(path: parts.dropFirst().joined(separator: "/"))
        case ("templates", _?):
            self = .template
        default:
            self = .other
        }
    }

    /// Hidden files and the files editors write beside the one being saved (`.alice.yaml.swp`,
    /// `alice.yaml~`, `4913` of vim, `#alice.yaml#` of Emacs).
    private static func isTemporary(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix("~") || name.hasPrefix("#") || name == "4913"
    }
}
