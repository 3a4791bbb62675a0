import NowFlow

/// `nowflow validate JOB.yaml...`: checks job files without running them and prints every problem as
/// `file:line:column: error: message`.
///
/// Exit status: 0 when every file is valid, 2 when a file has a problem, 1 for a usage error.
enum ValidateCommand {
    static let usage = "usage: nowflow validate JOB.yaml..."

    /// The options, for the parser and `--help`.
    static let help = CommandHelp(
        usage: usage,
        summary: """
            Checks job files without running them and prints every problem as file:line:column: error: message.
            Exit status: 0 every file valid, 1 usage error, 2 a file has a problem.
            """,
        options: [])

    static func main(_ arguments: [String]) -> Int32 {
        let parsed: CommandArguments
        do {
            parsed = try help.parse(arguments)
        } catch {
            printError("nowflow validate: \(error)\n\(usage)")
            return 1
        }
        guard !parsed.positional.isEmpty else {
            printError("nowflow validate: no job file given\n\(usage)")
            return 1
        }
        var status: Int32 = 0
        for path in parsed.positional {
            do {
                let job = try JobFile.load(path: path)
                print("\(path): ok (\(job.name), \(job.stepCount) step\(job.stepCount == 1 ? "" : "s"))")
            } catch {
                for diagnostic in error.diagnostics { printError(diagnostic.description) }
                status = 2
            }
        }
        return status
    }
}
