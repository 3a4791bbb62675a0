import Foundation
import NowFlow

/// `nowflow report merge SHARD.json...`: joins the JSON reports of a job's shards (`nowflow run --shard K/N`) into
/// one report, in JSON and JUnit as a run writes them, and exits with the status of the first shard, in shard
/// order, that did not pass (0 when all did).
///
/// ```
/// nowflow report merge --report json:all.json --report junit:all.xml shard-*.json
/// ```
enum ReportMergeCommand {
    /// The command's arguments and options, for the parser, the synopsis and `--help`.
    static let declaration = CommandDeclaration(
        name: "report merge",
        abstract: """
            Joins the JSON reports of a sharded run into one report of the same schema, every shard once (each runner
            ran nowflow run --shard K/N --report json:PATH): written by --report, else printed on stdout. Exit status:
            0 every shard passed, else that of the first shard in shard order that did not (2 invalid, 3 a step
            failed, 4 an assertion failed, 130/143/129/141 a signal), 1 reports that cannot be merged.
            """,
        arguments: .init(name: "SHARD.json", noun: "report", count: .oneOrMore),
        options: [
            .repeating("report", "junit:PATH|json:PATH", "write the merged report (repeatable; the directory must exist)")
        ])

    static func main(_ arguments: [String]) -> Int32 {
        let parsed: CommandArguments
        let destinations: [(format: String, path: String)]
        do {
            parsed = try declaration.parse(arguments)
            destinations = try parsed.values("report").map(ReportPath.destination)
        } catch {
            return declaration.fail(error)
        }
        var reports: [(file: String, text: String)] = []
        for path in parsed.positional {
            do {
                reports.append((path, try String(contentsOfFile: path, encoding: .utf8)))
            } catch {
                printError("nowflow report merge: cannot read \(path): \(error.localizedDescription)")
                return 1
            }
        }
        let merged: RunReport
        do {
            merged = try RunReport.merging(reports)
        } catch {
            printError("nowflow report merge: \(error)")
            return 1
        }
        if destinations.isEmpty { printResult(merged.jsonText()) }
        for destination in destinations {
            let text = destination.format == "junit" ? merged.junitXML() : merged.jsonText() + "\n"
            do {
                try text.write(to: URL(fileURLWithPath: destination.path), atomically: true, encoding: .utf8)
            } catch {
                printError(
                    "nowflow report merge: cannot write the \(destination.format) report to \(destination.path): \(error.localizedDescription)")
                return 1
            }
        }
        return merged.status.exitCode
    }
}
