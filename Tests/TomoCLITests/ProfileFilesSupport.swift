import Foundation
import TomoTestSupport

/// What a real QR decoder reads in a QR code SVG: libvips (`vips`, through librsvg) draws it
/// eight pixels a module, and zbarimg decodes the picture. nil when it finds no code.
func decodedQRCode(_ svg: Data) throws -> String? {
    let folder = try TemporaryFolder(prefix: "tomo-qr")
    let svgFile = folder.url.appendingPathComponent("qr.svg")
    let pngFile = folder.url.appendingPathComponent("qr.png")
    try svg.write(to: svgFile)
    let drawn = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["vips", "copy", svgFile.path + "[scale=8]", pngFile.path], in: folder.url)
    guard drawn.status == 0 else { throw HarnessError("vips could not draw the SVG (install libvips-tools: make test-deps): \(drawn.error)") }
    let read = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["zbarimg", "--raw", "-q", pngFile.path], in: folder.url)
    // zbarimg exits 4 when it found no code, and 127 comes from env when it is missing.
    guard read.status != 4 else { return nil }
    guard read.status == 0 else { throw HarnessError("zbarimg failed (install zbar-tools: make test-deps): \(read.status) \(read.error)") }
    // One line a symbol found, ended by a newline.
    return read.output.hasSuffix("\n") ? String(read.output.dropLast()) : read.output
}

/// A contact card as PyPI's vobject reads it (scripts/vcard_json.py): its version and each
/// property's name and value, in order.
struct ParsedVCard {
    var version: String
    var properties: [(name: String, value: String)]

    func values(_ name: String) -> [String] { properties.filter { $0.name == name }.map(\.value) }

    init(_ card: Data) throws {
        let folder = try TemporaryFolder(prefix: "tomo-vcard")
        let file = folder.url.appendingPathComponent("contact.vcf")
        try card.write(to: file)
        let script = repositoryRoot.appendingPathComponent("scripts/vcard_json.py")
        let run = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, file.path], in: folder.url)
        guard run.status == 0 else { throw HarnessError("vobject did not read the card (install it: make test-deps): \(run.error)") }
        guard let json = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any],
              let version = json["version"] as? String, let properties = json["properties"] as? [[Any]] else {
            throw HarnessError("scripts/vcard_json.py printed \(run.output)")
        }
        self.version = version
        self.properties = properties.compactMap { pair in
            guard pair.count == 2, let name = pair[0] as? String, let value = pair[1] as? String else { return nil }
            return (name, value)
        }
    }
}
