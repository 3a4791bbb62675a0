import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LocalInstance
import NowData
import NowFlow

/// `nowflow run JOB.yaml`: runs a job on the embedded instance, a URL or a profile, with a line per step on
/// stderr and the results on stdout.
///
/// Exit status: 0 passed, 1 usage error, 2 invalid job file, 3 a step failed, 4 an assertion failed, 130 or 143
/// interrupted by SIGINT or SIGTERM (after `finally` ran and the reports were written).
enum RunCommand {
    static let usage = """
        usage: nowflow run JOB.yaml [--instance local|URL|PROFILE] [--var name=value]... [--dry-run]
                                    [--report junit:PATH] [--report json:PATH] [--output text|json] [--tz ZONE] [--verbose]
                                    [--offline] [--refresh-schema]
        """

    /// The options, for the parser and `--help`.
    static let help = CommandHelp(
        usage: usage,
        summary: """
            Runs a job file's steps in order, then its finally steps (also after a failure or Ctrl-C), with a line per
            step on stderr and the outcome and the records touched on stdout. Exit status: 0 passed, 1 usage error,
            2 invalid job file or unknown name, 3 a step failed, 4 an assertion failed, 130/143 SIGINT/SIGTERM.
            """,
        options: [
            .init(name: "instance", value: "local|URL|PROFILE", text: "the instance (default: the job's instance:, else local)"),
            .init(name: "var", value: "name=value", text: "set a declared variable, of its declared type (repeatable)"),
            .init(name: "dry-run", value: nil, text: "run the reads; list the writes and send none"),
            .init(name: "report", value: "junit:PATH|json:PATH", text: "write a report (repeatable; the directory must exist)"),
            .init(name: "output", value: "text|json", text: "the outcome on stdout as text (default) or JSON"),
            .init(name: "tz", value: "ZONE", text: "the time zone dates are shown in (UTC, local or an IANA name)"),
            .init(name: "verbose", value: nil, text: "also print every step result and variable"),
            .init(name: "offline", value: nil, text: "do not check table and field names against the instance"),
            .init(name: "refresh-schema", value: nil, text: "read the instance's dictionary afresh, not from ~/.nowflow/schema/"),
        ])

    /// The parsed command line.
    private struct Settings {
        var jobPath: String
        var instance: String?
        var variables: [String: String] = [:]
        var dryRun: Bool
        var reports: [(format: String, path: String)] = []
        var json: Bool
        var timeZone: String?
        var verbose: Bool
        var offline = false
        var refreshSchema = false
    }

