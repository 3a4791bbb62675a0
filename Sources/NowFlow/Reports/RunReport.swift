/// What `nowflow run` reports (`--report junit:PATH`, `--report json:PATH`, `--output json`): every job file it
/// was asked to run, in order, each as a ``RunResult``, including the files that did not validate and the jobs that
/// did not start. `docs/ci.md` is the contract of both forms.
///
/// ```swift
/// let report = RunReport(results: [result], nowflowVersion: "0.1.0")
/// try report.junitXML().write(toFile: "junit.xml", atomically: true, encoding: .utf8)
/// ```
public struct RunReport: Sendable {
    /// The version of the JSON report's shape (`schema_version`): it changes only when a key is removed or changes
    /// meaning, or a status or result is removed; additions keep it (`docs/ci.md`).
    public static let schemaVersion = 1

    /// Each job file's result, in the order given.
    public var results: [RunResult]
    /// The version of nowflow that ran them (`0.1.0`).
    public var nowflowVersion: String

    /// A report of `results`, made by nowflow `nowflowVersion`.
    public init(results: [RunResult], nowflowVersion: String) {
        self.results = results
        self.nowflowVersion = nowflowVersion
    }

    /// The status of the first job that did not pass and did start, else `passed`.
    public var status: RunStatus {
        results.first { $0.status != .passed && $0.status != .notRun }?.status ?? .passed
    }
}
