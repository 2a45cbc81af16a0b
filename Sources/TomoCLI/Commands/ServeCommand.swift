import Foundation
import TomoCore
import TomoPreview

/// `tomo serve`: preview the site with live reload until Ctrl-C.
enum ServeCommand {
    static let spec = CommandSpec(
        path: ["serve"],
        summary: "Preview the site on http://127.0.0.1:8080/ and reload pages on every save",
        options: [
            OptionSpec("port", short: "p", value: "PORT", "the first port to try (default 8080; a taken port moves on to the next)", type: ValueTypes.port),
            OptionSpec("host", value: "ADDRESS", "the IPv4 or IPv6 address to listen on (default 127.0.0.1, this machine only; any other address is reachable from the network; 0.0.0.0 or :: listens on every interface and links pages to this machine's network address)", type: ValueTypes.listenAddress),
            OptionSpec("base-url", value: "URL", "the site's address in its pages, as `tomo build --base-url` (default: where the preview is); pages are served under its path", type: ValueTypes.siteAddress),
            .flag("no-reload", "do not add the live-reload script to pages"),
            .flag("drafts", "show posts and pages with draft: true"),
            .flag("future", "show posts dated later than now (otherwise each one appears at its date)"),
        ],
        discussion: """
        Builds the site and serves it, keeping the served files in .tomo-cache/serve/<setting>/
        (a restart with the same options serves them at once; deleting .tomo-cache/ is safe).
        Every save in content/, templates/ or static/ rebuilds only what changed, and open pages
        reload (a stylesheet change swaps the stylesheet without a reload). A failed rebuild
        keeps the last good site and shows the error over the page and here, until the next good
        rebuild; here each problem is printed once, sorted as `tomo check` sorts them, while it
        stays. public/ is not touched: run `tomo build` to publish.

        Examples:
          tomo serve --port 3000
          tomo serve --base-url https://example.github.io/mysite/   (open http://127.0.0.1:8080/mysite/)
          tomo serve --host 0.0.0.0   (for a phone on the same network)
        """,
        run: { invocation in
            try AddressSpace.check(for: "tomo serve")
            var options = SitePreview.Options(site: try invocation.siteDirectory())
            options.baseURL = try invocation.value("base-url", ValueTypes.siteAddress)
            if let host = try invocation.value("host", ValueTypes.listenAddress) { options.host = host }
            if let port = try invocation.value("port", ValueTypes.port) { options.port = port }
            options.liveReload = !invocation.flag("no-reload")
            options.drafts = invocation.flag("drafts")
            options.future = invocation.flag("future")
            let console = invocation.console
            let preview = try SitePreview.start(options) { event in report(event, on: console) }
            console.line("Serving \(console.paint(preview.url, .bold)) (Ctrl-C stops)")
            if preview.baseURL != preview.url { console.line("Pages give \(preview.baseURL) as their address (--base-url)") }
            if let warning = networkWarning(forHost: options.host) { console.warning(warning) }
            preview.runUntilInterrupted()
            console.line("Stopped.")
            return 0
        }
    )

    /// What to tell someone who serves the preview beyond this machine, or nil on loopback.
    static func networkWarning(forHost host: String) -> String? {
        guard SitePreview.isReachableFromNetwork(host: host) else { return nil }
        return "--host \"\(host)\" makes the preview reachable from the network, by anyone who can connect to this machine (the default, 127.0.0.1, keeps it to this machine)"
    }

    static func report(_ event: SitePreview.Event, on console: Console) {
        switch event {
        case .note(let text):
            // A value (it names folders of the site), so one note stays one line.
            console.warning("\(text)")
        case .servingKept(let files, let url):
            console.line("Serving the last preview's \(Plural.count(files, "file")) at \(url) while the site builds")
        case .built(let files, let seconds, let warnings):
            for warning in warnings.prefix(BuildCommand.maximumWarnings) { console.warning(warning.description) }
            console.line("Built \(Plural.count(files, "file")) in \(String(format: "%.2f", seconds)) s")
        case .rebuilt(let changed, let made, let milliseconds, let stylesheetsOnly, let trigger):
            let what = stylesheetsOnly ? "stylesheets swapped" : "\(Plural.count(changed, "file")) changed"
            console.line("\(String(format: "Rebuilt in %.0f ms", milliseconds)) after \(describe(trigger)): \(what) (\(made) made again)")
        case .failed(let new, let errorsShownBefore, let trigger, let servesGoodSite):
            for diagnostic in new { TomoCommandLine.report(diagnostic, on: console) }
            let still: ConsoleText = errorsShownBefore == 0 ? "" : new.isEmpty
                ? " with the same \(Plural.count(errorsShownBefore, "error")) as before"
                : " (and \(Plural.count(errorsShownBefore, "error")) shown before)"
            let rebuild: ConsoleText = trigger.map { "The rebuild after \(describe($0)) failed\(still). " } ?? ""
            let served: ConsoleText = servesGoodSite
                ? "The last good site is still served; the error shows on open pages."
                : "The site has not built yet: every page shows the error until a save fixes it."
            console.errorLine("\(rebuild)\(served)")
        }
    }

    /// What a rebuild reacted to: the files, or the moment that passed (in this machine's time,
    /// as a clock beside the terminal shows it).
    static func describe(_ trigger: SitePreview.Trigger) -> ConsoleText {
        switch trigger {
        case .files(let paths):
            return listing(paths)
        case .moment(let moment):
            let clock = DateFormatter()
            clock.locale = Locale(identifier: "en_US_POSIX")
            clock.dateFormat = "HH:mm:ss"
            return "an item's from/until or a post's date passed at \(clock.string(from: moment))"
        case .lostFiles(let folder):
            return "the served files in \(folder) were deleted"
        }
    }

    /// The changed files a rebuild reacted to, the first few by name: `content/users/alice.yaml,
    /// content/store.json and 3 more`.
    static func listing(_ paths: [String]) -> ConsoleText {
        let named = paths.prefix(listedPaths).joined(separator: ", ")
        return paths.count > listedPaths ? "\(named) and \(paths.count - listedPaths) more" : "\(named)"
    }

    static let listedPaths = 3
}
