import TomoCore

/// The page every address answers with while the site has never built (no good site, and none
/// kept from the last preview): the problems themselves, so that the page says what is wrong
/// even without the live-reload overlay (`--no-reload`).
enum BuildErrorPage {
    /// The page listing `problems` (`file:line:column: message`, escaped); it promises to
    /// reload only when live reload is on, the only case in which it does.
    static func bytes(listing problems: [Diagnostic], liveReload: Bool) -> [UInt8] {
        let items = problems.map { "<li>\(MarkupText.escaped($0.description))</li>" }.joined()
        let next = liveReload
            ? "Fix them and save: this page reloads by itself."
            : "Fix them and save, then reload this page."
        let page = """
            <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Build failed</title></head>\
            <body><h1>The site does not build yet</h1><ul>\(items)</ul><p>\(next)</p></body></html>
            """
        return Array(page.utf8)
    }
}
