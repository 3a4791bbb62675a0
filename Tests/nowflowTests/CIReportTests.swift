import Foundation
import Testing

/// The reports of `nowflow run` as a CI reads them, through the built binary on the embedded instance: written for
/// every run that asked for one (a file that does not validate, a failed run, a job that cannot start; an
/// interrupted run in ``InterruptionTests``), compared whole, the JUnit XML read by `junitparser` and the JSON
/// validated against `docs/report.schema.json` (``ReportCheck``).
@Suite struct CIReportTests {
    static let files = [
        "bad.yaml": """
            name: Bad
            steps:
              - query: { table: incident, limit: "x" }
              - frobnicate: {}
            """,
        "good.yaml": """
            name: Good
            steps:
              - id: first
                query: { table: incident, fields: [number], limit: 1 }
            finally:
              - set: { done: true }
            """,
        "fail.yaml": """
            name: Checks <&>
            vars:
              token: s3cr3t-token
              want: 2
            secrets: [token]
            steps:
              - id: first
                query: { table: incident, fields: [number], order_by: number, limit: 1 }
              - extract: { from: steps.first, path: records.5.number }
                continue_on_error: true
              - assert: { that: "steps.first.count == vars.want", message: "one incident, not ${vars.want}" }
              - id: later
                set: { done: true }
              - query: { table: incident, limit: 1, fields: [number] }
            finally:
              - id: tidy
                set: { token_used: "${vars.token}" }
            outputs:
              first: steps.first.records.0.number
            """,
        "bad-vars.yaml": """
            want: [1
            """,
        "typo.yaml": """
            name: Typo
            steps:
              - id: list
                query: { table: incidnet, limit: 1 }
            """,
        "outer.yaml": """
            name: Outer
            steps:
              - id: each
                foreach: "[1, 2]"
                steps:
                  - id: item
                    set: { x: "${item}" }
              - id: inner
                include: { file: shared/inner.yaml }
            """,
        "items.yaml": """
            name: Items
            steps:
              - id: each
                foreach: "[1, 2]"
                parallel: 1
                steps:
                  - id: check
                    assert: "item == 1"
                  - id: after
                    set: { seen: "${item}" }
              - id: later
                set: { done: true }
            """,
        "shared/inner.yaml": """
            name: Inner
            steps:
              - id: one
                set: { a: 1 }
              - assert: "vars.a == 2"
              - id: never
                set: { b: 1 }
            """,
    ]

    private func home() throws -> URL {
        let directory = try ToolInvocation.temporaryDirectory()
        for (name, text) in Self.files {
            let url = directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try (text + "\n").write(to: url, atomically: true, encoding: .utf8)
        }
        return directory
    }

