internal import CMalloc
import Foundation
import NowFlow

/// `nowflow validate JOB.yaml...`: checks job files without running them and prints every problem as
/// `file:line:column: error: message`.
///
/// The table and field names are also checked against the dictionary of the instance the job would run on, as
/// `nowflow run` checks them (`--instance`, else the job's `instance:`, else `NOW_INSTANCE`/`SN_HOST`, else the
/// embedded one), unless `--offline`. A file whose names could not be checked (the instance unreachable, the
/// credentials refused, its dictionary not readable) is `ok` with the reason (`job.yaml: ok (Name, 3 steps; names
/// not checked: connection refused at 127.0.0.1:8443)`), and with `--strict` a problem.
///
/// Exit status: 0 when every file is valid, 2 when a file has a problem (with `--strict`, names not checked), 1
/// for a usage error, 3 when the instance cannot be opened.
enum ValidateCommand {
    /// The command's arguments and options, for the parser, the synopsis and `--help`.
    static let declaration = CommandDeclaration(
        name: "validate",
        abstract: """
            Checks job files without running them and prints every problem as file:line:column: error: message.
            Also checks table and field names against the dictionary of the instance each job would run on (as run
            does: --instance, else the job's instance:, else NOW_INSTANCE/SN_HOST, else the embedded one), sending
            only reads; a file whose names could not be checked (instance unreachable, credentials refused, dictionary
            not readable) is ok with the reason. Exit status: 0 every file valid, 1 usage error, 2 a file has a
            problem (with --strict, names not checked), 3 an instance cannot be opened.
            """,
        arguments: .init(name: "JOB.yaml", noun: "job file", count: .oneOrMore),
        options: [
            .value("instance", "local|URL|PROFILE", "check names against this instance (default: the job's instance:, else local)"),
            .flag("offline", "do not check table and field names against an instance"),
            .flag("strict", "fail (exit 2) a file whose names could not be checked, as for CI"),
            .flag("refresh-schema", "read the instance's dictionary afresh, not from ~/.nowflow/schema/"),
        ])

    static func main(_ arguments: [String]) -> Int32 {
        let parsed: CommandArguments
        do {
            parsed = try declaration.parse(arguments)
        } catch {
            return declaration.fail(error)
        }
        tuneAllocator()
        let environment = ProcessInfo.processInfo.environment
        // Each instance named is opened once, for every job that runs on it.
        var targets: [String: InstanceTarget] = [:]
        defer { for target in targets.values { target.close() } }
        var status: Int32 = 0
        for path in parsed.positional {
            do {
                let job = try JobFile.load(path: path)
                var notChecked: String?
                // The file's own warnings, with the name check's in file order when it runs.
                if parsed.flag("offline") {
                    for warning in job.warnings { printError(warning.description) }
                } else {
                    let name =
                        parsed.value("instance") ?? job.instance ?? EnvironmentCredentials.instance(in: environment)
                        ?? "local"
                    let target: InstanceTarget
                    if let opened = targets[name] {
                        target = opened
                    } else {
                        do {
                            target = try InstanceTarget.resolve(name, environment: environment, verbose: false)
                        } catch {
                            printError("nowflow validate: \(error)")
                            return error.isUsage ? 1 : 3
                        }
                        targets[name] = target
                    }
                    var settingUp = RunOptions(
                        instanceURL: target.url, transport: target.runTransport, authentication: target.authentication,
                        secrets: target.secrets, environment: environment)
                    settingUp.schemaCache = target.schemaCache
                    settingUp.refreshSchema = parsed.flag("refresh-schema")
                    let options = settingUp
                    let check = waitFor { await JobRunner(job: job, options: options).checkNames() }
                    for problem in Diagnostic.inFileOrder(job.warnings + check.diagnostics, of: job.file) {
                        printError(problem.description)
                    }
                    guard check.diagnostics.allSatisfy(\.isWarning) else {
                        status = 2
                        continue
                    }
                    notChecked = check.notChecked
                    if let reason = notChecked, parsed.flag("strict") {
                        let problem = Diagnostic(
                            file: path, line: 0, column: 0, message: "names not checked: \(reason) (--strict)")
                        printError(problem.description)
                        status = 2
                        continue
                    }
                }
                let unchecked = notChecked.map { "; names not checked: \($0)" } ?? ""
                print("\(path): ok (\(job.name), \(job.stepCount) step\(job.stepCount == 1 ? "" : "s")\(unchecked))")
            } catch {
                for diagnostic in error.diagnostics { printError(diagnostic.description) }
                status = 2
            }
        }
        return status
    }

    /// glibc's allocator tuned for what validate does: build the tree of a whole file and a job from it (millions
    /// of small blocks, a 50 MB file reaching 145 MB), then free them. Without fast bins, each block over 1 KB (a
    /// templated text) does not make glibc consolidate every freed small block first; with the heap grown 64 MB at
    /// a time (address space: untouched pages cost no memory), it is not grown in small steps (4 `brk` calls
    /// instead of 184 at 10 MB). About 5% off validate's time at 10 and 50 MB (Benchmarks/README.md, validate).
    private static func tuneAllocator() {
        #if canImport(Glibc)
            mallopt(M_MXFAST, 0)
            mallopt(M_TOP_PAD, 64 * 1_048_576)
        #endif
    }
}
