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
/// Exit status: 0 passed, 1 usage error, 2 invalid job file, 3 a step failed, 4 an assertion failed, 5 (with
/// `--detailed-exitcode`) passed and changed a record, 130, 143 or 129 interrupted by SIGINT, SIGTERM or SIGHUP, 141
/// stdout or stderr closed (SIGPIPE) while the job ran (after `finally` ran and the reports were written).
enum RunCommand {
    /// The command's arguments and options, for the parser, the synopsis and `--help`.
    static let declaration = CommandDeclaration(
        name: "run",
        abstract: """
            Runs a job file's steps in order, then its finally steps (also after a failure or Ctrl-C), with a line per
            step on stderr and, on stdout, each step's records or values, the outcome and the records touched. Several
            job files run one after the other. Exit status: 0 passed, 1 usage error, 2 invalid job file or unknown
            name, 3 a step failed, 4 an assertion failed, 5 with --detailed-exitcode a passed run that changed a
            record, 130/143/129 SIGINT/SIGTERM/SIGHUP, 141 stdout or stderr closed (the first job that did not pass).
            """,
        arguments: .init(name: "JOB.yaml", noun: "job file", count: .oneOrMore),
        options: [
            .value("instance", "local|URL|PROFILE", "the instance (default: the job's instance:, else local)"),
            .repeating("var", "name=value", "set a declared variable, of its declared type (repeatable)"),
            .repeating("vars-file", "FILE", "set declared variables from a YAML or JSON file (repeatable; later ones win)"),
            .flag("dry-run", "run the reads; list the writes and send none"),
            .repeating("report", "junit:PATH|json:PATH", "write a report (repeatable; the directory must exist)"),
            .value("output", "text|json", "the outcome on stdout as text (default) or JSON"),
            .value("tz", "ZONE", "the time zone dates are shown in (UTC, local or an IANA name)"),
            .flag("verbose", "list each request sent; print every step result and variable"),
            .flag("quiet", "print a line per step only, not the records and values each one gave"),
            .repeating("tags", "TAG,...", "run only the steps with one of these tags (or always)"),
            .repeating("skip-tags", "TAG,...", "skip the steps with one of these tags"),
            .flag("fail-fast", "with several job files, run none after the first that does not pass"),
            .flag("offline", "do not check table and field names against the instance"),
            .flag("refresh-schema", "read the instance's dictionary afresh, not from ~/.nowflow/schema/"),
            .flag("detailed-exitcode", "exit 5 when the run (or dry run) changed (would change) a record"),
            .value("rate", "N/s|N/h", "send at most N requests a second (or minute, /min, or hour), whatever the job's rate:"),
        ])

    /// The parsed command line.
    private struct Settings {
        var jobPaths: [String]
        var instance: String?
        var variables: [String: String] = [:]
        var varsFiles: [String] = []
        var dryRun: Bool
        var reports: [(format: String, path: String)] = []
        var json: Bool
        var timeZone: String?
        var verbose: Bool
        var quiet = false
        var offline = false
        var refreshSchema = false
        /// `--rate`.
        var rate: RequestRate?
        var tags: Set<String> = []
        var skipTags: Set<String> = []
        var failFast = false
        var detailedExitCode = false
    }

