import TomoContent
import TomoCore
import TomoQR

/// The files beside each profile page that are not pages: `/<handle>/qr.svg`, a QR code of the
/// profile's absolute address, and `/<handle>/contact.vcf`, a contact card of what the profile
/// publishes. Their plan and their bytes, side by side.
enum ProfileFiles {
    static func plan(_ handle: String, into files: inout [PlannedFile]) {
        // The code shows the address alone: only the base URL changes it.
        files.append(PlannedFile(path: qrPath(handle), inputs: [.site], source: .bytes { views throws(Diagnostic) in
            try views.qrCode(handle)
        }))
        files.append(PlannedFile(path: contactPath(handle), inputs: [.site, .contactCard(handle)], source: .bytes { views in
            views.contactProfile(handle).map(views.contactCard) ?? []
        }))
    }

    static func qrPath(_ handle: String) -> String { handle + "/qr.svg" }
    static func contactPath(_ handle: String) -> String { handle + "/contact.vcf" }

    /// Light modules around the symbol, in modules: what ISO/IEC 18004 asks for.
    static let quietZone = 4

    /// `code` drawn as SVG: a white square, then one path of the dark modules (a rectangle for
    /// each run of them in a row), one unit a module, with crisp edges so no scaling blurs them.
    static func svg(_ code: QRCode, title: String) -> [UInt8] {
        let side = code.size + 2 * quietZone
        var path = ""
        for run in code.darkRuns {
            path += "M\(run.column + quietZone) \(run.row + quietZone)h\(run.length)v1h-\(run.length)z"
        }
        let svg = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges">\
        <title>\(MarkupText.escaped(title))</title>\
        <rect width="\(side)" height="\(side)" fill="#fff"/>\
        <path fill="#000" d="\(path)"/></svg>

        """
        return Array(svg.utf8)
    }
}

extension PageViews {
    /// The SVG of `handle`'s profile address as a QR code; an error when the address is too long
    /// for one.
    func qrCode(_ handle: String) throws(Diagnostic) -> [UInt8] {
        let url = address.absolute(handle + "/")
        do throws(QRCode.Failure) {
            return ProfileFiles.svg(try QRCode(encoding: url), title: url)
        } catch {
            let reason = switch error {
            case .tooLong(let bytes, let limit): "the address is \(bytes) bytes long and a QR code holds at most \(limit): use a shorter base URL"
            case .encoder(let message): "libqrencode failed (\(message))"
            }
            throw Diagnostic("cannot make \(ProfileFiles.qrPath(handle)), the QR code of \(url): \(reason)")
        }
    }

    /// `profile`'s contact card: its name, handle, bio as plain text, icon, profile address and
    /// links; the e-mail address only when the profile shows it (`publicEmail`). A `mailto:`
    /// link is no web address and stays out of the URLs, as it does from the JSON-LD.
    func contactCard(_ profile: Profile) -> [UInt8] {
        let handle = profile.handle
        let address = address
        var vcard = VCard()
        vcard.add("FN", profile.name)
        vcard.add("NICKNAME", handle)
        if let bio = profile.bio?.plainText, !bio.isEmpty { vcard.add("NOTE", bio) }
        if let icon = card(handle)?.icon { vcard.add("PHOTO", address.absolute(icon.path)) }
        if let email = profile.publicEmail { vcard.add("EMAIL", email) }
        vcard.add("URL", address.absolute(handle + "/"))
        for link in profile.links where link.isWebPage { vcard.add("URL", link.url) }
        vcard.add("SOURCE", address.absolute(ProfileFiles.contactPath(handle)))
        return vcard.bytes
    }
}
