import NowFlow

/// `nowflow completion bash|zsh|fish`: prints the script that makes a shell complete `nowflow`'s command lines,
/// made from the declared commands (``CommandDeclaration/all``), so that a new option completes without a word
/// written for it.
///
/// ```
/// source <(nowflow completion bash)
/// nowflow run --dr<Tab>     # nowflow run --dry-run
/// ```
enum CompletionCommand {
    /// The command's argument, for the parser, the synopsis and `--help`.
    static let declaration = CommandDeclaration(
        name: "completion",
        abstract: """
            Prints a script that makes the shell complete nowflow's commands, options, option values and job files.
            bash: source <(nowflow completion bash) in ~/.bashrc, or save the script as
            ~/.local/share/bash-completion/completions/nowflow; zsh: save it as _nowflow in a directory of $fpath
            (before compinit runs); fish: save it as ~/.config/fish/completions/nowflow.fish.
            """,
        arguments: .init(name: "bash|zsh|fish", noun: "shell", count: .one),
        options: [])

    static func main(_ arguments: [String]) -> Int32 {
        let name: String
        do {
            name = try declaration.parse(arguments).positional[0]
        } catch {
            return declaration.fail(error)
        }
        guard let shell = CompletionScript.Shell(rawValue: name) else {
            let shells = CompletionScript.Shell.allCases.map(\.rawValue)
            let hint = name.closest(among: shells).map { "; did you mean '\($0)'?" } ?? " (bash, zsh or fish)"
            return declaration.fail(UsageError("unknown shell '\(name)'\(hint)"))
        }
        print(CompletionScript(shell: shell, commands: CommandDeclaration.all).text, terminator: "")
        return 0
    }
}
