/// A subcommand declared once: what it does, its positional arguments and its options. Its synopsis, its `--help`,
/// its line in the top-level usage and its parser are all made from this (as swift-argument-parser makes them from
/// a command's configuration and properties), so no usage text is written by hand.
///
/// ```
/// nowflow run --help
/// nowflow run job.yaml --dry-rn   # nowflow run: unknown option --dry-rn; did you mean --dry-run?
///                                 # see 'nowflow run --help'
/// ```
struct CommandDeclaration: Sendable {
    /// One option, `--name`: what it takes and what it does.
    struct Option: Sendable {
        /// What an option takes after its name.
        enum Kind: Sendable {
            /// Nothing: `--name`.
            case flag
            /// One value, `--name VALUE` or `--name=VALUE` (given again, the last one counts).
            case value(String)
            /// A value each time it is given, every one counting: `[--name VALUE]...`.
            case repeating(String)
        }

        /// The name without its `--`.
        var name: String
        var kind: Kind
        /// What it does, for `--help`.
        var help: String

        /// A flag, `--name`.
        static func flag(_ name: String, _ help: String) -> Option { Option(name: name, kind: .flag, help: help) }

        /// An option taking one value, shown as `valueName`.
        static func value(_ name: String, _ valueName: String, _ help: String) -> Option {
            Option(name: name, kind: .value(valueName), help: help)
        }

        /// An option that may be given several times, each with a value shown as `valueName`.
        static func repeating(_ name: String, _ valueName: String, _ help: String) -> Option {
            Option(name: name, kind: .repeating(valueName), help: help)
        }

        /// `--name VALUE` (or `--name` for a flag), as `--help` lists it.
        var label: String {
            switch kind {
            case .flag: "--\(name)"
            case .value(let value), .repeating(let value): "--\(name) \(value)"
            }
        }

        /// `[--name VALUE]`, `[--name VALUE]...` or `[--name]`, as the synopsis shows it.
        var synopsis: String {
            if case .repeating = kind { return "[\(label)]..." }
            return "[\(label)]"
        }
    }

    /// The words that are not options, all of one kind (`JOB.yaml`).
    struct Arguments: Sendable {
        /// How many there may be.
        enum Count: Sendable {
            /// One or more: `JOB.yaml...`.
            case oneOrMore
            /// None or one: `[JOB.yaml]`.
            case atMostOne
            /// Exactly one: `bash|zsh|fish`.
            case one
        }

        /// The name the synopsis gives one (`JOB.yaml`).
        var name: String
        /// What one is, for the error when none is given (`job file`: "no job file given").
        var noun: String
        var count: Count

        /// `JOB.yaml...` or `[JOB.yaml]`, as the synopsis shows them.
        var synopsis: String {
            switch count {
            case .oneOrMore: "\(name)..."
            case .atMostOne: "[\(name)]"
            case .one: name
            }
        }
    }

    /// The subcommand's name (`run`), or its words (`report merge`).
    var name: String
    /// What it does, a paragraph for `--help`.
    var abstract: String
    /// Its positional arguments; nil: it takes none.
    var arguments: Arguments?
    var options: [Option]

    /// The width the synopsis is wrapped to.
    static let width = 120

    /// `usage: nowflow run JOB.yaml... [--instance local|URL|PROFILE] ...`, wrapped to ``width`` with the later
    /// lines starting under the first word after the command's name.
    var synopsis: String {
        let head = "usage: nowflow \(name)"
        let indent = String(repeating: " ", count: head.count + 1)
        var lines: [String] = []
        var line = head
        for item in (arguments.map { [$0.synopsis] } ?? []) + options.map(\.synopsis) {
            if line.count + 1 + item.count > Self.width, line != head {
                lines.append(line)
                line = indent + item
            } else {
                line += " " + item
            }
        }
        return (lines + [line]).joined(separator: "\n")
    }

    /// `--help`: the synopsis, the abstract and one line per option.
    var help: String {
        let width = (options.map(\.label.count).max() ?? 0) + 2
        let lines = options.map { "  " + $0.label.padding(toLength: width, withPad: " ", startingAt: 0) + $0.help }
        return ([synopsis, "", abstract] + (lines.isEmpty ? [] : ["", "options:"] + lines)).joined(separator: "\n")
    }

    /// The words after the command's name, checked against its arguments and options.
    func parse(_ words: [String]) throws(UsageError) -> CommandArguments {
        let parsed = try CommandArguments(words, options: options)
        switch (arguments?.count, parsed.positional.count) {
        case (nil, 1...):
            throw UsageError("unexpected argument '\(parsed.positional[0])'")
        case (.atMostOne, 2...):
            throw UsageError("unexpected argument '\(parsed.positional[1])'")
        case (.oneOrMore, 0), (.one, 0):
            throw UsageError("no \(arguments?.noun ?? "argument") given")
        case (.one, 2...):
            throw UsageError("unexpected argument '\(parsed.positional[1])'")
        default:
            return parsed
        }
    }

    /// Prints a usage error on one line and where to read the usage; gives the exit status, 1.
    ///
    /// ```
    /// nowflow run: unknown option --dry-rn; did you mean --dry-run?
    /// see 'nowflow run --help'
    /// ```
    func fail(_ error: UsageError) -> Int32 {
        printError("nowflow \(name): \(error)\nsee 'nowflow \(name) --help'")
        return 1
    }

    /// The commands `nowflow` has, in the order the top-level usage lists them.
    static var all: [CommandDeclaration] {
        [
            RunCommand.declaration, ValidateCommand.declaration, ReplCommand.declaration, ServeCommand.declaration,
            ReportMergeCommand.declaration, CompletionCommand.declaration,
        ]
    }

    /// The words of ``name``: `["run"]`, `["report", "merge"]`.
    var nameWords: [String] { name.split(separator: " ").map(String.init) }

    /// The command that `arguments` (the words after `nowflow`) start with, if any.
    static func invoked(by arguments: [String]) -> CommandDeclaration? {
        all.first { arguments.starts(with: $0.nameWords) }
    }

    /// `nowflow --help`: every command's synopsis, one after the other.
    static var usage: String {
        "usage: " + all.map { $0.synopsis.dropFirst("usage: ".count) }.joined(separator: "\n       ")
    }

    /// nowflow's version, as the reports give it.
    static let versionNumber = "0.1.0"

    /// `nowflow --version`.
    static let version = "nowflow \(versionNumber)"
}
