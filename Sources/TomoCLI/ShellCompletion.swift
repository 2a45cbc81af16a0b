/// Shell completion scripts written from the command table: commands, subcommands, every
/// option (long and short) and, where an option's or argument's kind says, its values.
enum ShellCompletion {
    enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    static func script(for shell: Shell, commands: [CommandSpec] = TomoCommandLine.commands) -> String {
        let table = Table(commands: commands)
        switch shell {
        case .bash: return bash(table)
        case .zsh: return zsh(table)
        case .fish: return fish(table)
        }
    }

    /// What the scripts are written from.
    struct Table {
        let commands: [CommandSpec]
        /// The first words, in table order: commands and groups (`user`).
        let firstWords: [String]
        let groups: [String]

        init(commands: [CommandSpec]) {
            self.commands = commands
            var first: [String] = []
            for command in commands where !first.contains(command.path[0]) { first.append(command.path[0]) }
            firstWords = first
            groups = commands.groups
        }

        func options(of command: CommandSpec) -> [OptionSpec] { command.options + TomoCommandLine.commonOptions }

        func subcommands(of group: String) -> [CommandSpec] { commands.subcommands(of: group) }

        /// Every spelling of every option that takes a value: the word after it is its value,
        /// not a command or an argument.
        var valueSpellings: [String] {
            var spellings: [String] = []
            for option in commands.flatMap(options(of:)) + TomoCommandLine.globalOptions where option.valueName != nil {
                for spelling in option.spellings where !spellings.contains(spelling) { spellings.append(spelling) }
            }
            return spellings
        }
    }

    // MARK: bash and zsh

