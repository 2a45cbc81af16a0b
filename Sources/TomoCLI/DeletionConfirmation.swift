extension Invocation {
    /// Stops a command that deletes unless `--yes` was given, naming what it would delete and
    /// the command line that confirms it. A missing `--yes` is wrong usage (exit status 2), the
    /// same for every such command, so a script that forgot it fails with the status that means
    /// "fix the command line" and nothing is deleted.
    func requireConfirmation(deleting what: [String], note: String = "", target: String) throws(UsageError) {
        guard !flag("yes") else { return }
        let confirmed = (["tomo"] + command.path + [target, "--yes"]).joined(separator: " ")
        throw UsageError("this deletes \(what.joined(separator: ", "))\(note): run `\(confirmed)` to confirm", usage: command.usage)
    }
}
