import Foundation
import TomoCore
import TomoSite

/// `tomo build`: the whole site into `public/` (or `--out DIR`), swapped in only on success.
enum BuildCommand {
    /// A build of `site` with the options that change what it publishes, as given: `tomo check`
    /// takes them too, and fails exactly when such a build would.
    static func publishingOptions(_ invocation: Invocation, site: URL) throws -> BuildOptions {
        BuildOptions(
            site: site,
            baseURL: try invocation.value("base-url", ValueTypes.siteAddress),
            drafts: invocation.flag("drafts"),
            future: invocation.flag("future")
        )
    }

    static let spec = CommandSpec(
        path: ["build"],
        summary: "Build the site into public/",
        options: [
            OptionSpec("out", short: "o", value: "DIR", "write the site here instead of public/ (files tomo did not make are kept)", kind: .directory),
            OptionSpec("base-url", value: "URL", "the site's address for feeds, the sitemap and Open Graph (instead of site.yaml's baseURL)", type: ValueTypes.siteAddress),
            .flag("timings", "print how long each step of the build took"),
            .flag("full", "render and compare every file, ignoring what the last build kept in .tomo-cache/build"),
            .flag("drafts", "publish posts and pages with draft: true too"),
            .flag("future", "publish posts dated in the future at once, instead of at their date"),
        ],
        discussion: """
        A build writes only new and changed files, beside their targets, and renames them in at
        the end: the output changes only when everything succeeded, and a failed build leaves it
        as it was. Unchanged files keep their modification time. Every problem in the content is
        reported, not only the first. A second build into the same folder waits for the first.

        A build remembers what it read and wrote (.tomo-cache/build). The next one stops at once
        when no file under content/ or templates/ changed, and after an edit renders only the
        pages that show what changed. Pass --full after changing files in the output by hand:
        it also reads every cached thumbnail and site icon it publishes (published images are
        links to them, so an edit in place changes both) and makes again any that changed.
        A post dated later than now is left out until a build at or after its date.

        Examples:
          tomo build
          tomo build --out /tmp/site --base-url https://staging.example.com/
        """,
        run: { invocation in
            try AddressSpace.check(for: "tomo build")
            let site = try invocation.siteDirectory()
            var options = try publishingOptions(invocation, site: site)
            if let out = invocation.option("out") { try invocation.checkWorkingDirectory(for: out) }
            options.output = invocation.option("out").map(invocation.path) ?? options.output
            options.full = invocation.flag("full")
            let console = invocation.console
            let showsProgress = console.isInteractive
            let output = displayPath(options.output, from: invocation.workingDirectory)
            let hadOutput = FileManager.default.fileExists(atPath: options.output.path)
            let report: BuildReport
            do throws(DiagnosticList) {
                report = try SiteBuilder.build(options, progress: { done, total in
                    guard showsProgress, total >= 1000 else { return }
                    console.progress("building: \(done)/\(Plural.count(total, "page"))")
                }, waiting: {
                    console.errorLine("waiting for the other tomo build into \(output) to finish…")
                })
            } catch {
                if showsProgress { console.progress(nil) }
                for diagnostic in error.inReportOrder { TomoCommandLine.report(diagnostic, on: console) }
                console.errorLine(failure(error, output: output, hadOutput: hadOutput))
                return 1
            }
            if showsProgress { console.progress(nil) }
            // A build shows a few warnings; `tomo check` lists them all.
            for warning in report.warnings.prefix(maximumWarnings) {
                console.warning(warning.description)
            }
            if report.warnings.count > maximumWarnings {
                console.warning("\(Plural.count(report.warnings.count - maximumWarnings, "more warning")): run `tomo check` to see them all")
            }
            // A result the user asked for: on standard output, before the summary.
            if invocation.flag("timings") {
                for step in report.steps {
                    console.line(String(format: "%8.3f s  ", step.seconds) + step.name)
                }
            }
            console.line(summary(of: report, site: site, workingDirectory: invocation.workingDirectory))
            return 0
        }
    )

    static let maximumWarnings = 10

    /// A `ConsoleText`, so that the output folder, a value, has its line feeds and tabs escaped
    /// as every path a message names: the summary stays one line whatever `--out` holds.
    static func summary(of report: BuildReport, site: URL, workingDirectory: URL) -> ConsoleText {
        let seconds = String(format: "%.2f", report.seconds)
        let unchanged = report.files - report.written
        let output = displayPath(report.output, from: workingDirectory)
        let counted = Plural.count(report.pages, "page") + " and " + Plural.count(report.images, "image")
        if report.nothingChanged {
            return "Nothing changed since the last build: \(counted) (\(Plural.count(report.files, "file"))) checked in \(seconds) s → \(output)"
        }
        return "Built \(counted) (\(Plural.count(report.files, "file")), \(report.written) written, \(unchanged) unchanged) in \(seconds) s → \(output)"
    }

    /// The last line of a failed build: how many errors, and what became of the output (a
    /// build swaps its output in only when everything succeeded).
    static func failure(_ error: DiagnosticList, output: String, hadOutput: Bool) -> ConsoleText {
        let errors = error.inReportOrder.count { $0.severity == .error }
        let outcome: ConsoleText = hadOutput ? "\(output) is unchanged" : "no \(output) was made"
        return "Build failed: \(Plural.count(errors, "error")); \(outcome)"
    }

    /// A path as short as it can be said from the working directory.
    static func displayPath(_ url: URL, from directory: URL) -> String {
        let base = directory.standardizedFileURL.path
        let path = url.standardizedFileURL.path
        if path.hasPrefix(base + "/") { return String(path.dropFirst(base.count + 1)) + "/" }
        // A folder is named with a final slash, which the root already is ("/", not "//").
        return path.hasSuffix("/") ? path : path + "/"
    }
}