    private func read(_ name: String, in directory: URL) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    /// `run bad.yaml good.yaml`: nothing runs and the exit status is 2, yet both reports and `--output json` say
    /// why: each diagnostic a failing test case on its line, the valid job's steps not run.
    @Test(.enabled(if: ReportCheck.python != nil, "no virtualenv with jsonschema and junitparser (scripts/test makes it)"))
    func aFileThatDoesNotValidateGetsReportsWithEachDiagnosticAFailingTest() throws {
        let directory = try home()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(
            ["run", "bad.yaml", "good.yaml", "--output", "json", "--report", "junit:j.xml", "--report", "json:r.json"],
            in: directory)
        #expect(result.status == 2)
        #expect(
            result.stderr == """
                bad.yaml:3:38: error: limit must be a whole number, not a string
                bad.yaml:4:5: error: unknown step kind 'frobnicate'; the kinds are query, get, create, update, delete, extract, set, assert, foreach, include, ensure, http, attach, download, attachments, aggregate, change, import or order

                """)
        #expect(
            result.stdout == """
                {
                  "jobs": [
                    {
                      "diagnostics": [
                        {
                          "column": 38,
                          "file": "bad.yaml",
                          "line": 3,
                          "message": "limit must be a whole number, not a string",
                          "severity": "error"
                        },
                        {
                          "column": 5,
                          "file": "bad.yaml",
                          "line": 4,
                          "message": "unknown step kind 'frobnicate'; the kinds are query, get, create, update, delete, extract, set, assert, foreach, include, ensure, http, attach, download, attachments, aggregate, change, import or order",
                          "severity": "error"
                        }
                      ],
                      "dry_run": false,
                      "duration_ms": 0,
                      "ensured": {},
                      "error": "bad.yaml does not validate: 2 errors",
                      "error_location": null,
                      "file": "bad.yaml",
                      "instance": "",
                      "job": "bad.yaml",
                      "outputs": {},
                      "planned_writes": [],
                      "records": [],
                      "results": {},
                      "shard": null,
                      "status": "invalid",
                      "steps": [],
                      "vars": {},
                      "warnings": []
                    },
                    {
                      "diagnostics": [],
                      "dry_run": false,
                      "duration_ms": 0,
                      "ensured": {},
                      "error": null,
                      "error_location": null,
                      "file": "good.yaml",
                      "instance": "",
                      "job": "Good",
                      "outputs": {},
                      "planned_writes": [],
                      "records": [],
                      "results": {},
                      "shard": null,
                      "status": "not_run",
                      "steps": [
                        {
                          "continued": false,
                          "duration_ms": 0,
                          "file": "good.yaml",
                          "id": "first",
                          "kind": "query",
                          "line": 3,
                          "message": "not run: bad.yaml did not validate",
                          "name": "first",
                          "number": "1",
                          "status": "not_run"
                        },
                        {
                          "continued": false,
                          "duration_ms": 0,
                          "file": "good.yaml",
                          "id": null,
                          "kind": "set",
                          "line": 6,
                          "message": "not run: bad.yaml did not validate",
                          "name": "set at line 6",
                          "number": "finally 1",
                          "status": "not_run"
                        }
                      ],
                      "vars": {},
                      "warnings": []
                    }
                  ],
                  "nowflow_version": "0.1.0",
                  "schema_version": 1,
                  "status": "invalid"
                }

                """)
        #expect(try read("r.json", in: directory) == result.stdout)
        ReportCheck.expectValid(result.stdout)
        let junit = try read("j.xml", in: directory)
        #expect(
            junit == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="nowflow" tests="4" failures="2" errors="0" skipped="2" time="0.000">
                  <testsuite name="bad.yaml" tests="2" failures="2" errors="0" skipped="0" time="0.000" file="bad.yaml">
                    <properties>
                      <property name="nowflow.version" value="0.1.0"/>
                    </properties>
                    <testcase classname="bad.yaml" name="bad.yaml:3:38" file="bad.yaml" line="3" time="0.000">
                      <failure type="invalid" message="limit must be a whole number, not a string">bad.yaml:3:38: error: limit must be a whole number, not a string</failure>
                    </testcase>
                    <testcase classname="bad.yaml" name="bad.yaml:4:5" file="bad.yaml" line="4" time="0.000">
                      <failure type="invalid" message="unknown step kind &apos;frobnicate&apos;; the kinds are query, get, create, update, delete, extract, set, assert, foreach, include, ensure, http, attach, download, attachments, aggregate, change, import or order">bad.yaml:4:5: error: unknown step kind &apos;frobnicate&apos;; the kinds are query, get, create, update, delete, extract, set, assert, foreach, include, ensure, http, attach, download, attachments, aggregate, change, import or order</failure>
                    </testcase>
                  </testsuite>
                  <testsuite name="Good" tests="2" failures="0" errors="0" skipped="2" time="0.000" file="good.yaml">
                    <properties>
                      <property name="nowflow.version" value="0.1.0"/>
                    </properties>
                    <testcase classname="Good" name="first" file="good.yaml" line="3" time="0.000">
                      <skipped message="not run: bad.yaml did not validate"/>
                    </testcase>
                    <testcase classname="Good" name="set at line 6" file="good.yaml" line="6" time="0.000">
                      <skipped message="not run: bad.yaml did not validate"/>
                    </testcase>
                  </testsuite>
                </testsuites>

                """)
        #expect(
            try ReportCheck.junitReading(junit) == """
                suite bad.yaml: tests 2, failures 2, errors 0, skipped 0
                  property nowflow.version = 0.1.0
                  case bad.yaml:3:38 (bad.yaml, bad.yaml:3): failure: limit must be a whole number, not a string
                  case bad.yaml:4:5 (bad.yaml, bad.yaml:4): failure: unknown step kind 'frobnicate'; the kinds are query, get, create, update, delete, extract, set, assert, foreach, include, ensure, http, attach, download, attachments, aggregate, change, import or order
                suite Good: tests 2, failures 0, errors 0, skipped 2
                  property nowflow.version = 0.1.0
                  case first (Good, good.yaml:3): skipped: not run: bad.yaml did not validate
                  case set at line 6 (Good, good.yaml:6): skipped: not run: bad.yaml did not validate

                """)
    }

    /// A run whose assert fails, after a step that failed under `continue_on_error`, with `--fail-fast` before a
    /// second job: the steps after the assert and the second job are listed as not run, the run error is an
    /// `<error>`, the assertion a `<failure>`; the properties name the instance, the variables (the secret one
    /// masked) and nowflow's version; the secret appears nowhere.
    @Test(.enabled(if: ReportCheck.python != nil, "no virtualenv with jsonschema and junitparser (scripts/test makes it)"))
    func aFailedRunListsEveryStepWithStableNamesAndMasksSecrets() throws {
        let directory = try home()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(
            ["run", "fail.yaml", "good.yaml", "--fail-fast", "--output", "json", "--report", "junit:j.xml"], in: directory)
        #expect(result.status == 4)
        let junit = try read("j.xml", in: directory)
        for text in [result.stdout, result.stderr, junit] { #expect(!text.contains("s3cr3t")) }
        #expect(
            ReportCheck.normalized(result.stdout) == """
                {
                  "jobs": [
                    {
                      "diagnostics": [],
                      "dry_run": false,
                      "duration_ms": 0,
                      "ensured": {},
                      "error": "step 3 (assert): one incident, not 2 (1 == 2 is false)",
                      "error_location": "fail.yaml:11:5",
                      "file": "fail.yaml",
                      "instance": "local",
                      "job": "Checks <&>",
                      "outputs": {
                        "first": "INC0010001"
                      },
                      "planned_writes": [],
                      "records": [],
                      "results": {
                        "first": {
                          "count": 1,
                          "records": [
                            {
                              "number": "INC0010001",
                              "sys_id": "77c017c10d784d2d1c396fa61dce21ac"
                            }
                          ]
                        },
                        "tidy": {
                          "token_used": "***"
                        }
                      },
                      "shard": null,
                      "status": "assertion_failed",
                      "steps": [
                        {
                          "continued": false,
                          "duration_ms": 0,
                          "file": "fail.yaml",
                          "id": "first",
                          "kind": "query",
                          "line": 7,
                          "message": "1 record from incident",
                          "name": "first",
                          "number": "1",
                          "status": "passed"
                        },
                        {
                          "continued": true,
                          "duration_ms": 0,
                          "file": "fail.yaml",
                          "id": null,
                          "kind": "extract",
                          "line": 9,
                          "message": "extract: steps.first: no value at 'records.5' in path 'records.5.number': index 5 out of range (1 element)",
                          "name": "extract at line 9",
                          "number": "2",
                          "status": "failed"
                        },
                        {
                          "continued": false,
                          "duration_ms": 0,
                          "file": "fail.yaml",
                          "id": null,
                          "kind": "assert",
                          "line": 11,
                          "message": "one incident, not 2 (1 == 2 is false)",
                          "name": "assert at line 11",
                          "number": "3",
                          "status": "assertion_failed"
                        },
                        {
                          "continued": false,
                          "duration_ms": 0,
                          "file": "fail.yaml",
                          "id": "later",
                          "kind": "set",
                          "line": 12,
                          "message": "not run: step 3 (assert) failed",
                          "name": "later",
                          "number": "4",
                          "status": "not_run"
                        },
                        {
                          "continued": false,
                          "duration_ms": 0,
                          "file": "fail.yaml",
                          "id": null,
                          "kind": "query",
                          "line": 14,
                          "message": "not run: step 3 (assert) failed",
                          "name": "query at line 14",
                          "number": "5",
                          "status": "not_run"
                        },
                        {
                          "continued": false,
                          "duration_ms": 0,
                          "file": "fail.yaml",
                          "id": "tidy",
                          "kind": "set",
                          "line": 16,
                          "message": "vars.token_used",
                          "name": "tidy",
                          "number": "finally 1",
                          "status": "passed"
                        }
                      ],
                      "vars": {
                        "token": "***",
                        "token_used": "***",
                        "want": 2
                      },
                      "warnings": []
                    },
                    {
                      "diagnostics": [],
                      "dry_run": false,
                      "duration_ms": 0,
                      "ensured": {},
                      "error": null,
                      "error_location": null,
                      "file": "good.yaml",
                      "instance": "",
                      "job": "Good",
                      "outputs": {},
                      "planned_writes": [],
                      "records": [],
                      "results": {},
                      "shard": null,
                      "status": "not_run",
                      "steps": [
                        {
                          "continued": false,
                          "duration_ms": 0,
                          "file": "good.yaml",
                          "id": "first",
                          "kind": "query",
                          "line": 3,
                          "message": "not run: --fail-fast",
                          "name": "first",
                          "number": "1",
                          "status": "not_run"
                        },
                        {
                          "continued": false,
                          "duration_ms": 0,
                          "file": "good.yaml",
                          "id": null,
                          "kind": "set",
                          "line": 6,
                          "message": "not run: --fail-fast",
                          "name": "set at line 6",
                          "number": "finally 1",
                          "status": "not_run"
                        }
                      ],
                      "vars": {},
                      "warnings": []
                    }
                  ],
                  "nowflow_version": "0.1.0",
                  "schema_version": 1,
                  "status": "assertion_failed"
                }

                """)
        ReportCheck.expectValid(result.stdout)
        #expect(
            ReportCheck.normalized(junit) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="nowflow" tests="8" failures="1" errors="1" skipped="4" time="0.000">
                  <testsuite name="Checks &lt;&amp;&gt;" tests="6" failures="1" errors="1" skipped="2" time="0.000" file="fail.yaml">
                    <properties>
                      <property name="nowflow.version" value="0.1.0"/>
                      <property name="instance" value="local"/>
                      <property name="vars.token" value="***"/>
                      <property name="vars.token_used" value="***"/>
                      <property name="vars.want" value="2"/>
                      <property name="outputs.first" value="INC0010001"/>
                    </properties>
                    <testcase classname="Checks &lt;&amp;&gt;" name="first" file="fail.yaml" line="7" time="0.000"/>
                    <testcase classname="Checks &lt;&amp;&gt;" name="extract at line 9" file="fail.yaml" line="9" time="0.000">
                      <error type="error" message="extract: steps.first: no value at &apos;records.5&apos; in path &apos;records.5.number&apos;: index 5 out of range (1 element)">step 2 (extract): extract: steps.first: no value at &apos;records.5&apos; in path &apos;records.5.number&apos;: index 5 out of range (1 element)</error>
                    </testcase>
                    <testcase classname="Checks &lt;&amp;&gt;" name="assert at line 11" file="fail.yaml" line="11" time="0.000">
                      <failure type="assertion" message="one incident, not 2 (1 == 2 is false)">step 3 (assert): one incident, not 2 (1 == 2 is false)</failure>
                    </testcase>
                    <testcase classname="Checks &lt;&amp;&gt;" name="later" file="fail.yaml" line="12" time="0.000">
                      <skipped message="not run: step 3 (assert) failed"/>
                    </testcase>
                    <testcase classname="Checks &lt;&amp;&gt;" name="query at line 14" file="fail.yaml" line="14" time="0.000">
                      <skipped message="not run: step 3 (assert) failed"/>
                    </testcase>
                    <testcase classname="Checks &lt;&amp;&gt;" name="tidy" file="fail.yaml" line="16" time="0.000"/>
                  </testsuite>
                  <testsuite name="Good" tests="2" failures="0" errors="0" skipped="2" time="0.000" file="good.yaml">
                    <properties>
                      <property name="nowflow.version" value="0.1.0"/>
                    </properties>
                    <testcase classname="Good" name="first" file="good.yaml" line="3" time="0.000">
                      <skipped message="not run: --fail-fast"/>
                    </testcase>
                    <testcase classname="Good" name="set at line 6" file="good.yaml" line="6" time="0.000">
                      <skipped message="not run: --fail-fast"/>
                    </testcase>
                  </testsuite>
                </testsuites>

                """)
        #expect(
            try ReportCheck.junitReading(junit) == """
                suite Checks <&>: tests 6, failures 1, errors 1, skipped 2
                  property nowflow.version = 0.1.0
                  property instance = local
                  property vars.token = ***
                  property vars.token_used = ***
                  property vars.want = 2
                  property outputs.first = INC0010001
                  case first (Checks <&>, fail.yaml:7): passed
                  case extract at line 9 (Checks <&>, fail.yaml:9): error: extract: steps.first: no value at 'records.5' in path 'records.5.number': index 5 out of range (1 element)
                  case assert at line 11 (Checks <&>, fail.yaml:11): failure: one incident, not 2 (1 == 2 is false)
                  case later (Checks <&>, fail.yaml:12): skipped: not run: step 3 (assert) failed
                  case query at line 14 (Checks <&>, fail.yaml:14): skipped: not run: step 3 (assert) failed
                  case tidy (Checks <&>, fail.yaml:16): passed
                suite Good: tests 2, failures 0, errors 0, skipped 2
                  property nowflow.version = 0.1.0
                  case first (Good, good.yaml:3): skipped: not run: --fail-fast
                  case set at line 6 (Good, good.yaml:6): skipped: not run: --fail-fast

                """)
    }

    /// A vars file that does not validate is a test suite of its own, and the job's steps are not run.
    @Test(.enabled(if: ReportCheck.python != nil, "no virtualenv with jsonschema and junitparser (scripts/test makes it)"))
    func aVarsFileThatDoesNotValidateIsASuiteOfItsOwn() throws {
        let directory = try home()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(
            ["run", "good.yaml", "--vars-file", "bad-vars.yaml", "--report", "junit:j.xml", "--report", "json:r.json"],
            in: directory)
        #expect(result.status == 1)  // a vars file is configuration: exit 1 (ExitStatusTests)
        ReportCheck.expectValid(try read("r.json", in: directory))
        #expect(
            try read("j.xml", in: directory) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="nowflow" tests="3" failures="1" errors="0" skipped="2" time="0.000">
                  <testsuite name="Good" tests="2" failures="0" errors="0" skipped="2" time="0.000" file="good.yaml">
                    <properties>
                      <property name="nowflow.version" value="0.1.0"/>
                    </properties>
                    <testcase classname="Good" name="first" file="good.yaml" line="3" time="0.000">
                      <skipped message="not run: bad-vars.yaml did not validate"/>
                    </testcase>
                    <testcase classname="Good" name="set at line 6" file="good.yaml" line="6" time="0.000">
                      <skipped message="not run: bad-vars.yaml did not validate"/>
                    </testcase>
                  </testsuite>
                  <testsuite name="bad-vars.yaml" tests="1" failures="1" errors="0" skipped="0" time="0.000" file="bad-vars.yaml">
                    <properties>
                      <property name="nowflow.version" value="0.1.0"/>
                    </properties>
                    <testcase classname="bad-vars.yaml" name="bad-vars.yaml:2:1" file="bad-vars.yaml" line="2" time="0.000">
                      <failure type="invalid" message="did not find expected &apos;,&apos; or &apos;]&apos; (while parsing a flow sequence at line 1, column 7)">bad-vars.yaml:2:1: error: did not find expected &apos;,&apos; or &apos;]&apos; (while parsing a flow sequence at line 1, column 7)&#10;&#10;^</failure>
                    </testcase>
                  </testsuite>
                </testsuites>

                """)
    }

    /// A job whose instance cannot be used does not start: exit 1 as before, and a test case `(job)` carries the
    /// error, so that the CI shows the run failed; the password of the instance's URL appears nowhere.
    @Test(.enabled(if: ReportCheck.python != nil, "no virtualenv with jsonschema and junitparser (scripts/test makes it)"))
    func aJobThatCannotStartHasItsErrorAsATestCase() throws {
        let directory = try home()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(
            [
                "run", "good.yaml", "--instance", "http://bob:hunter2@example.com", "--report", "junit:j.xml", "--report",
                "json:r.json",
            ], in: directory)
        #expect(result.status == 1)
        let json = try read("r.json", in: directory)
        for text in [result.stdout, result.stderr, json, try read("j.xml", in: directory)] {
            #expect(!text.contains("hunter2"))
        }
        ReportCheck.expectValid(json)
        #expect(
            json == """
                {
                  "jobs": [
                    {
                      "diagnostics": [],
                      "dry_run": false,
                      "duration_ms": 0,
                      "ensured": {},
                      "error": "instance 'http://example.com': plain http:// is only for this machine (loopback); use https:// for another host, so that credentials do not travel unencrypted",
                      "error_location": null,
                      "file": "good.yaml",
                      "instance": "http://example.com",
                      "job": "Good",
                      "outputs": {},
                      "planned_writes": [],
                      "records": [],
                      "results": {},
                      "shard": null,
                      "status": "failed",
                      "steps": [
                        {
                          "continued": false,
                          "duration_ms": 0,
                          "file": "good.yaml",
                          "id": "first",
                          "kind": "query",
                          "line": 3,
                          "message": "not run: its instance could not be opened",
                          "name": "first",
                          "number": "1",
                          "status": "not_run"
                        },
                        {
                          "continued": false,
                          "duration_ms": 0,
                          "file": "good.yaml",
                          "id": null,
                          "kind": "set",
                          "line": 6,
                          "message": "not run: its instance could not be opened",
                          "name": "set at line 6",
                          "number": "finally 1",
                          "status": "not_run"
                        }
                      ],
                      "vars": {},
                      "warnings": []
                    }
                  ],
                  "nowflow_version": "0.1.0",
                  "schema_version": 1,
                  "status": "failed"
                }

                """)
        #expect(
            try read("j.xml", in: directory) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="nowflow" tests="3" failures="0" errors="1" skipped="2" time="0.000">
                  <testsuite name="Good" tests="3" failures="0" errors="1" skipped="2" time="0.000" file="good.yaml">
                    <properties>
                      <property name="nowflow.version" value="0.1.0"/>
                      <property name="instance" value="http://example.com"/>
                    </properties>
                    <testcase classname="Good" name="(job)" file="good.yaml" line="0" time="0.000">
                      <error type="failed" message="instance &apos;http://example.com&apos;: plain http:// is only for this machine (loopback); use https:// for another host, so that credentials do not travel unencrypted">instance &apos;http://example.com&apos;: plain http:// is only for this machine (loopback); use https:// for another host, so that credentials do not travel unencrypted</error>
                    </testcase>
                    <testcase classname="Good" name="first" file="good.yaml" line="3" time="0.000">
                      <skipped message="not run: its instance could not be opened"/>
                    </testcase>
                    <testcase classname="Good" name="set at line 6" file="good.yaml" line="6" time="0.000">
                      <skipped message="not run: its instance could not be opened"/>
                    </testcase>
                  </testsuite>
                </testsuites>

                """)
    }

    /// A table name the instance does not know refuses the job (exit 2): the name check's diagnostic is a failing
    /// test case, the steps are not run.
    @Test(.enabled(if: ReportCheck.python != nil, "no virtualenv with jsonschema and junitparser (scripts/test makes it)"))
    func namesThatDoNotCheckAreFailingTests() throws {
        let directory = try home()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(
            ["run", "typo.yaml", "--report", "junit:j.xml", "--report", "json:r.json"], in: directory)
        #expect(result.status == 2)
        ReportCheck.expectValid(try read("r.json", in: directory))
        #expect(
            try read("j.xml", in: directory) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="nowflow" tests="2" failures="1" errors="0" skipped="1" time="0.000">
                  <testsuite name="Typo" tests="2" failures="1" errors="0" skipped="1" time="0.000" file="typo.yaml">
                    <properties>
                      <property name="nowflow.version" value="0.1.0"/>
                      <property name="instance" value="local"/>
                    </properties>
                    <testcase classname="Typo" name="typo.yaml:4:21" file="typo.yaml" line="4" time="0.000">
                      <failure type="invalid" message="unknown table &apos;incidnet&apos;; did you mean &apos;incident&apos;?">typo.yaml:4:21: error: unknown table &apos;incidnet&apos;; did you mean &apos;incident&apos;?</failure>
                    </testcase>
                    <testcase classname="Typo" name="list" file="typo.yaml" line="3" time="0.000">
                      <skipped message="not run: its table and field names did not check"/>
                    </testcase>
                  </testsuite>
                </testsuites>

                """)
    }

    /// A foreach body's steps are test cases for each item, named after it; an included job's steps carry its file
    /// and line, and those after its failed assert are listed as not run.
    @Test(.enabled(if: ReportCheck.python != nil, "no virtualenv with jsonschema and junitparser (scripts/test makes it)"))
    func foreachItemsAndIncludedStepsAreNamedAndPlaced() throws {
        let directory = try home()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(
            ["run", "outer.yaml", "--report", "junit:j.xml", "--report", "json:r.json"], in: directory)
        #expect(result.status == 4)
        ReportCheck.expectValid(try read("r.json", in: directory))
        #expect(
            ReportCheck.normalized(try read("j.xml", in: directory)) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="nowflow" tests="7" failures="2" errors="0" skipped="1" time="0.000">
                  <testsuite name="Outer" tests="7" failures="2" errors="0" skipped="1" time="0.000" file="outer.yaml">
                    <properties>
                      <property name="nowflow.version" value="0.1.0"/>
                      <property name="instance" value="local"/>
                      <property name="vars.x" value="2"/>
                    </properties>
                    <testcase classname="Outer" name="item [0]" file="outer.yaml" line="6" time="0.000"/>
                    <testcase classname="Outer" name="item [1]" file="outer.yaml" line="6" time="0.000"/>
                    <testcase classname="Outer" name="each" file="outer.yaml" line="3" time="0.000"/>
                    <testcase classname="Outer" name="one" file="shared/inner.yaml" line="3" time="0.000"/>
                    <testcase classname="Outer" name="assert at line 5" file="shared/inner.yaml" line="5" time="0.000">
                      <failure type="assertion" message="assertion failed: vars.a == 2 (1 == 2 is false)">step 2.2 (assert): assertion failed: vars.a == 2 (1 == 2 is false)</failure>
                    </testcase>
                    <testcase classname="Outer" name="never" file="shared/inner.yaml" line="6" time="0.000">
                      <skipped message="not run: step 2.2 (assert) failed"/>
                    </testcase>
                    <testcase classname="Outer" name="inner" file="outer.yaml" line="8" time="0.000">
                      <failure type="assertion" message="shared/inner.yaml: step 2.2 (assert): assertion failed: vars.a == 2 (1 == 2 is false)">step 2 &apos;inner&apos; (include): shared/inner.yaml: step 2.2 (assert): assertion failed: vars.a == 2 (1 == 2 is false)</failure>
                    </testcase>
                  </testsuite>
                </testsuites>

                """)
    }

    /// In a foreach, the steps of the item that failed after its failed step are listed as not run, its items run one
    /// at a time or in parallel; every step carries the job file.
    @Test(
        .enabled(if: ReportCheck.python != nil, "no virtualenv with jsonschema and junitparser (scripts/test makes it)"),
        arguments: [1, 2])
    func aFailedItemsRemainingStepsAreListedAsNotRun(parallel: Int) throws {
        let directory = try home()
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = directory.appendingPathComponent("items.yaml")
        let text = try String(contentsOf: job, encoding: .utf8)
        try text.replacingOccurrences(of: "    parallel: 1", with: "    parallel: \(parallel)")
            .write(to: job, atomically: true, encoding: .utf8)
        let result = try ToolInvocation.run(
            ["run", "items.yaml", "--report", "junit:j.xml", "--report", "json:r.json"], in: directory)
        #expect(result.status == 4)
        ReportCheck.expectValid(try read("r.json", in: directory))
        #expect(
            ReportCheck.normalized(try read("j.xml", in: directory)) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="nowflow" tests="6" failures="2" errors="0" skipped="2" time="0.000">
                  <testsuite name="Items" tests="6" failures="2" errors="0" skipped="2" time="0.000" file="items.yaml">
                    <properties>
                      <property name="nowflow.version" value="0.1.0"/>
                      <property name="instance" value="local"/>
                      <property name="vars.seen" value="1"/>
                    </properties>
                    <testcase classname="Items" name="check [0]" file="items.yaml" line="7" time="0.000"/>
                    <testcase classname="Items" name="after [0]" file="items.yaml" line="9" time="0.000"/>
                    <testcase classname="Items" name="check [1]" file="items.yaml" line="7" time="0.000">
                      <failure type="assertion" message="assertion failed: item == 1 (2 == 1 is false)">step 1[1].1 &apos;check&apos; (assert): assertion failed: item == 1 (2 == 1 is false)</failure>
                    </testcase>
                    <testcase classname="Items" name="after [1]" file="items.yaml" line="9" time="0.000">
                      <skipped message="not run: step 1[1].1 &apos;check&apos; (assert) failed"/>
                    </testcase>
                    <testcase classname="Items" name="each" file="items.yaml" line="3" time="0.000">
                      <failure type="assertion" message="item 1 failed: step 1[1].1 &apos;check&apos; (assert): assertion failed: item == 1 (2 == 1 is false)">step 1 &apos;each&apos; (foreach): item 1 failed: step 1[1].1 &apos;check&apos; (assert): assertion failed: item == 1 (2 == 1 is false)</failure>
                    </testcase>
                    <testcase classname="Items" name="later" file="items.yaml" line="11" time="0.000">
                      <skipped message="not run: step 1 &apos;each&apos; (foreach) failed"/>
                    </testcase>
                  </testsuite>
                </testsuites>

                """)
    }

    /// A `--var` no job declares is a usage error (exit 1), after the reports say so: the job's error as a test case,
    /// its steps not run.
    @Test func aRefusedCommandLineStillGetsItsReport() throws {
        let directory = try home()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(["run", "good.yaml", "--var", "nope=1", "--report", "junit:j.xml"], in: directory)
        #expect(result.status == 1)
        #expect(
            try read("j.xml", in: directory) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="nowflow" tests="3" failures="0" errors="1" skipped="2" time="0.000">
                  <testsuite name="Good" tests="3" failures="0" errors="1" skipped="2" time="0.000" file="good.yaml">
                    <properties>
                      <property name="nowflow.version" value="0.1.0"/>
                    </properties>
                    <testcase classname="Good" name="(job)" file="good.yaml" line="0" time="0.000">
                      <error type="failed" message="--var nope: the job has no variable &apos;nope&apos; under vars: (it declares none)">--var nope: the job has no variable &apos;nope&apos; under vars: (it declares none)</error>
                    </testcase>
                    <testcase classname="Good" name="first" file="good.yaml" line="3" time="0.000">
                      <skipped message="not run: the command line was refused"/>
                    </testcase>
                    <testcase classname="Good" name="set at line 6" file="good.yaml" line="6" time="0.000">
                      <skipped message="not run: the command line was refused"/>
                    </testcase>
                  </testsuite>
                </testsuites>

                """)
    }

    /// A foreach whose results nothing uses counts its items past the first 1000: the JSON report's `unlisted`
    /// (valid against the schema), a JUnit property, the summary's line; its listed items are test cases as before.
    @Test(.enabled(if: ReportCheck.python != nil, "no virtualenv with jsonschema and junitparser (scripts/test makes it)"))
    func foreachItemsPastTheListedOnesAreCountedInTheReports() throws {
        let directory = try home()
        defer { try? FileManager.default.removeItem(at: directory) }
        let items = (0..<1_002).map(String.init).joined(separator: ", ")
        try """
            name: Many
            steps:
              - id: each
                foreach: "[\(items)]"
                steps:
                  - set: { seen: "${item}" }
                  - assert: "item >= 0"
                    when: "item < 1001"

            """.write(to: directory.appendingPathComponent("many.yaml"), atomically: true, encoding: .utf8)
        let result = try ToolInvocation.run(
            ["run", "many.yaml", "--report", "junit:j.xml", "--report", "json:r.json"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "ok   step 1 'each' (foreach): 1002 items; 2 items not listed (past the first 1000): steps 3 passed, 1 skipped ("))
        #expect(result.stdout.contains("\nforeach: 2 items not listed (past the first 1000): steps 3 passed, 1 skipped\n"))
        let json = try read("r.json", in: directory)
        ReportCheck.expectValid(json)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let job = try #require((report["jobs"] as? [[String: Any]])?.first)
        #expect((job["steps"] as? [Any])?.count == 2 * 1_000 + 1)
        #expect(
            (job["unlisted"] as? NSDictionary)
                == ["items": 2, "steps": ["passed": 3, "skipped": 1], "records": [:] as [String: Int]] as NSDictionary)
        let each = try #require((job["results"] as? [String: Any])?["each"] as? [String: Any])
        #expect((each["results"] as? [Any])?.count == 1_000)
        #expect(each["count"] as? Int == 1_002)
        let junit = try ReportCheck.junitReading(try read("j.xml", in: directory))
        #expect(
            junit.contains("property unlisted = 2 items not listed (past the first 1000): steps 3 passed, 1 skipped"),
            "\(junit.prefix(600))")
    }
}
