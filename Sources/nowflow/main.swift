@preconcurrency import Glibc

// Swift 6 block-buffers a piped stdout; progress and results must appear as they happen.
setvbuf(stdout, nil, _IOLBF, 0)

let usage = """
    usage: nowflow run JOB.yaml [--instance local|URL|PROFILE] [--var name=value]... [--dry-run]
                                [--report junit:PATH] [--report json:PATH] [--output text|json] [--tz ZONE] [--verbose]
           nowflow validate JOB.yaml...
           nowflow repl [JOB.yaml] [--instance local|URL|PROFILE]
           nowflow serve [--host 127.0.0.1] [--port 8080] [--db PATH] [--schema FILE] [--user admin --password ...]
    """

let arguments = Array(CommandLine.arguments.dropFirst())
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
case "-h", "--help", "help":
    print(usage)
    status = 0
default:
    printError("nowflow: unknown command \(arguments.first.map { "'\($0)'" } ?? "(none)")\n\(usage)")
    status = 1
}
exit(status)
