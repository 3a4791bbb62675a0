import Foundation
import NowData
import Testing

@testable import NowFlow

@Suite struct RunReportTests {
    private let result = Self.located(RunResult(
        job: "Clean <up> & check", file: "jobs/clean.yaml", status: .assertionFailed, dryRun: false, milliseconds: 1234,
        steps: [
            StepOutcome(
                number: "1", id: "old", kind: "query", status: .passed, continued: false, milliseconds: 12,
                message: "2 records from incident"),
            StepOutcome(
                number: "2", id: nil, kind: "delete", status: .skipped, continued: false, milliseconds: 0,
                message: "when was false"),
            StepOutcome(
                number: "3", id: nil, kind: "assert", status: .assertionFailed, continued: false, milliseconds: 1,
                message: "count is 'two' (2 == 0 is false)"),
            StepOutcome(
                number: "finally 1", id: "tidy", kind: "delete", status: .failed, continued: true, milliseconds: 5,
                message: "bad response 404"),
        ],
        results: ["old": .object(["count": .number(JSONNumber(2))])], vars: ["limit": .number(JSONNumber(5))],
        records: [TouchedRecord(action: .created, table: "incident", sysID: "abc", step: "step 1 'old' (query)")],
        plannedWrites: [], error: "step 3 (assert): count is 'two' (2 == 0 is false)"))

    /// `result` with its steps on lines 5, 7, 9 and 12 of its file, its instance and a masked variable.
    private static func located(_ result: RunResult) -> RunResult {
        var result = result
        for (index, line) in [5, 7, 9, 12].enumerated() {
            (result.steps[index].file, result.steps[index].line) = (result.file, line)
        }
        result.instance = "local"
        result.vars["token"] = "***"
        result.errorLocation = "jobs/clean.yaml:9:5"
        return result
    }

