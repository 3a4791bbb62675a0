import Foundation

/// The script that makes a shell complete `nowflow`'s command lines: the commands, each command's options (after
/// `--`), an option's values where its declaration names them (`--output text|json`: `text`, `json`; `FILE` or
/// `PATH`: file names) and the positional arguments (`JOB.yaml`: directories and `.yaml` files).
///
/// Everything comes from the commands' declarations (``CommandDeclaration``), so the script is made, never written.
struct CompletionScript {
    /// A shell the script is made for.
    enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    /// What completes an option's value or a positional argument, read from the name its declaration shows.
    enum Values: Equatable, Sendable {
        /// Nothing can be offered (`name=value`, `N`, `ZONE`): the shell offers nothing rather than file names.
        case nothing
        /// These words (`text|json`; `local|URL|PROFILE` offers `local`).
        case words([String])
        /// File names, and directories on the way; with an extension (`JOB.yaml`), only the files that have it.
        case files(extension: String?)

        /// The values a name such as `text|json`, `FILE`, `JOB.yaml` or `N` stands for: the lowercase
        /// alternatives are words to offer, `FILE` and `PATH` are any file, `NAME.ext` a file with that extension.
        init(valueName: String) {
            let alternatives = valueName.split(separator: "|").map(String.init)
            if alternatives.contains(where: { $0 == "FILE" || $0 == "PATH" }) {
                self = .files(extension: nil)
            } else if alternatives.count == 1, let dot = valueName.lastIndex(of: "."),
                valueName[..<dot].allSatisfy(\.isUppercase)
            {
                self = .files(extension: String(valueName[valueName.index(after: dot)...]))
            } else {
                let words = alternatives.filter { word in
                    word.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }
                }
                self = words.isEmpty ? .nothing : .words(words)
            }
        }
    }

    var shell: Shell
    /// The commands to complete, in the order they are offered.
    var commands: [CommandDeclaration]

    /// The script, ending with a newline.
    var text: String {
        switch shell {
        case .bash: bash
        case .zsh: zsh
        case .fish: fish
        }
    }

    /// The options `--help` and `--version` the top level takes, with what they do.
    private static let topLevelOptions = [("help", "show the usage"), ("version", "print the version")]

    /// The start of a command's abstract, to its first comma or full stop, as its description in a list of
    /// commands (`Runs a job file's steps in order`).
    private static func summary(_ command: CommandDeclaration) -> String {
        let text = command.abstract.split(whereSeparator: \.isNewline).joined(separator: " ") + " "
        let end = [", ", ". "].compactMap { text.range(of: $0)?.lowerBound }.min() ?? text.endIndex
        return String(text[..<end]).trimmingCharacters(in: .whitespaces)
    }

    /// The words offered first: each command's first word (`run`, `report`), once.
    private var firstWords: [String] {
        var words: [String] = []
        for command in commands where !words.contains(command.nameWords[0]) { words.append(command.nameWords[0]) }
        return words
    }

    /// The commands whose name starts with `word`: one command (`run`), or the subcommands (`report merge`).
    private func commands(under word: String) -> [CommandDeclaration] {
        commands.filter { $0.nameWords[0] == word }
    }

    private static func values(of option: CommandDeclaration.Option) -> Values? {
        switch option.kind {
        case .flag: nil
        case .value(let name), .repeating(let name): Values(valueName: name)
        }
    }

    // MARK: bash

    private var bash: String {
        var lines = [
            "# bash completion for nowflow, made by 'nowflow completion bash'. Load it with",
            "#   source <(nowflow completion bash)",
            "# or save it as ~/.local/share/bash-completion/completions/nowflow.",
            "_nowflow_files() {",
            "    local cur=$1 extension=$2 IFS=$'\\n'",
            "    compopt -o filenames 2>/dev/null",
            "    if [[ -z $extension ]]; then",
            "        COMPREPLY=($(compgen -f -- \"$cur\"))",
            "    else",
            "        COMPREPLY=($(compgen -d -- \"$cur\") $(compgen -f -X \"!*.$extension\" -- \"$cur\"))",
            "    fi",
            "}",
            "",
            "_nowflow() {",
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}",
            "    # bash splits --name=value at the '='",
            "    if [[ $cur == = ]]; then",
            "        cur=",
            "    elif [[ $prev == = ]]; then",
            "        prev=${COMP_WORDS[COMP_CWORD-2]}",
            "    fi",
            "    COMPREPLY=()",
            "    if ((COMP_CWORD == 1)); then",
            "        COMPREPLY=($(compgen -W '\((firstWords + Self.topLevelOptions.map { "--\($0.0)" }).joined(separator: " "))' -- \"$cur\"))",
            "        return 0",
            "    fi",
            "    case ${COMP_WORDS[1]} in",
        ]
        for word in firstWords {
            let under = commands(under: word)
            lines.append("    \(word))")
            if let command = under.first, command.nameWords.count == 1 {
                lines += Self.bashBody(command, indent: "        ")
            } else {
                // A command of subcommands (`report merge`): the subcommand, then its options.
                let subcommands = under.map { $0.nameWords.dropFirst().joined(separator: " ") }
                lines += [
                    "        if ((COMP_CWORD == 2)); then",
                    "            COMPREPLY=($(compgen -W '\(subcommands.joined(separator: " "))' -- \"$cur\"))",
                    "            return 0",
                    "        fi",
                    "        case ${COMP_WORDS[2]} in",
                ]
                for (subcommand, command) in zip(subcommands, under) {
                    lines.append("        \(subcommand))")
                    lines += Self.bashBody(command, indent: "            ")
                    lines.append("            ;;")
                }
                lines.append("        esac")
            }
            lines.append("        ;;")
        }
        lines += ["    esac", "    return 0", "}", "", "complete -F _nowflow nowflow", ""]
        return lines.joined(separator: "\n")
    }

    /// The bash lines that complete `command`'s options, their values and its arguments, indented by `indent`.
    private static func bashBody(_ command: CommandDeclaration, indent: String) -> [String] {
        var lines: [String] = []
        let valued = command.options.compactMap { option in values(of: option).map { (option, $0) } }
        if !valued.isEmpty {
            lines.append("case $prev in")
            for (option, values) in valued {
                lines.append("--\(option.name)) \(bashReply(values)); return 0 ;;")
            }
            lines.append("esac")
        }
        let options = (command.options.map { "--\($0.name)" } + ["--help"]).joined(separator: " ")
        let optionReply = "COMPREPLY=($(compgen -W '\(options)' -- \"$cur\"))"
        if let arguments = command.arguments {
            lines += [
                "if [[ $cur == -* ]]; then",
                "    \(optionReply)",
                "else",
                "    \(bashReply(Values(valueName: arguments.name)))",
                "fi",
            ]
        } else {
            lines.append(optionReply)
        }
        return lines.map { indent + $0 }
    }

    /// The bash commands that fill `COMPREPLY` with `values` matching `$cur`.
    private static func bashReply(_ values: Values) -> String {
        switch values {
        case .nothing: ":"
        case .words(let words): "COMPREPLY=($(compgen -W '\(words.joined(separator: " "))' -- \"$cur\"))"
        case .files(let fileExtension): "_nowflow_files \"$cur\" '\(fileExtension ?? "")'"
        }
    }

    // MARK: zsh

    private var zsh: String {
        var lines = [
            "#compdef nowflow",
            "# zsh completion for nowflow, made by 'nowflow completion zsh'. Save it as _nowflow in a directory of",
            "# $fpath (before compinit runs), or load it with: source <(nowflow completion zsh)",
            "_nowflow() {",
            "    local -a commands",
            "    commands=(",
        ]
        lines += firstWords.map { word in
            let under = commands(under: word)
            let summary = under.count == 1 && under[0].nameWords.count == 1 ? Self.summary(under[0]) : "\(word) commands"
            return "        \(Self.zshQuoted("\(word):\(summary)"))"
        }
        lines += Self.topLevelOptions.map { "        \(Self.zshQuoted("--\($0.0):\($0.1)"))" }
        lines += [
            "    )",
            "    if ((CURRENT == 2)); then",
            "        _describe -t commands 'nowflow command' commands",
            "        return",
            "    fi",
            "    local command=$words[2]",
            "    shift words",
            "    ((CURRENT--))",
            "    case $command in",
        ]
        for word in firstWords {
            let under = commands(under: word)
            lines.append("    \(word))")
            if let command = under.first, command.nameWords.count == 1 {
                lines += Self.zshArguments(command, indent: "        ")
            } else {
                // A command of subcommands (`report merge`): the subcommand, then its options.
                lines += [
                    "        if ((CURRENT == 2)); then",
                    "            compadd -- \(under.map { $0.nameWords.dropFirst().joined(separator: " ") }.joined(separator: " "))",
                    "            return",
                    "        fi",
                    "        local subcommand=$words[2]",
                    "        shift words",
                    "        ((CURRENT--))",
                    "        case $subcommand in",
                ]
                for command in under {
                    lines.append("        \(command.nameWords.dropFirst().joined(separator: " ")))")
                    lines += Self.zshArguments(command, indent: "            ")
                    lines.append("            ;;")
                }
                lines.append("        esac")
            }
            lines.append("        ;;")
        }
        lines += [
            "    esac",
            "}",
            "",
            "if [[ $funcstack[1] == _nowflow ]]; then",
            "    _nowflow \"$@\"",
            "else",
            "    compdef _nowflow nowflow",
            "fi",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    /// The `_arguments` call that completes `command`'s options and arguments, indented by `indent`.
    private static func zshArguments(_ command: CommandDeclaration, indent: String) -> [String] {
        var specs = command.options.map(zshSpec)
        specs.append(zshQuoted("--help[show the usage]"))
        if let arguments = command.arguments {
            let repeats = if case .oneOrMore = arguments.count { "*" } else { "" }
            let action = zshAction(Values(valueName: arguments.name))
            specs.append(zshQuoted(repeats + ":" + zshEscaped(arguments.name) + ":" + action))
        }
        return [indent + "_arguments \\"] + specs.dropLast().map { indent + "    \($0) \\" }
            + [indent + "    \(specs[specs.count - 1])"]
    }

    /// An `_arguments` spec: `--name[help]`, or `--name=[help]:VALUE:action` (the value in the same word after `=`
    /// or in the next), `*` first when it may repeat.
    private static func zshSpec(_ option: CommandDeclaration.Option) -> String {
        let help = "[" + zshEscaped(option.help) + "]"
        switch option.kind {
        case .flag:
            return zshQuoted("--\(option.name)" + help)
        case .value(let name), .repeating(let name):
            let repeats = if case .repeating = option.kind { "*" } else { "" }
            return zshQuoted(repeats + "--\(option.name)=" + help + ":" + zshEscaped(name) + ":" + zshAction(Values(valueName: name)))
        }
    }

    /// The action of an `_arguments` spec completing `values`.
    private static func zshAction(_ values: Values) -> String {
        switch values {
        case .nothing: " "
        case .words(let words): "(\(words.joined(separator: " ")))"
        case .files(nil): "_files"
        case .files(let fileExtension?): "_files -g \"*.\(fileExtension)\""
        }
    }

    /// `text` with the characters `_arguments` and `_describe` give a meaning (`:`, brackets, backslash) escaped.
    private static func zshEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "\\:[]".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// `text` in zsh's single quotes.
    private static func zshQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    // MARK: fish

    private var fish: String {
        var lines = [
            "# fish completion for nowflow, made by 'nowflow completion fish'. Save it as",
            "# ~/.config/fish/completions/nowflow.fish, or load it with: nowflow completion fish | source",
            "complete -c nowflow -f",
        ]
        let atTop = "-n __fish_use_subcommand"
        lines += firstWords.map { word in
            let under = commands(under: word)
            let summary = under.count == 1 && under[0].nameWords.count == 1 ? Self.summary(under[0]) : "\(word) commands"
            return "complete -c nowflow \(atTop) -a \(word) -d \(Self.fishQuoted(summary))"
        }
        lines += Self.topLevelOptions.map { "complete -c nowflow \(atTop) -l \($0.0) -d \(Self.fishQuoted($0.1))" }
        for command in commands {
            let words = command.nameWords
            var seen = "__fish_seen_subcommand_from \(words[0])"
            if words.count > 1 {
                // A subcommand (`report merge`): offered after its command, then its options after it.
                let subcommand = words.dropFirst().joined(separator: " ")
                lines.append(
                    "complete -c nowflow -n \(Self.fishQuoted(seen + "; and not __fish_seen_subcommand_from \(subcommand)")) -a \(subcommand) -d \(Self.fishQuoted(Self.summary(command)))"
                )
                seen += "; and __fish_seen_subcommand_from \(subcommand)"
            }
            let after = "-n \(Self.fishQuoted(seen))"
            for option in command.options + [.flag("help", "show the usage")] {
                let values = Self.values(of: option).map { " " + Self.fishValues($0, required: true) } ?? ""
                lines.append("complete -c nowflow \(after) -l \(option.name)\(values) -d \(Self.fishQuoted(option.help))")
            }
            if let arguments = command.arguments {
                lines.append("complete -c nowflow \(after) \(Self.fishValues(Values(valueName: arguments.name), required: false))")
            }
        }
        lines.append("")
        return lines.joined(separator: "\n")
    }

    /// The `complete` switches that offer `values`: after an option (`required`, `-r`) or as an argument.
    private static func fishValues(_ values: Values, required: Bool) -> String {
        switch values {
        case .nothing: "-x"
        case .words(let words): "-x -a \(fishQuoted(words.joined(separator: " ")))"
        case .files(nil): required ? "-r -F" : "-F"
        // __fish_complete_suffix lists the files with the extension first, then directories and the others; -k
        // keeps that order.
        case .files(let fileExtension?): "-k -x -a \(fishQuoted("(__fish_complete_suffix .\(fileExtension))"))"
        }
    }

    /// `text` in fish's single quotes (in which a backslash escapes a quote or a backslash).
    private static func fishQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
