import TomoCore
import TomoSite

/// `tomo check`: reads every content file and reports every problem, writing nothing.
enum CheckCommand {
    static let spec = CommandSpec(
        path: ["check"],
        summary: "Check the site's content files and report every problem",
        options: [
            OptionSpec("format", value: "FORMAT", "text (default), gnu (FILE:LINE:COLUMN: error: message) or json"),
            // What changes what a build publishes, and so what can collide or fail to render.
            OptionSpec("base-url", value: "URL", "check the site as `tomo build --base-url URL` makes it", type: ValueTypes.siteAddress),
            .flag("drafts", "check it as `tomo build --drafts` makes it, with posts and pages with draft: true"),
            .flag("future", "check it as `tomo build --future` makes it, with posts dated in the future"),
        ],
        discussion: """
        Runs the build without writing anything: reads content/site.yaml, every profile, page
        and post, the site's templates and content/store.json, decodes every image as the build
        would (no thumbnail is made) and renders every page in memory. It fails exactly when
        `tomo build` with the same --base-url, --drafts and --future would, and lists every
        error and warning as FILE:LINE:COLUMN: message, with paths relative to the site folder.
        Warnings include missing icons and alt text and partials that do not exist.

        --format gnu prints FILE:LINE:COLUMN: error: message, the form editors and CI problem
        matchers read; --format json prints one JSON array of {file, line, column, severity,
        message} on standard output (file, line and column are null for a problem with no place)
        and no summary.

        Exit status: 0 when there is no error (warnings allowed), 1 when there is at least one.

        Example:
          $ tomo check
          error: content/users/bob.yaml:3:12: unknown colour "pruple" (did you mean "purple"?)
          2 users, 1 page: 1 error, 0 warnings
        """,
        run: { invocation in
            try AddressSpace.check(for: "tomo check")
            let format = try DiagnosticFormat.option(invocation)
            let result = SiteChecker.check(try BuildCommand.publishingOptions(invocation, site: invocation.siteDirectory()))
            format.report(result.diagnostics, on: invocation.console)
            if format != .json { invocation.console.line(summary(result)) }
            return result.errors.isEmpty ? 0 : 1
        }
    )

    /// `2 users, 1 page, 3 posts: 0 errors, 2 warnings`
    static func summary(_ result: SiteChecker.Result) -> String {
        var parts = [Plural.count(result.profileFileCount, "user"), Plural.count(result.pageFileCount, "page")]
        if result.postFileCount > 0 { parts.append(Plural.count(result.postFileCount, "post")) }
        return parts.joined(separator: ", ") + ": " + "\(Plural.count(result.errors.count, "error")), \(Plural.count(result.warnings.count, "warning"))"
    }
}
