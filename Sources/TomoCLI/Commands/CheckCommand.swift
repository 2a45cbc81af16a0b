import TomoCore
import TomoSite

/// `tomo check`: reads every content file and reports every problem, writing nothing.
enum CheckCommand {
    static let spec = CommandSpec(
        path: ["check"],
        summary: "Check the site's content files and report every problem",
        discussion: """
        Reads content/site.yaml, every profile in content/users/, every page in content/pages/,
        every post in content/posts/, the site's templates and content/store.json, and lists
        every error and warning as FILE:LINE:COLUMN: message, with paths relative to the site
        folder. Warnings include missing icons and alt text and partials that do not exist.
        Nothing is written.

        Exit status: 0 when there is no error (warnings allowed), 1 when there is at least one.

        Example:
          $ tomo check
          error: content/users/bob.yaml:3:12: unknown colour "pruple" (did you mean "purple"?)
          2 users, 1 page: 1 error, 0 warnings
        """,
        run: { invocation in
            let result = SiteChecker.check(site: try invocation.siteDirectory())
            for diagnostic in result.diagnostics {
                TomoCommandLine.report(diagnostic, on: invocation.console)
            }
            invocation.console.line(summary(result))
            return result.errors.isEmpty ? 0 : 1
        }
    )

    /// `2 users, 1 page, 3 posts: 0 errors, 2 warnings`
    static func summary(_ result: SiteChecker.Result) -> String {
        var parts = [count(result.profileFileCount, "user"), count(result.pageFileCount, "page")]
        if result.postFileCount > 0 { parts.append(count(result.postFileCount, "post")) }
        return parts.joined(separator: ", ") + ": " + "\(count(result.errors.count, "error")), \(count(result.warnings.count, "warning"))"
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
