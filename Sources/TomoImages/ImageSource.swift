import Foundation
import TomoCore

/// An image file to process, with the names a person reading an error would recognise.
public struct ImageSource: Sendable, Hashable {
    /// The file's absolute path (a String: building URLs for 100,000 photos is slow).
    public var path: String
    /// The path shown in messages, relative to the site ("content/users/alice/icon.jpg").
    public var displayPath: String
    /// Where the image is named, if anywhere (the `icon:` line of a profile), so an error can point there.
    public var referencedAt: SourceLocation?
    /// The file's stamp as the build took it before loading the site, when it did: the file is
    /// then not looked up again. A stamp taken earlier than the file is read can only make the
    /// next build look at the file again, never keep a stale thumbnail.
    public var stamp: FileStamp?

    public var file: URL { URL(fileURLWithPath: path) }

    public init(file: URL, displayPath: String, referencedAt: SourceLocation? = nil) {
        self.init(path: file.path, displayPath: displayPath, referencedAt: referencedAt)
    }

    public init(path: String, displayPath: String, referencedAt: SourceLocation? = nil, stamp: FileStamp? = nil) {
        self.path = path
        self.displayPath = displayPath
        self.referencedAt = referencedAt
        self.stamp = stamp
    }
}
