import Foundation
import TomoCore
import TomoSite

/// `tomo theme eject`: the built-in theme's files copied into the site, to take it over.
enum ThemeCommands {
    static let eject = CommandSpec(
        path: ["theme", "eject"],
        summary: "Copy the built-in theme's templates and static files into templates/ to edit",
        arguments: [ArgumentSpec("NAME", "a template (profile, icons/github), a file (static/style.css, labels/en.json) or a folder (icons, static); none: every file", optional: true, repeats: true, kind: .themeName)],
        options: [.flag("force", "overwrite files templates/ already has (they are kept otherwise)")],
        discussion: """
        A file in the site's templates/ replaces the built-in file of the same name, and only
        that one: eject what you mean to change and the rest stays the built-in theme, which
        changes with tomo. A file templates/ already has is kept, and named, unless --force.

        Examples:
          tomo theme eject                      every template, partial, icon, label and static file
          tomo theme eject profile layout static/style.css
          tomo theme eject icons --force
        """,
        run: { invocation in
            let paths: [String]
            switch ThemeEjection.select(invocation.arguments) {
            case .success(let selected): paths = selected
            case .failure(let unknown): throw UsageError(unknown.description, usage: invocation.command.usage)
            }
            let outcome = try ThemeEjection.eject(paths, into: try invocation.siteDirectory(), overwriting: invocation.flag("force"))
            let console = invocation.console
            if !outcome.written.isEmpty {
                console.line("Wrote \(Plural.count(outcome.written.count, "file")) into templates/:")
                for path in outcome.written { console.line("  templates/\(path)") }
            }
            if !outcome.kept.isEmpty {
                console.line("Kept \(Plural.count(outcome.kept.count, "file")) templates/ already has (--force overwrites):")
                for path in outcome.kept { console.line("  templates/\(path)") }
            }
            return 0
        }
    )
}