    static func main(_ arguments: [String]) -> Int32 {
        let settings: Settings
        do {
            settings = try parse(arguments)
        } catch {
            printError("nowflow run: \(error)\n\(usage)")
            return 1
        }
        let job: Job
        do {
            job = try JobFile.load(path: settings.jobPath)
        } catch {
            for diagnostic in error.diagnostics { printError(diagnostic.description) }
            return 2
        }
        for (name, given) in settings.variables.sorted(by: { $0.key < $1.key }) {
            do {
                _ = try job.value(ofVariable: name, argument: given)
            } catch {
                printError("nowflow run: \(error)\n\(usage)")
                return 1
            }
        }
        let environment = ProcessInfo.processInfo.environment
        let target: InstanceTarget
        do {
            target = try InstanceTarget.resolve(
                settings.instance ?? job.instance ?? EnvironmentCredentials.instance(in: environment) ?? "local",
                environment: environment, verbose: settings.verbose)
        } catch {
            printError("nowflow run: \(error)")
            return error.isUsage ? 1 : 3
        }
        defer { target.close() }

        let terminal = isatty(STDERR_FILENO) == 1
        let progress = ProgressPrinter(terminal: terminal, color: terminal && (environment["NO_COLOR"] ?? "").isEmpty)
        let interruption = RunInterruption()
        SignalForwarder.forward(to: interruption)
        var settingUp = RunOptions(
            instanceURL: target.url, transport: target.transport, authentication: target.authentication,
            secrets: target.secrets, variables: settings.variables, environment: environment,
            dryRun: settings.dryRun, interruption: interruption, onEvent: progress.handle)
        settingUp.schemaCache = target.schemaCache
        settingUp.refreshSchema = settings.refreshSchema
        let options = settingUp
        if !settings.offline {
            let problems = waitFor { await JobRunner(job: job, options: options).checkNames() }
            guard problems.isEmpty else {
                for problem in problems { printError(problem.description) }
                return 2
            }
        }
        let started = Date()
        let result = waitFor { await JobRunner(job: job, options: options).run() }

        if case .none = target.authentication, !job.hasAuthentication,
            result.steps.contains(where: { $0.status == .failed && $0.message.hasPrefix("bad response 401") })
        {
            printError("nowflow run: \(EnvironmentCredentials.missingCredentialsHint)")
        }
        if settings.json {
            print(result.jsonText())
        } else {
            print(result.summaryText())
            if settings.verbose {
                print(result.resultsText(dates: job.dates(timeZone: settings.timeZone)))
            }
        }
        for report in settings.reports {
            let text = report.format == "junit" ? result.junitXML() : result.jsonText() + "\n"
            do {
                try text.write(to: URL(fileURLWithPath: report.path), atomically: true, encoding: .utf8)
            } catch {
                printError(
                    "nowflow run: cannot write the \(report.format) report to \(report.path): \(error.localizedDescription)"
                )
                return result.status == .passed ? 3 : result.status.exitCode
            }
        }
        if terminal, let link = changesLink(target, since: started) { printError("nowflow run: what changed: \(link)") }
        return result.status.exitCode
    }

    /// The web view of what a run changed on a served local instance (`nowflow serve`, reached over `http://`):
    /// `http://127.0.0.1:8080/changes.do?since=2026-12-02%2009:00:00`; nil for the embedded instance and for
    /// `https://` instances.
    static func changesLink(_ target: InstanceTarget, since start: Date) -> String? {
        guard target.transport == nil, target.url.scheme?.lowercased() == "http" else { return nil }
        let url = target.url.absoluteString
        let base = url.hasSuffix("/") ? String(url.dropLast()) : url
        let since = Coder.default.text(for: start).replacingOccurrences(of: " ", with: "%20")
        return base + "/changes.do?since=" + since
    }

    private static func parse(_ arguments: [String]) throws(UsageError) -> Settings {
        let parsed = try help.parse(arguments)
        guard let jobPath = parsed.positional.first else { throw UsageError("no job file given") }
        if parsed.positional.count > 1 { throw UsageError("unexpected argument '\(parsed.positional[1])'") }
        var settings = Settings(
            jobPath: jobPath, instance: parsed.value("instance"), dryRun: parsed.flag("dry-run"), json: false,
            timeZone: parsed.value("tz"), verbose: parsed.flag("verbose"), offline: parsed.flag("offline"),
            refreshSchema: parsed.flag("refresh-schema"))
        for assignment in parsed.values("var") {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw UsageError("--var expects name=value, got '\(assignment)'")
            }
            settings.variables[String(assignment[..<equals])] = String(assignment[assignment.index(after: equals)...])
        }
        for report in parsed.values("report") {
            guard let colon = report.firstIndex(of: ":"), ["junit", "json"].contains(report[..<colon]),
                report.index(after: colon) != report.endIndex
            else {
                throw UsageError("--report expects junit:PATH or json:PATH, got '\(report)'")
            }
            let path = String(report[report.index(after: colon)...])
            try ReportPath.check(path, option: report)
            settings.reports.append((String(report[..<colon]), path))
        }
        switch parsed.value("output") ?? "text" {
        case "text": settings.json = false
        case "json": settings.json = true
        case let other: throw UsageError("--output expects text or json, got '\(other)'")
        }
        if let zone = settings.timeZone, !JobDates.isTimeZone(zone) {
            throw UsageError("--tz \(JobDates.notATimeZone(zone))")
        }
        return settings
    }
}