    static func main(_ arguments: [String]) -> Int32 {
        let settings: Settings
        do {
            settings = try parse(arguments)
        } catch {
            return declaration.fail(error)
        }
        var jobs: [Job] = []
        var invalid = false
        for path in settings.jobPaths {
            do {
                jobs.append(try JobFile.load(path: path))
            } catch {
                for diagnostic in error.diagnostics { printError(diagnostic.description) }
                invalid = true
            }
        }
        if invalid { return 2 }
        var fileValues: [String: (value: JSONValue, source: String)] = [:]
        for path in settings.varsFiles {
            do {
                for (name, value) in try VarsFile.load(path: path) { fileValues[name] = (value, path) }
            } catch {
                for diagnostic in error.diagnostics { printError(diagnostic.description) }
                return 2
            }
        }
        do {
            try checkVariables(settings, fileValues, of: jobs)
            try checkTags(settings, of: jobs)
        } catch {
            return declaration.fail(error)
        }

        let environment = ProcessInfo.processInfo.environment
        let terminal = isatty(STDERR_FILENO) == 1
        let color = terminal && (environment["NO_COLOR"] ?? "").isEmpty
        let progress = ProgressPrinter(color: color, bar: color, verbose: settings.verbose)
        let interruption = RunInterruption()
        SignalForwarder.forward(to: interruption)
        var results: [RunResult] = []
        var status: Int32 = 0
        // The what-changed page of each served instance, from the start of the first job run on it.
        var changeLinks: [String] = []
        for (index, job) in jobs.enumerated() {
            if jobs.count > 1 { printError("nowflow run: \(job.file) (\(job.name))") }
            let outcome = run(job, settings, fileValues, environment: environment, progress: progress, interruption: interruption)
            guard let result = outcome.result else { return outcome.status }
            results.append(result)
            if let link = outcome.changes,
                !changeLinks.contains(where: { $0.prefix { $0 != "?" } == link.prefix { $0 != "?" } })
            {
                changeLinks.append(link)
            }
            // The first job that did not pass gives the status; a change (5) only when none failed.
            if status == 0 || (status == RunResult.changedExitCode && outcome.status != 0) { status = outcome.status }
            if settings.json && jobs.count == 1 {
                printResult(result.jsonText())
            } else if !settings.json {
                printResult(result.summaryText())
                if settings.verbose { printResult(result.resultsText(dates: job.dates(timeZone: settings.timeZone))) }
            }
            let stop = interruption.firstSignal != nil || (settings.failFast && result.status != .passed)
            if stop, index + 1 < jobs.count {
                let rest = jobs[(index + 1)...].map(\.file).joined(separator: ", ")
                let reason = interruption.firstSignal.map { "interrupted by \($0.rawValue)" } ?? "--fail-fast"
                printResult("not run (\(reason)): \(rest)")
                break
            }
        }
        if settings.json && jobs.count > 1 { printResult(RunResult.jsonText(of: results)) }
        if terminal { for link in changeLinks { printError("nowflow run: what changed: \(link)") } }
        for report in settings.reports {
            let text =
                report.format == "junit"
                ? RunResult.junitXML(of: results)
                : (results.count == 1 ? results[0].jsonText() : RunResult.jsonText(of: results)) + "\n"
            do {
                try text.write(to: URL(fileURLWithPath: report.path), atomically: true, encoding: .utf8)
            } catch {
                printError(
                    "nowflow run: cannot write the \(report.format) report to \(report.path): \(error.localizedDescription)"
                )
                return status == 0 ? 3 : status
            }
        }
        return status
    }

    /// Runs one job on its instance: the name check, then the steps. The result is nil when the job did not start
    /// (the instance cannot be opened, or a name is unknown), with the exit status to end with; `changes` is the
    /// link to what the run changed on a served local instance (``changesLink(_:since:)``).
    private static func run(
        _ job: Job, _ settings: Settings, _ fileValues: [String: (value: JSONValue, source: String)],
        environment: [String: String], progress: ProgressPrinter, interruption: RunInterruption
    ) -> (result: RunResult?, status: Int32, changes: String?) {
        let target: InstanceTarget
        do {
            target = try InstanceTarget.resolve(
                settings.instance ?? job.instance ?? EnvironmentCredentials.instance(in: environment) ?? "local",
                environment: environment, verbose: settings.verbose)
        } catch {
            printError("nowflow run: \(error)")
            return (nil, error.isUsage ? 1 : 3, nil)
        }
        defer { target.close() }
        let declared = Set(job.variableNames)
        var settingUp = RunOptions(
            instanceURL: target.url, transport: target.runTransport, authentication: target.authentication,
            secrets: target.secrets, variables: settings.variables.filter { declared.contains($0.key) },
            environment: environment, dryRun: settings.dryRun, interruption: interruption, onEvent: progress.handle)
        settingUp.variableValues = fileValues.filter { declared.contains($0.key) }.mapValues(\.value)
        settingUp.tags = settings.tags
        settingUp.skipTags = settings.skipTags
        settingUp.schemaCache = target.schemaCache
        settingUp.refreshSchema = settings.refreshSchema
        // --rate wins; else the slower of the job's rate: and the profile's.
        let rate = settings.rate ?? [job.rate, target.rate].compactMap { $0 }.max { $0.spacing < $1.spacing }
        let pacer = RequestPacer(rate: rate)
        settingUp.pacer = pacer
        progress.follow(pacer)
        if !settings.json, !settings.quiet {
            settingUp.display = ResultDisplay(width: TerminalSize.columns(), timeZone: settings.timeZone)
        }
        let options = settingUp
        if settings.offline {
            for warning in job.warnings { printError(warning.description) }
        } else {
            let check = waitFor { await JobRunner(job: job, options: options).checkNames() }
            // The file's own warnings, with the name check's in file order.
            for problem in Diagnostic.inFileOrder(job.warnings + check.diagnostics, of: job.file) {
                printError(problem.description)
            }
            if check.refusesRun, let reason = check.notChecked {
                let problem = Diagnostic(
                    file: job.file, line: 0, column: 0,
                    message: "names not checked: \(reason); use --offline to skip the check")
                printError(problem.description)
                return (nil, 2, nil)
            }
            guard check.diagnostics.allSatisfy(\.isWarning) else { return (nil, 2, nil) }
        }
        let started = Date()
        let result = waitFor { await JobRunner(job: job, options: options).run() }
        if result.steps.contains(where: { $0.status == .failed && $0.message.hasPrefix("bad response 401") }) {
            let given = target.hasCredentials || job.hasAuthentication
            printError("nowflow run: \(EnvironmentCredentials.unauthorizedHint(credentialsGiven: given))")
        }
        return (result, result.exitCode(detailed: settings.detailedExitCode), changesLink(target, since: started))
    }