    @Test func eachRecordIsListedOnceWithWhatHappenedToItAndAfterAFailureThoseLeftChangedFirst() {
        var failed = result
        let update = "step 3 (foreach)"
        failed.records = [
            TouchedRecord(action: .created, table: "change_request", sysID: "c1", step: "step 1 'change' (create)"),
            TouchedRecord(action: .created, table: "incident", sysID: "i1", step: "step 2 (create)"),
        ] + Array(repeating: TouchedRecord(action: .updated, table: "change_request", sysID: "c1", step: update), count: 7)
            + [TouchedRecord(action: .deleted, table: "incident", sysID: "i1", step: "finally 1 (delete)")]
        failed.recordNumbers = ["c1": "CHG0030001", "i1": "INC0010061"]
        #expect(
            failed.summaryText() == """
                Clean <up> & check: assertion failed (3 steps run, 1234 ms)
                  jobs/clean.yaml:9:5: step 3 (assert): count is 'two' (2 == 0 is false)
                records left changed (finish or undo them by hand):
                  change_request CHG0030001 (c1): created by step 1 'change' (create), updated 7x by step 3 (foreach)
                records the run changed and deleted again:
                  incident INC0010061 (i1): created by step 2 (create), deleted by finally 1 (delete)
                """)
        #expect(RunReport(results: [failed], nowflowVersion: "0.1.0").jsonText().contains(#""number": "CHG0030001""#))
    }

    @Test func junitHasOneCasePerStepNamedByItsIdOrKindAndLineWithRunErrorsAsErrors() {
        #expect(
            RunReport(results: [result], nowflowVersion: "0.1.0").junitXML() == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="nowflow" tests="4" failures="1" errors="1" skipped="1" time="1.234">
                  <testsuite name="Clean &lt;up&gt; &amp; check" tests="4" failures="1" errors="1" skipped="1" time="1.234" file="jobs/clean.yaml">
                    <properties>
                      <property name="nowflow.version" value="0.1.0"/>
                      <property name="instance" value="local"/>
                      <property name="vars.limit" value="5"/>
                      <property name="vars.token" value="***"/>
                    </properties>
                    <testcase classname="Clean &lt;up&gt; &amp; check" name="old" file="jobs/clean.yaml" line="5" time="0.012"/>
                    <testcase classname="Clean &lt;up&gt; &amp; check" name="delete at line 7" file="jobs/clean.yaml" line="7" time="0.000">
                      <skipped message="when was false"/>
                    </testcase>
                    <testcase classname="Clean &lt;up&gt; &amp; check" name="assert at line 9" file="jobs/clean.yaml" line="9" time="0.001">
                      <failure type="assertion" message="count is &apos;two&apos; (2 == 0 is false)">step 3 (assert): count is &apos;two&apos; (2 == 0 is false)</failure>
                    </testcase>
                    <testcase classname="Clean &lt;up&gt; &amp; check" name="tidy" file="jobs/clean.yaml" line="12" time="0.005">
                      <error type="error" message="bad response 404">finally 1 &apos;tidy&apos; (delete): bad response 404</error>
                    </testcase>
                    <system-out>incident abc: created by step 1 &apos;old&apos; (query)</system-out>
                  </testsuite>
                </testsuites>

                """)
    }

    /// A file that did not validate is a test suite of its diagnostics, each a failure on its line; the other jobs
    /// asked for are listed with their steps skipped, not run.
    @Test func anInvalidFileIsASuiteOfFailingDiagnosticsAndTheOtherJobsStepsAreNotRun() throws {
        let job = try JobFile.parse(
            "name: Other\nsteps:\n  - id: list\n    query: { table: incident }\nfinally:\n  - set: { done: true }\n",
            file: "other.yaml")
        let invalid = RunResult.invalid(
            file: "bad.yaml",
            diagnostics: [
                Diagnostic(file: "bad.yaml", line: 3, column: 38, message: "limit must be a whole number, not a string"),
                Diagnostic(file: "bad.yaml", line: 4, column: 5, message: "unknown key 'wehn'", isWarning: true),
            ], dryRun: false)
        let other = RunResult.notStarted(job, status: .notRun, reason: "bad.yaml did not validate", dryRun: false)
        let report = RunReport(results: [invalid, other], nowflowVersion: "0.1.0")
        #expect(report.status == .invalid)
        #expect(
            report.junitXML() == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="nowflow" tests="3" failures="1" errors="0" skipped="2" time="0.000">
                  <testsuite name="bad.yaml" tests="1" failures="1" errors="0" skipped="0" time="0.000" file="bad.yaml">
                    <properties>
                      <property name="nowflow.version" value="0.1.0"/>
                    </properties>
                    <testcase classname="bad.yaml" name="bad.yaml:3:38" file="bad.yaml" line="3" time="0.000">
                      <failure type="invalid" message="limit must be a whole number, not a string">bad.yaml:3:38: error: limit must be a whole number, not a string</failure>
                    </testcase>
                  </testsuite>
                  <testsuite name="Other" tests="2" failures="0" errors="0" skipped="2" time="0.000" file="other.yaml">
                    <properties>
                      <property name="nowflow.version" value="0.1.0"/>
                    </properties>
                    <testcase classname="Other" name="list" file="other.yaml" line="3" time="0.000">
                      <skipped message="not run: bad.yaml did not validate"/>
                    </testcase>
                    <testcase classname="Other" name="set at line 6" file="other.yaml" line="6" time="0.000">
                      <skipped message="not run: bad.yaml did not validate"/>
                    </testcase>
                  </testsuite>
                </testsuites>

                """)
        #expect(
            try JSONValue(json: Data(report.jsonText().utf8))["jobs"]?[0]
                == [
                    "job": "bad.yaml", "file": "bad.yaml", "instance": "", "status": "invalid", "dry_run": false,
                    "duration_ms": 0, "steps": [], "results": [:], "vars": [:], "records": [], "planned_writes": [],
                    "outputs": [:], "ensured": [:], "error": "bad.yaml does not validate: 1 error", "error_location": .null,
                    "warnings": [], "shard": .null,
                    "diagnostics": [
                        [
                            "file": "bad.yaml", "line": 3, "column": 38, "severity": "error",
                            "message": "limit must be a whole number, not a string",
                        ],
                        ["file": "bad.yaml", "line": 4, "column": 5, "severity": "warning", "message": "unknown key 'wehn'"],
                    ],
                ])
    }

    /// A foreach body's steps are named after their item; an included job's steps carry its file.
    @Test func aStepsReportNameIsItsIdOrKindAndLineWithTheItemItRanFor() {
        var step = StepOutcome(
            number: "3[2].1", id: "close", kind: "update", status: .passed, continued: false, milliseconds: 0, message: "")
        step.line = 14
        #expect(step.reportName == "close [2]")
        step.id = nil
        #expect(step.reportName == "update at line 14 [2]")
        step.number = "4.2[0].1[1].3"
        #expect(step.reportName == "update at line 14 [0][1]")
        step.number = "finally 2"
        #expect(step.reportName == "update at line 14")
    }

    @Test func progressLinesMarkTheStatus() {
        #expect(
            result.steps.map { $0.progressLine(color: false) } == [
                "ok   step 1 'old' (query): 2 records from incident (12 ms)",
                "skip step 2 (delete): when was false (0 ms)",
                "ASSERT step 3 (assert): count is 'two' (2 == 0 is false) (1 ms)",
                "FAIL (continued) finally 1 'tidy' (delete): bad response 404 (5 ms)",
            ])
        #expect(
            result.steps[0].progressLine(color: true)
                == "\u{1B}[32mok  \u{1B}[0m step 1 'old' (query): 2 records from incident (12 ms)")
    }

    @Test func jsonIsTheVersionedShapeWithEveryStep() throws {
        let report = RunReport(results: [result], nowflowVersion: "0.1.0")
        #expect(
            report.jsonText() == """
                {
                  "jobs": [
                    {
                      "diagnostics": [],
                      "dry_run": false,
                      "duration_ms": 1234,
                      "ensured": {},
                      "error": "step 3 (assert): count is 'two' (2 == 0 is false)",
                      "error_location": "jobs/clean.yaml:9:5",
                      "file": "jobs/clean.yaml",
                      "instance": "local",
                      "job": "Clean <up> & check",
                      "outputs": {},
                      "planned_writes": [],
                      "records": [
                        {
                          "action": "created",
                          "step": "step 1 'old' (query)",
                          "sys_id": "abc",
                          "table": "incident"
                        }
                      ],
                      "results": {
                        "old": {
                          "count": 2
                        }
                      },
                      "shard": null,
                      "status": "assertion_failed",
                      "steps": [
                        {
                          "continued": false,
                          "duration_ms": 12,
                          "file": "jobs/clean.yaml",
                          "id": "old",
                          "kind": "query",
                          "line": 5,
                          "message": "2 records from incident",
                          "name": "old",
                          "number": "1",
                          "status": "passed"
                        },
                        {
                          "continued": false,
                          "duration_ms": 0,
                          "file": "jobs/clean.yaml",
                          "id": null,
                          "kind": "delete",
                          "line": 7,
                          "message": "when was false",
                          "name": "delete at line 7",
                          "number": "2",
                          "status": "skipped"
                        },
                        {
                          "continued": false,
                          "duration_ms": 1,
                          "file": "jobs/clean.yaml",
                          "id": null,
                          "kind": "assert",
                          "line": 9,
                          "message": "count is 'two' (2 == 0 is false)",
                          "name": "assert at line 9",
                          "number": "3",
                          "status": "assertion_failed"
                        },
                        {
                          "continued": true,
                          "duration_ms": 5,
                          "file": "jobs/clean.yaml",
                          "id": "tidy",
                          "kind": "delete",
                          "line": 12,
                          "message": "bad response 404",
                          "name": "tidy",
                          "number": "finally 1",
                          "status": "failed"
                        }
                      ],
                      "vars": {
                        "limit": 5,
                        "token": "***"
                      },
                      "warnings": []
                    }
                  ],
                  "nowflow_version": "0.1.0",
                  "schema_version": 1,
                  "status": "assertion_failed"
                }
                """)
    }

    @Test func summaryListsTheRecordsToFinishByHand() {
        #expect(
            result.summaryText() == """
                Clean <up> & check: assertion failed (3 steps run, 1234 ms)
                  jobs/clean.yaml:9:5: step 3 (assert): count is 'two' (2 == 0 is false)
                records left changed (finish or undo them by hand):
                  incident abc: created by step 1 'old' (query)
                """)
    }

    /// `docs/report.schema.json` is written by hand: its enumerations are the statuses and step kinds there are,
    /// with a result definition for each kind, which `docs/ci.md` lists too.
    @Test func theShippedSchemaListsEveryStatusAndStepKind() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let schema = try JSONValue(json: Data(contentsOf: root.appendingPathComponent("docs/report.schema.json")))
        let definitions = try #require(schema["definitions"])
        func strings(_ value: JSONValue?) -> [String] { value?.array?.compactMap(\.string) ?? [] }
        #expect(strings(definitions["run_status"]?["enum"]) == RunStatus.allCases.map(\.rawValue))
        #expect(strings(definitions["step_status"]?["enum"]) == StepStatus.allCases.map(\.rawValue))
        let kinds = JobSchema.kinds.map(\.name)
        #expect(Set(strings(definitions["step"]?["properties"]?["kind"]?["enum"])) == Set(kinds))
        let guide = try String(contentsOf: root.appendingPathComponent("docs/ci.md"), encoding: .utf8)
        for kind in kinds {
            #expect(definitions["result_\(kind)"] != nil, "no result_\(kind)")
            #expect(guide.contains("\n| `\(kind)` | "), "docs/ci.md lists no result of \(kind)")
        }
    }
}
