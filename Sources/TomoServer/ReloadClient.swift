/// The browser side of live reload: a script served at `/_tomo/reload.js` and the tag that
/// loads it, which the caller adds to served pages only (never to `tomo build` output).
public enum ReloadClient {
    public static let scriptPath = "/_tomo/reload.js"
    public static let eventsPath = "/_tomo/events"

    /// Listens on the event stream: reloads on `reload`, re-fetches stylesheets on `css`, shows
    /// the build error in an overlay on `error` and hides it on `clear`. EventSource reconnects
    /// by itself; a reconnect after the server went away reloads, since the site may have changed.
    public static let script = #"""
    (() => {
      "use strict";
      let overlay = null, lost = false;
      const events = new EventSource("/_tomo/events");
      events.addEventListener("open", () => { if (lost) location.reload(); });
      events.addEventListener("error", (e) => { if (!(e instanceof MessageEvent)) lost = true; });
      events.addEventListener("reload", () => location.reload());
      events.addEventListener("css", () => {
        for (const link of document.querySelectorAll('link[rel~="stylesheet"]')) {
          const url = new URL(link.href, location.href);
          url.searchParams.set("_tomo", Date.now());
          link.href = url.href;
        }
      });
      events.addEventListener("error", (e) => {
        if (!(e instanceof MessageEvent)) return;
        if (!overlay) {
          overlay = document.createElement("pre");
          overlay.style.cssText = "position:fixed;inset:auto 0 0 0;z-index:2147483647;margin:0;" +
            "padding:1em;max-height:50vh;overflow:auto;white-space:pre-wrap;font:14px/1.4 monospace;" +
            "background:#300;color:#fff;border-top:4px solid #f44";
        }
        overlay.textContent = JSON.parse(e.data);
        document.body.appendChild(overlay);
      });
      events.addEventListener("clear", () => { if (overlay) overlay.remove(); });
    })();

    """#

    /// The tag `injectReloadScript` inserts.
    public static let scriptTag = #"<script src="/_tomo/reload.js" defer></script>"#

    /// `html` with the reload script tag before its last `</body>` (any letter case), or at the
    /// end when there is none.
    public static func injectReloadScript(into html: [UInt8]) -> [UInt8] {
        let tag = Array(scriptTag.utf8)
        let closing = Array("</body>".utf8)
        var output = html
        guard html.count >= closing.count else { return output + tag }
        var start = html.count - closing.count
        while start >= 0 {
            if zip(html[start..<start + closing.count], closing).allSatisfy({ lowercased($0) == $1 }) {
                output.insert(contentsOf: tag, at: start)
                return output
            }
            start -= 1
        }
        return output + tag
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}

/// `html` with the live-reload script tag added; see `ReloadClient.injectReloadScript`.
public func injectReloadScript(into html: [UInt8]) -> [UInt8] {
    ReloadClient.injectReloadScript(into: html)
}
