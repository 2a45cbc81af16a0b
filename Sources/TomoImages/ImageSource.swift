import Foundation
import TomoCore

/// An image file to process, with the names a person reading an error would recognise.
public struct ImageSource: Sendable, Hashable {
    public var file: URL
    /// The path shown in messages, relative to the site ("content/users/alice/icon.jpg").
    public var displayPath: String
    /// Where the image is named, if anywhere (the `icon:` line of a profile), so an error can point there.
    public var referencedAt: SourceLocation?

    public init(file: URL, displayPath: String, referencedAt: SourceLocation? = nil) {
        self.file = file
        self.displayPath = displayPath
        self.referencedAt = referencedAt
    }
}
