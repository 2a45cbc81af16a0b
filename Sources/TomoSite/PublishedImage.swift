import TomoCore

/// An image as pages show it: where it is published and the fields templates read.
struct PublishedImage: Sendable {
    /// The output path of the image (`media/alice/icon-1a2b3c4d.jpg`).
    var path: String
    var width: Int?
    var height: Int?

    /// `{src, width, height}` for templates.
    var view: JSONValue {
        [
            "src": .string("/" + path),
            "width": width.map(JSONValue.int) ?? .null,
            "height": height.map(JSONValue.int) ?? .null,
        ]
    }

    /// The path of the largest version, for Open Graph.
    var largest: String { path }
}