    /// Checks each `--var` and `--vars-file` value against the variable's type in every job that declares it; a
    /// name that no job declares is refused (with one job, as that job's error says it).
    private static func checkVariables(
        _ settings: Settings, _ fileValues: [String: (value: JSONValue, source: String)], of jobs: [Job]
    ) throws(UsageError) {
        for (name, given) in settings.variables.sorted(by: { $0.key < $1.key }) {
            let declaring = jobs.count == 1 ? jobs : jobs.filter { $0.variableNames.contains(name) }
            guard !declaring.isEmpty else { throw UsageError("--var \(name): no job declares a variable '\(name)'") }
            for job in declaring {
                do {
                    _ = try job.value(ofVariable: name, argument: given)
                } catch {
                    throw UsageError(error.description)
                }
            }
        }
        for (name, given) in fileValues.sorted(by: { $0.key < $1.key }) {
            let declaring = jobs.count == 1 ? jobs : jobs.filter { $0.variableNames.contains(name) }
            guard !declaring.isEmpty else {
                throw UsageError("--vars-file \(given.source): no job declares a variable '\(name)'")
            }
            for job in declaring {
                do {
                    _ = try job.value(ofVariable: name, given: given.value, from: "--vars-file \(given.source)")
                } catch {
                    throw UsageError(error.description)
                }
            }
        }
    }

    /// Refuses a `--tags` or `--skip-tags` name that no step of the jobs has (`always` aside).
    private static func checkTags(_ settings: Settings, of jobs: [Job]) throws(UsageError) {
        let known = jobs.reduce(into: Set<String>()) { $0.formUnion($1.tags) }
        for (option, tags) in [("--tags", settings.tags), ("--skip-tags", settings.skipTags)] {
            for tag in tags.sorted() where tag != "always" && !known.contains(tag) {
                let list = known.isEmpty ? "the steps have no tags" : "the tags are \(known.sorted().joined(separator: ", "))"
                throw UsageError("\(option) \(tag): no step has the tag '\(tag)' (\(list))")
            }
        }
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
        let parsed = try declaration.parse(arguments)
        var settings = Settings(
            jobPaths: parsed.positional, instance: parsed.value("instance"), dryRun: parsed.flag("dry-run"), json: false,
            timeZone: parsed.value("tz"), verbose: parsed.flag("verbose"), offline: parsed.flag("offline"),
            refreshSchema: parsed.flag("refresh-schema"), detailedExitCode: parsed.flag("detailed-exitcode"))
        settings.quiet = parsed.flag("quiet")
        settings.failFast = parsed.flag("fail-fast")
        settings.varsFiles = parsed.values("vars-file")
        if let text = parsed.value("rate") {
            do {
                settings.rate = try RequestRate(parsing: text)
            } catch {
                throw UsageError("--rate \(error.message)")
            }
        }
        for (option, values) in [("tags", parsed.values("tags")), ("skip-tags", parsed.values("skip-tags"))] {
            let tags = Set(values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) } })
            if tags.contains("") { throw UsageError("--\(option) expects tag names separated by commas") }
            if option == "tags" { settings.tags = tags } else { settings.skipTags = tags }
        }
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

