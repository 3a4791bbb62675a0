#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Swift 6 block-buffers a piped stdout; progress and results must appear as they happen.
setvbuf(stdout, nil, _IOLBF, 0)

/// Every command's usage line, from the commands' own (serve's in short); made only when printed (its generic
/// types cost the runtime a lookup at every start otherwise).
var usage: String {
    "usage: "
        + [
            RunCommand.usage, ValidateCommand.usage, ReplCommand.usage,
            "usage: nowflow serve [--host 127.0.0.1] [--port 8080] [--db PATH] [--schema FILE] [--user admin --password ...]",
        ].map { $0.dropFirst("usage: ".count) }.joined(separator: "\n       ")
}

let arguments = Array(CommandLine.arguments.dropFirst())
if let command = arguments.first, let help = CommandHelp.named(command),
    arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" })
{
    print(help.text)
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
case "--version", "version":
    print(CommandHelp.version)
    status = 0
case "-h", "--help", "help":
    print(usage)
    status = 0
case nil:
    printError("nowflow: no command given\n\(usage)")
    status = 1
case let command?:
    printError("nowflow: unknown command '\(command)'\n\(usage)")
    status = 1
}
exit(status)
