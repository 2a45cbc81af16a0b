/// `tomo completion bash|zsh|fish`: a completion script written from the command table.
enum CompletionCommand {
    static let shell = ValueType<ShellCompletion.Shell>.choice("shell", ShellCompletion.Shell.allCases.map(\.rawValue)) { ShellCompletion.Shell(rawValue: $0) }

    static let spec = CommandSpec(
        path: ["completion"],
        summary: "Print a shell completion script (bash, zsh or fish)",
        arguments: [ArgumentSpec("SHELL", "bash, zsh or fish", type: shell)],
        discussion: """
        The script completes commands, subcommands, options and the values the command table
        knows: words such as public, followers and private, files and folders.

        Install:
          bash  echo 'source <(tomo completion bash)' >> ~/.bashrc
          zsh   echo 'source <(tomo completion zsh)' >> ~/.zshrc   (after compinit)
          fish  tomo completion fish > ~/.config/fish/completions/tomo.fish
        """,
        run: { invocation in
            // The parser refuses a missing or unknown shell before any command runs.
            guard let shell = try invocation.argument(0, shell) else {
                throw UsageError("missing SHELL", usage: invocation.command.usage)
            }
            invocation.console.out(ShellCompletion.script(for: shell))
            return 0
        }
    )
}
