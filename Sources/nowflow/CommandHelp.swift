/// A subcommand's options, declared once: the parser accepts exactly them and `--help` lists them.
///
/// ```
/// nowflow run --help
/// ```
struct CommandHelp {
    /// One option: `--name VALUE` (or a flag when `value` is nil) and what it does.
    struct Option {
        var name: String
        var value: String?
        var text: String
    }

    /// The command's usage lines (also part of the top-level usage).
    var usage: String
    /// What the command does, in a sentence or two.
    var summary: String
    var options: [Option]

    /// The words of the command, parsed against its declared options.
    func parse(_ words: [String]) throws(UsageError) -> CommandArguments {
        try CommandArguments(
            words, valued: Set(options.filter { $0.value != nil }.map(\.name)),
            flags: Set(options.filter { $0.value == nil }.map(\.name)))
    }

    /// `--help`: the usage, the summary and one line per option.
    var text: String {
        let names = options.map { "--\($0.name)" + ($0.value.map { " \($0)" } ?? "") }
        let width = (names.map(\.count).max() ?? 0) + 2
        let lines = zip(names, options).map { name, option in
            "  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + option.text
        }
        return ([usage, "", summary] + (lines.isEmpty ? [] : ["", "options:"] + lines)).joined(separator: "\n")
    }

    /// The help of the subcommand `name`, if it has one here (`serve` prints its own).
    static func named(_ name: String) -> CommandHelp? {
        switch name {
        case "run": RunCommand.help
        case "validate": ValidateCommand.help
        case "repl": repl
        default: nil
        }
    }

    /// `nowflow repl`'s options (its parser declares the same: `--instance`).
    static let repl = CommandHelp(
        usage: ReplCommand.usage,
        summary: "Runs steps one at a time, interactively, with the job file's variables and steps when one is given.",
        options: [Option(name: "instance", value: "local|URL|PROFILE", text: "the instance (default: the job's, else local)")])

    /// `nowflow --version`.
    static let version = "nowflow 0.1.0"
}