    /// The logic bash and zsh share, in the shell language both read: given the words between
    /// `tomo` and the cursor as arguments and the word being typed in `_tomo_cur`, it sets
    /// `_tomo_kind` (words, files, dirs or none) and `_tomo_words`.
    static func decide(_ table: Table) -> String {
        var lines: [String] = []
        lines.append("_tomo_decide() {")
        lines.append("    local word command='' first='' second='' count=0 position=0 skip=0 prev=''")
        lines.append("    for word in \"$@\"; do")
        lines.append("        prev=$word")
        lines.append("        if [ $skip = 1 ]; then skip=0; continue; fi")
        lines.append("        case $word in")
        lines.append("            \(table.valueSpellings.map(shellQuote).joined(separator: "|"))) skip=1 ;;")
        lines.append("            -*) ;;")
        lines.append("            *) count=$((count + 1))")
        lines.append("               if [ $count = 1 ]; then first=$word; elif [ $count = 2 ]; then second=$word; fi ;;")
        lines.append("        esac")
        lines.append("    done")
        lines.append("    case $first in")
        if !table.groups.isEmpty {
            lines.append("        \(table.groups.map(shellQuote).joined(separator: "|"))) if [ $count -ge 2 ]; then command=\"$first $second\"; position=$((count - 2)); fi ;;")
        }
        lines.append("        '') ;;")
        lines.append("        *) command=$first; position=$((count - 1)) ;;")
        lines.append("    esac")
        lines.append("    _tomo_kind=words")
        lines.append("    _tomo_words=''")
        // The value of the option before the cursor.
        lines.append("    if [ $skip = 1 ]; then")
        lines.append("        case \"$command|$prev\" in")
        for command in table.commands {
            for option in command.options where option.valueName != nil {
                let patterns = option.spellings.map { shellQuote("\(command.name)|\($0)") }
                lines.append("            \(patterns.joined(separator: "|"))) \(valueAssignment(option.kind.completion)) ;;")
            }
        }
        for option in TomoCommandLine.globalOptions where option.valueName != nil {
            let patterns = option.spellings.map { "*" + shellQuote("|\($0)") }
            lines.append("            \(patterns.joined(separator: "|"))) \(valueAssignment(option.kind.completion)) ;;")
        }
        lines.append("            *) _tomo_kind=none ;;")
        lines.append("        esac")
        lines.append("        return 0")
        lines.append("    fi")
        // An option.
        lines.append("    case $_tomo_cur in")
        lines.append("        -*)")
        lines.append("            case $command in")
        for command in table.commands {
            lines.append("                \(shellQuote(command.name))) _tomo_words=\(shellQuote(table.options(of: command).flatMap(\.spellings).joined(separator: " "))) ;;")
        }
        lines.append("                '') _tomo_words=\(shellQuote(TomoCommandLine.globalOptions.flatMap(\.spellings).joined(separator: " "))) ;;")
        lines.append("            esac")
        lines.append("            return 0 ;;")
        lines.append("    esac")
        // A command or a subcommand.
        lines.append("    if [ -z \"$command\" ]; then")
        lines.append("        if [ $count = 0 ]; then")
        lines.append("            _tomo_words=\(shellQuote(table.firstWords.joined(separator: " ")))")
        lines.append("        else")
        lines.append("            case $first in")
        for group in table.groups {
            lines.append("                \(shellQuote(group))) _tomo_words=\(shellQuote(table.subcommands(of: group).map { $0.path[1] }.joined(separator: " "))) ;;")
        }
        lines.append("            esac")
        lines.append("        fi")
        lines.append("        return 0")
        lines.append("    fi")
        // An argument.
        lines.append("    case \"$command|$position\" in")
        for command in table.commands {
            for (index, argument) in command.arguments.enumerated() where argument.kind.completion != .nothing {
                let pattern = shellQuote("\(command.name)|\(index)") + (argument.repeats ? "|" + shellQuote("\(command.name)|") + "*" : "")
                lines.append("        \(pattern)) \(valueAssignment(argument.kind.completion)) ;;")
            }
        }
        lines.append("        *) _tomo_kind=none ;;")
        lines.append("    esac")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func valueAssignment(_ completion: ValueCompletion) -> String {
        switch completion {
        case .nothing: return "_tomo_kind=none"
        case .files: return "_tomo_kind=files"
        case .directories: return "_tomo_kind=dirs"
        case .words(let words): return "_tomo_words=\(shellQuote(words.joined(separator: " ")))"
        }
    }

    static func bash(_ table: Table) -> String {
        """
        # bash completion for tomo, written by `tomo completion bash` from its command table.
        # Load it in ~/.bashrc: source <(tomo completion bash)
        \(decide(table))
        _tomo() {
            local _tomo_cur="${COMP_WORDS[COMP_CWORD]}" _tomo_kind _tomo_words
            _tomo_decide "${COMP_WORDS[@]:1:COMP_CWORD-1}"
            case $_tomo_kind in
                words) COMPREPLY=($(compgen -W "$_tomo_words" -- "$_tomo_cur")) ;;
                files) COMPREPLY=($(compgen -f -- "$_tomo_cur")) ;;
                dirs) COMPREPLY=($(compgen -d -- "$_tomo_cur")) ;;
                *) COMPREPLY=() ;;
            esac
        }
        complete -o filenames -F _tomo tomo

        """
    }

    static func zsh(_ table: Table) -> String {
        """
        #compdef tomo
        # zsh completion for tomo, written by `tomo completion zsh` from its command table.
        # Save it as _tomo in a folder of $fpath, or load it in ~/.zshrc after compinit:
        # source <(tomo completion zsh)
        \(decide(table))
        _tomo() {
            local _tomo_cur=$words[CURRENT] _tomo_kind _tomo_words
            _tomo_decide "${(@)words[2,CURRENT-1]}"
            case $_tomo_kind in
                words) compadd -- ${=_tomo_words} ;;
                files) _files ;;
                dirs) _files -/ ;;
            esac
        }
        if [ "$funcstack[1]" = _tomo ]; then _tomo "$@"; else compdef _tomo tomo; fi

        """
    }

    // MARK: fish

    static func fish(_ table: Table) -> String {
        var lines = [
            "# fish completion for tomo, written by `tomo completion fish` from its command table.",
            "# Save it as ~/.config/fish/completions/tomo.fish: tomo completion fish > ~/.config/fish/completions/tomo.fish",
            "",
            "# Whether the words before the cursor name COMMAND (\"\" for none yet, \"user\" for a group",
            "# without its subcommand) and, when given, POSITION arguments follow it.",
            "function __tomo_at",
            "    set -l words (commandline -opc)",
            "    set -e words[1]",
            "    set -l found",
            "    set -l skip 0",
            "    for word in $words",
            "        if test $skip = 1",
            "            set skip 0",
            "            continue",
            "        end",
            "        switch $word",
            "            case \(table.valueSpellings.map(fishQuote).joined(separator: " "))",
            "                set skip 1",
            "            case '-*'",
            "            case '*'",
            "                set -a found $word",
            "        end",
            "    end",
            "    set -l command ''",
            "    set -l length 0",
            "    if test (count $found) -gt 0",
            "        set length 1",
            "        if contains -- $found[1] \(table.groups.map(fishQuote).joined(separator: " ")); and test (count $found) -ge 2",
            "            set length 2",
            "        end",
            "        set command (string join ' ' $found[1..$length])",
            "    end",
            "    test \"$command\" = \"$argv[1]\"; or return 1",
            "    test (count $argv) -lt 2; or test (math (count $found) - $length) = $argv[2]",
            "end",
            "",
            "complete -c tomo -f",
        ]
        for word in table.firstWords {
            let summary = table.commands.first { $0.path == [word] }?.summary
                ?? table.subcommands(of: word).map { $0.path[1] }.joined(separator: ", ")
            lines.append("complete -c tomo -n \(fishQuote("__tomo_at ''")) -a \(fishQuote(word)) -d \(fishQuote(summary))")
        }
        for group in table.groups {
            for command in table.subcommands(of: group) {
                lines.append("complete -c tomo -n \(fishQuote("__tomo_at \(group)")) -a \(fishQuote(command.path[1])) -d \(fishQuote(command.summary))")
            }
        }
        for option in TomoCommandLine.globalOptions {
            let condition = TomoCommandLine.commonOptions.contains { $0.name == option.name } ? "" : " -n \(fishQuote("__tomo_at ''"))"
            lines.append("complete -c tomo\(condition)\(fishOption(option))")
        }
        for command in table.commands {
            let at = "__tomo_at \(fishQuote(command.name))"
            for option in command.options {
                lines.append("complete -c tomo -n \(fishQuote(at))\(fishOption(option))")
            }
            for (index, argument) in command.arguments.enumerated() where argument.kind.completion != .nothing {
                let condition = argument.repeats ? at : "\(at) \(index)"
                lines.append("complete -c tomo -n \(fishQuote(condition))\(fishValues(argument.kind.completion))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// ` -s o -l out -r -a '(__fish_complete_directories)' -d 'help'`
    private static func fishOption(_ option: OptionSpec) -> String {
        var text = option.short.map { " -s \($0)" } ?? ""
        text += " -l \(option.name)"
        if option.valueName != nil { text += " -r" + fishValues(option.kind.completion) }
        return text + " -d \(fishQuote(option.help))"
    }

    private static func fishValues(_ completion: ValueCompletion) -> String {
        switch completion {
        case .nothing: return " -f"
        case .files: return " -F"
        case .directories: return " -f -a '(__fish_complete_directories)'"
        case .words(let words): return " -f -a \(fishQuote(words.joined(separator: " ")))"
        }
    }

    /// A word in single quotes, for bash and zsh.
    static func shellQuote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// A word in single quotes, for fish (which escapes \ and ' inside them).
    static func fishQuote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
