import TomoContent
import TomoCore

/// `tomo check`: reads every content file and reports every problem, writing nothing.
enum CheckCommand {
    static let spec = CommandSpec(
        path: ["check"],
        summary: "Check the site's content files and report every problem",
        discussion: """
        Reads content/site.yaml, every profile in content/users/ and every page in
        content/pages/, and lists every error and warning as FILE:LINE:COLUMN: message,
        with paths relative to the site folder. Nothing is written.

        Exit status: 0 when there is no error (warnings allowed), 1 when there is at least one.

        Example:
          $ tomo check
          error: content/users/bob.yaml:3:12: unknown colour "pruple" (did you mean "purple"?)
          2 users, 1 page: 1 error, 0 warnings
        """,
        run: { invocation in
            let result = ContentLoader.load(site: try invocation.siteDirectory())
            for diagnostic in result.diagnostics {
                TomoCommandLine.report(diagnostic, on: invocation.console)
            }
            invocation.console.line(summary(result))
            return result.errors.isEmpty ? 0 : 1
        }
    )

    /// `2 users, 1 page: 0 errors, 2 warnings`
    static func summary(_ result: ContentLoadResult) -> String {
        "\(count(result.profileFileCount, "user")), \(count(result.pageFileCount, "page")): "
            + "\(count(result.errors.count, "error")), \(count(result.warnings.count, "warning"))"
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
