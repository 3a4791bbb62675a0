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
/// Exit status: 0 passed, 1 usage or configuration error (an unknown profile, an unset variable in one, an
/// unreadable `config.yaml` or vars file), 2 invalid job file (or one that cannot be read), 3 a step failed, 4 an
/// assertion failed, 5 (with `--detailed-exitcode`) passed and changed a record, 130, 143 or 129 interrupted by
/// SIGINT, SIGTERM or SIGHUP, 141 stdout or stderr closed (SIGPIPE) while the job ran (after `finally` ran and the
/// reports were written). docs/ci.md holds the table.
enum RunCommand {
    /// The command's arguments and options, for the parser, the synopsis and `--help`.
    static let declaration = CommandDeclaration(
        name: "run",
        abstract: """
            Runs a job file's steps in order, then its finally steps (also after a failure or Ctrl-C), with a line per
            step on stderr and, on stdout, each step's records or values, the outcome and the records touched. Several
            job files run one after the other. Exit status: 0 passed, 1 usage or configuration error, 2 invalid job
            file or unknown name, 3 a step failed, 4 an assertion failed, 5 with --detailed-exitcode a passed run that
            changed a record, 130/143/129 SIGINT/SIGTERM/SIGHUP, 141 stdout or stderr closed (the first job that did
            not pass).
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
            .flag("quiet", "print only the failed steps and the outcome"),
            .repeating("tags", "TAG,...", "run only the steps with one of these tags (or always)"),
            .repeating("skip-tags", "TAG,...", "skip the steps with one of these tags"),
            .flag("fail-fast", "with several job files, run none after the first that does not pass"),
            .flag("offline", "do not check table and field names against the instance"),
            .flag("refresh-schema", "read the instance's dictionary afresh, not from ~/.nowflow/schema/"),
            .flag("detailed-exitcode", "exit 5 when the run (or dry run) changed (would change) a record"),
            .value(
                "annotations", "github|gitlab|none",
                "annotate for a CI (default: github if GITHUB_ACTIONS=true, gitlab if GITLAB_CI=true)"),
            .value("rate", "N/s|N/h", "send at most N requests a second (or minute, /min, or hour), whatever the job's rate:"),
            .value("shard", "K/N", "run shard K of N: of each foreach over records, the items whose sys_id hashes to K; the rate / N"),
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
        /// `--shard K/N`.
        var shard: Shard?
        var tags: Set<String> = []
        var skipTags: Set<String> = []
        var failFast = false
        var detailedExitCode = false
        var annotations: String?
    }

    static func main(_ arguments: [String]) -> Int32 {
        let settings: Settings
        let platform: CIPlatform?
        let environment = ProcessInfo.processInfo.environment
        do {
            settings = try parse(arguments)
            platform = try CIPlatform.chosen(settings.annotations, environment: environment)
        } catch {
            return declaration.fail(error)
        }
        // Every file is read and checked before the first job runs; one that does not validate runs none, and the
        // reports say why (each of its diagnostics a failing test) and list the others' steps as not run.
        var loaded: [(path: String, job: Job?, problems: [Diagnostic])] = []
        for path in settings.jobPaths {
            do {
                loaded.append((path, try JobFile.load(path: path), []))
            } catch {
                for diagnostic in error.diagnostics { show(diagnostic, on: platform) }
                loaded.append((path, nil, error.diagnostics))
            }
        }
        let jobs = loaded.compactMap(\.job)
        if jobs.count < loaded.count {
            let invalid = loaded.filter { $0.job == nil }.map(\.path).joined(separator: ", ")
            let results = loaded.map { entry in
                entry.job.map {
                    RunResult.notStarted($0, status: .notRun, reason: "\(invalid) did not validate", dryRun: settings.dryRun)
                } ?? RunResult.invalid(file: entry.path, diagnostics: entry.problems, dryRun: settings.dryRun)
            }
            return report(results, settings, status: 2)
        }
        var fileValues: [String: (value: JSONValue, source: String)] = [:]
        for path in settings.varsFiles {
            do {
                for (name, value) in try VarsFile.load(path: path) { fileValues[name] = (value, path) }
            } catch {
                // A vars file is configuration, as config.yaml is: its problems are usage errors (the job is fine).
                for diagnostic in error.diagnostics { show(diagnostic, of: "vars file", on: platform) }
                let results = jobs.map {
                    RunResult.notStarted($0, status: .notRun, reason: "\(path) did not validate", dryRun: settings.dryRun)
                }
                let varsFile = RunResult.invalid(file: path, diagnostics: error.diagnostics, dryRun: settings.dryRun)
                return report(results + [varsFile], settings, status: 1)
            }
        }
        do {
            try checkVariables(settings, fileValues, of: jobs)
            try checkTags(settings, of: jobs)
        } catch {
            let results = jobs.map {
                RunResult.notStarted(
                    $0, status: .failed, reason: "the command line was refused", error: error.description,
                    dryRun: settings.dryRun)
            }
            _ = report(results, settings, status: 1)
            return declaration.fail(error)
        }

        let terminal = isatty(STDERR_FILENO) == 1
        let color = terminal && (environment["NO_COLOR"] ?? "").isEmpty
        let progress = ProgressPrinter(color: color, bar: color, verbose: settings.verbose, quiet: settings.quiet)
        let interruption = RunInterruption()
        SignalForwarder.forward(to: interruption)
        var results: [RunResult] = []
        var status: Int32 = 0
        // The what-changed page of each served instance a job changed, from the start of the first such job.
        var changeLinks: [String] = []
        // The Markdown summary of each job run, for $GITHUB_STEP_SUMMARY.
        var summaries: [String] = []
        for (index, job) in jobs.enumerated() {
            if jobs.count > 1 { printError("nowflow run: \(job.file) (\(job.name))") }
            let section = CIPlatform.sectionName(of: job.file, index: index)
            if let start = platform?.sectionStart(section, header: "nowflow run: \(job.file) (\(job.name)): steps") {
                printError(start)
            }
            let outcome = run(
                job, settings, fileValues, environment: environment, progress: progress, interruption: interruption,
                platform: platform)
            if let end = platform?.sectionEnd(section) { printError(end) }
            results.append(outcome.result)
            guard outcome.started else {
                // The job could not start (its instance, its names): no further job runs.
                let reason = "\(job.file) did not start"
                results += jobs[(index + 1)...].map {
                    RunResult.notStarted($0, status: .notRun, reason: reason, dryRun: settings.dryRun)
                }
                return report(results, settings, status: outcome.status)
            }
            let result = outcome.result
            // A run that touched no record (read only, or a dry run) has nothing to show there.
            let link = result.records.isEmpty ? nil : outcome.changes
            if let link, !changeLinks.contains(where: { $0.prefix { $0 != "?" } == link.prefix { $0 != "?" } }) {
                changeLinks.append(link)
            }
            if let annotation = platform?.annotation(result) { printError(annotation) }
            if platform == .github { summaries.append(result.markdownSummary(changes: link)) }
            // The first job that did not pass gives the status; a change (5) only when none failed.
            if status == 0 || (status == RunResult.changedExitCode && outcome.status != 0) { status = outcome.status }
            if !settings.json {
                printResult(result.summaryText())
                if settings.verbose { printResult(result.resultsText(dates: job.dates(timeZone: settings.timeZone))) }
            }
            let stop = interruption.firstSignal != nil || (settings.failFast && result.status != .passed)
            if stop, index + 1 < jobs.count {
                let rest = jobs[(index + 1)...].map(\.file).joined(separator: ", ")
                let reason = interruption.firstSignal.map { "interrupted by \($0.rawValue)" } ?? "--fail-fast"
                if !settings.json { printResult("not run (\(reason)): \(rest)") }
                results += jobs[(index + 1)...].map {
                    RunResult.notStarted($0, status: .notRun, reason: reason, dryRun: settings.dryRun)
                }
                break
            }
        }
        if terminal { for link in changeLinks { printError("nowflow run: what changed: \(link)") } }
        if let path = environment["GITHUB_STEP_SUMMARY"], !path.isEmpty, !summaries.isEmpty {
            appendSummary(summaries.joined(separator: "\n"), to: path)
        }
        return report(results, settings, status: status)
    }

    /// Prints the JSON report on stdout under `--output json` and writes each `--report`; returns `status`, or 3
    /// when a report cannot be written after a run that passed.
    private static func report(_ results: [RunResult], _ settings: Settings, status: Int32) -> Int32 {
        // Every job's entry says which shard it is, those that did not start too.
        let shardResults = results.map { result in
            var result = result
            result.shard = settings.shard
            return result
        }
        let report = RunReport(results: shardResults, nowflowVersion: CommandDeclaration.versionNumber)
        if settings.json { printResult(report.jsonText()) }
        for destination in settings.reports {
            let text = destination.format == "junit" ? report.junitXML() : report.jsonText() + "\n"
            do {
                try text.write(to: URL(fileURLWithPath: destination.path), atomically: true, encoding: .utf8)
            } catch {
                printError(
                    "nowflow run: cannot write the \(destination.format) report to \(destination.path): \(error.localizedDescription)"
                )
                return status == 0 ? 3 : status
            }
        }
        return status
    }

    /// Runs one job on its instance: the name check, then the steps. `started` is false when the job did not start
    /// (the instance cannot be opened, or a name is unknown; the result says why), with the exit status to end
    /// with; `changes` is the link to the instance's page of what changed, when it named one
    /// (``changesLink(_:page:since:)``).
    private static func run(
        _ job: Job, _ settings: Settings, _ fileValues: [String: (value: JSONValue, source: String)],
        environment: [String: String], progress: ProgressPrinter, interruption: RunInterruption, platform: CIPlatform?
    ) -> (result: RunResult, started: Bool, status: Int32, changes: String?) {
        let target: InstanceTarget
        let instance = settings.instance ?? job.instance ?? EnvironmentCredentials.instance(in: environment) ?? "local"
        do {
            target = try InstanceTarget.resolve(instance, environment: environment, verbose: settings.verbose)
        } catch {
            printError("nowflow run: \(error)")
            var result = RunResult.notStarted(
                job, status: .failed, reason: "its instance could not be opened", error: "\(error)", dryRun: settings.dryRun)
            result.instance = InstanceTarget.reportName(of: instance)
            return (result, false, error.isUsage ? 1 : 3, nil)
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
        // A shard sends its share: the rate divided by the number of shards.
        let rate = (settings.rate ?? [job.rate, target.rate].compactMap { $0 }.max { $0.spacing < $1.spacing })
            .map { rate in settings.shard.map { rate.divided(by: $0.count) } ?? rate }
        settingUp.shard = settings.shard
        let pacer = RequestPacer(rate: rate)
        settingUp.pacer = pacer
        progress.follow(pacer)
        if !settings.json, !settings.quiet {
            // A terminal's width cuts long values; a pipe, a file or a CI log keeps them whole.
            let width = isatty(STDOUT_FILENO) == 1 ? TerminalSize.columns() : nil
            settingUp.display = ResultDisplay(width: width, timeZone: settings.timeZone)
        }
        let options = settingUp
        /// The job refused for the problems of its name check.
        func refused(_ problems: [Diagnostic]) -> RunResult {
            var result = RunResult.notStarted(
                job, status: .invalid, reason: "its table and field names did not check", dryRun: settings.dryRun,
                diagnostics: Diagnostic.inFileOrder(job.warnings + problems, of: job.file))
            result.instance = target.reportName
            return result
        }
        if settings.offline {
            for warning in job.warnings { show(warning, on: platform) }
        } else {
            let check = waitFor { await JobRunner(job: job, options: options).checkNames() }
            // The file's own warnings, with the name check's in file order.
            for problem in Diagnostic.inFileOrder(job.warnings + check.diagnostics, of: job.file) {
                show(problem, on: platform)
            }
            if check.refusesRun, let reason = check.notChecked {
                let problem = Diagnostic(
                    file: job.file, line: 0, column: 0,
                    message: "names not checked: \(reason); use --offline to skip the check")
                show(problem, on: platform)
                return (refused(check.diagnostics + [problem]), false, 2, nil)
            }
            guard check.diagnostics.allSatisfy(\.isWarning) else { return (refused(check.diagnostics), false, 2, nil) }
        }
        let started = Date()
        var result = waitFor { await JobRunner(job: job, options: options).run() }
        result.instance = target.reportName
        if result.steps.contains(where: { $0.status == .failed && $0.message.hasPrefix("bad response 401") }) {
            let given = target.hasCredentials || job.hasAuthentication
            printError("nowflow run: \(EnvironmentCredentials.unauthorizedHint(credentialsGiven: given))")
        }
        let changes = result.changesPage.map { changesLink(target.url, page: $0, since: started) }
        return (result, true, result.exitCode(detailed: settings.detailedExitCode), changes)
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

    /// Prints a problem with a file (a job file, else `kind`) on stderr: as a workflow command on its line under
    /// GitHub Actions, else as `file:line:column: error: message`.
    private static func show(_ diagnostic: Diagnostic, of kind: String = "job file", on platform: CIPlatform?) {
        printError(platform?.annotation(diagnostic, of: kind) ?? diagnostic.description)
    }

    /// Appends the jobs' Markdown summary to GitHub Actions' step summary file; a file that cannot be written is
    /// said on stderr and does not change the exit status (the run itself is what the status tells).
    private static func appendSummary(_ markdown: String, to path: String) {
        do {
            if !FileManager.default.fileExists(atPath: path) {
                try Data().write(to: URL(fileURLWithPath: path))
            }
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: Data((markdown + "\n").utf8))
        } catch {
            printError(
                "nowflow run: cannot append the summary to $GITHUB_STEP_SUMMARY (\(path)): \(error.localizedDescription)")
        }
    }

    /// The web view of what a run changed, on an instance that named its page (`page`, from
    /// ``RunResult/changesPage``: a served local instance, over `http://` or `https://`):
    /// `https://127.0.0.1:8443/changes.do?since=2026-12-02%2009:00:00`, without any user or password `url` holds.
    static func changesLink(_ url: URL, page: String, since start: Date) -> String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.user = nil
        components?.password = nil
        let base = components?.string ?? ""
        let root = base.hasSuffix("/") ? String(base.dropLast()) : base
        let since = Coder.default.text(for: start).replacingOccurrences(of: " ", with: "%20")
        return root + page + "?since=" + since
    }

    private static func parse(_ arguments: [String]) throws(UsageError) -> Settings {
        let parsed = try declaration.parse(arguments)
        var settings = Settings(
            jobPaths: parsed.positional, instance: parsed.value("instance"), dryRun: parsed.flag("dry-run"), json: false,
            timeZone: parsed.value("tz"), verbose: parsed.flag("verbose"), offline: parsed.flag("offline"),
            refreshSchema: parsed.flag("refresh-schema"), detailedExitCode: parsed.flag("detailed-exitcode"))
        settings.quiet = parsed.flag("quiet")
        settings.failFast = parsed.flag("fail-fast")
        settings.annotations = parsed.value("annotations")
        settings.varsFiles = parsed.values("vars-file")
        if let text = parsed.value("rate") {
            do {
                settings.rate = try RequestRate(parsing: text)
            } catch {
                throw UsageError("--rate \(error.message)")
            }
        }
        if let text = parsed.value("shard") {
            do {
                settings.shard = try Shard(parsing: text)
            } catch {
                throw UsageError("--shard \(error.message)")
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
        settings.reports = try parsed.values("report").map(ReportPath.destination)
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

