#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Swift 6 block-buffers a piped stdout; progress and results must appear as they happen.
setvbuf(stdout, nil, _IOLBF, 0)

let arguments = Array(CommandLine.arguments.dropFirst())
if let declaration = CommandDeclaration.invoked(by: arguments),
    arguments.dropFirst(declaration.nameWords.count).contains(where: { $0 == "--help" || $0 == "-h" })
{
    print(declaration.help)
    exit(0)
}
let status: Int32
switch arguments.first {
case "run":
    status = RunCommand.main(Array(arguments.dropFirst()))
case "validate":
    status = ValidateCommand.main(Array(arguments.dropFirst()))
case "repl":
    status = ReplCommand.main(Array(arguments.dropFirst()))
case "serve":
    status = ServeCommand.main(Array(arguments.dropFirst()))
case "report":
    if arguments.count > 1, arguments[1] == "--help" || arguments[1] == "-h" {
        print(ReportMergeCommand.declaration.help)
        exit(0)
    }
    guard arguments.count > 1, arguments[1] == "merge" else {
        let given = arguments.count > 1 ? "unknown subcommand '\(arguments[1])'" : "no subcommand given"
        printError("nowflow report: \(given); the subcommand is merge\nsee 'nowflow report merge --help'")
        exit(1)
    }
    status = ReportMergeCommand.main(Array(arguments.dropFirst(2)))
case "completion":
    status = CompletionCommand.main(Array(arguments.dropFirst()))
case "--version", "version":
    print(CommandDeclaration.version)
    status = 0
case "-h", "--help", "help":
    print(CommandDeclaration.usage)
    status = 0
case nil:
    printError("nowflow: no command given\nsee 'nowflow --help'")
    status = 1
case let command?:
    let hint = command.closest(among: CommandDeclaration.all.map(\.nameWords[0])).map { "; did you mean '\($0)'?" } ?? ""
    printError("nowflow: unknown command '\(command)'\(hint)\nsee 'nowflow --help'")
    status = 1
}
exit(status)
