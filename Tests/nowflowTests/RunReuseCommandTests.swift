import Foundation
import Testing

/// `nowflow run` with several job files, `--vars-file`, `--tags`/`--skip-tags` and `--fail-fast`.
@Suite struct RunReuseCommandTests {
    private func home(_ files: [String: String]) throws -> URL {
        let directory = try ToolInvocation.temporaryDirectory()
        for (name, text) in files {
            try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return directory
    }

    private func normalized(_ text: String) -> String {
        text.replacingOccurrences(of: #"\d+ ms"#, with: "N ms", options: .regularExpression)
            .replacingOccurrences(of: #"time="[0-9.]+""#, with: #"time="T""#, options: .regularExpression)
    }

    static let files = [
        "first.yaml": """
            name: First
            vars: { want: 5 }
            steps:
              - id: open
                query: { table: incident, where: { active: true, priority: 1 } }
                tags: [read]
              - assert: "steps.open.count == vars.want"
            outputs:
              open: steps.open.count
            """,
        "second.yaml": """
            name: Second
            vars: { caller: abel.tuter }
            steps:
              - id: user
                query: { table: sys_user, where: { user_name: "${vars.caller}" }, limit: 1 }
                tags: [read]
              - assert: "steps.user.count == 1"
            """,
        "prod.yaml": "want: 4\ncaller: beth.anglin\n",
        "bad.json": #"{"want": "five"}"#,
    ]

    @Test func severalJobsRunInOrderWithOneTestSuiteEach() throws {
        let directory = try home(Self.files)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(
            ["run", "first.yaml", "second.yaml", "--quiet", "--report", "junit:report.xml"], in: directory)
        #expect(result.status == 0)
        // --quiet: each job's name, and no step line (none failed).
        #expect(
            normalized(result.stderr) == """
                nowflow run: first.yaml (First)
                nowflow run: second.yaml (Second)

                """)
        #expect(
            normalized(result.stdout) == """
                First: passed (2 steps run, N ms)
                outputs:
                  open = 5
                Second: passed (2 steps run, N ms)

                """)
        let report = try String(contentsOf: directory.appendingPathComponent("report.xml"), encoding: .utf8)
        #expect(
            normalized(report) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="nowflow" tests="4" failures="0" errors="0" skipped="0" time="T">
                  <testsuite name="First" tests="2" failures="0" errors="0" skipped="0" time="T" file="first.yaml">
                    <properties>
                      <property name="nowflow.version" value="0.1.0"/>
                      <property name="instance" value="local"/>
                      <property name="vars.want" value="5"/>
                      <property name="outputs.open" value="5"/>
                    </properties>
                    <testcase classname="First" name="open" file="first.yaml" line="4" time="T"/>
                    <testcase classname="First" name="assert at line 7" file="first.yaml" line="7" time="T"/>
                  </testsuite>
                  <testsuite name="Second" tests="2" failures="0" errors="0" skipped="0" time="T" file="second.yaml">
                    <properties>
                      <property name="nowflow.version" value="0.1.0"/>
                      <property name="instance" value="local"/>
                      <property name="vars.caller" value="abel.tuter"/>
                    </properties>
                    <testcase classname="Second" name="user" file="second.yaml" line="4" time="T"/>
                    <testcase classname="Second" name="assert at line 7" file="second.yaml" line="7" time="T"/>
                  </testsuite>
                </testsuites>

                """)
    }

    @Test func severalJobsGiveOneJSONReport() throws {
        let directory = try home(Self.files)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(
            ["run", "first.yaml", "second.yaml", "--output", "json", "--var", "want=4"], in: directory)
        #expect(result.status == 4)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(report.keys.sorted() == ["jobs", "nowflow_version", "schema_version", "status"])
        ReportCheck.expectValid(result.stdout)
        #expect(report["status"] as? String == "assertion_failed")
        let jobs = try #require(report["jobs"] as? [[String: Any]])
        #expect(jobs.map { $0["job"] as? String } == ["First", "Second"])
        #expect(jobs.map { $0["status"] as? String } == ["assertion_failed", "passed"])
    }

    @Test func aVarsFileSetsTheVariablesOfEachJobAndFailFastStopsAtTheFirstFailure() throws {
        let directory = try home(Self.files)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(
            ["run", "first.yaml", "second.yaml", "--vars-file", "prod.yaml", "--quiet", "--fail-fast"], in: directory)
        #expect(result.status == 4)
        #expect(
            normalized(result.stdout) == """
                First: assertion failed (2 steps run, N ms)
                  first.yaml:7:5: step 2 (assert): assertion failed: steps.open.count == vars.want (5 == 4 is false)
                outputs:
                  open = 5
                not run (--fail-fast): second.yaml

                """)
        // --var wins over the vars file; without --fail-fast every job runs, and the exit status is the first
        // failure's.
        let both = try ToolInvocation.run(
            ["run", "second.yaml", "first.yaml", "--vars-file", "prod.yaml", "--var", "want=5", "--quiet"],
            in: directory)
        #expect(both.status == 0, "\(both.stdout)")
        let all = try ToolInvocation.run(
            ["run", "first.yaml", "second.yaml", "--vars-file", "prod.yaml", "--quiet"], in: directory)
        #expect(all.status == 4)
        #expect(all.stdout.contains("Second: passed"))
    }

    @Test(arguments: [
        (["first.yaml", "--vars-file", "bad.json"], "nowflow run: --vars-file bad.json: vars.want is a number (declared 5), not a string"),
        (["first.yaml", "--vars-file", "prod.yaml"], "nowflow run: --vars-file prod.yaml: the job has no variable 'caller' (it declares want)"),
        (["first.yaml", "second.yaml", "--var", "nobody=1"], "nowflow run: --var nobody: no job declares a variable 'nobody'"),
        (["first.yaml", "--tags", "write"], "nowflow run: --tags write: no step has the tag 'write' (the tags are read)"),
        (["first.yaml", "--skip-tags", "read,"], "nowflow run: --skip-tags expects tag names separated by commas"),
    ])
    func refusedBeforeAnythingRuns(_ arguments: [String], _ message: String) throws {
        let directory = try home(Self.files)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(["run"] + arguments, in: directory)
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == message + "\nsee 'nowflow run --help'\n")
    }

    @Test func tagsChooseTheStepsOfEveryJob() throws {
        let directory = try home(Self.files)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(["run", "first.yaml", "--tags", "read"], in: directory)
        #expect(result.status == 0)
        #expect(
            normalized(result.stderr) == """
                ok   step 1 'open' (query): 5 records from incident (N ms)
                skip step 2 (assert): not chosen by --tags read (it has no tags) (N ms)

                """)
    }

    /// An output that reads a step `--skip-tags` left out is null with a warning: every step that ran passed, so
    /// the run passes.
    @Test func anOutputOfAStepLeftOutByTagsIsNullWithAWarning() throws {
        let directory = try home([
            "smoke.yaml": """
                name: Smoke
                steps:
                  - id: open
                    query: { table: incident, where: { active: true, priority: 1 } }
                    tags: [smoke]
                  - id: users
                    query: { table: sys_user, where: { user_name: abel.tuter }, limit: 1 }
                outputs:
                  open: steps.open.count
                  users: steps.users.count
                """
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(
            ["run", "smoke.yaml", "--skip-tags", "smoke", "--quiet", "--report", "json:report.json"], in: directory)
        #expect(result.status == 0)
        #expect(
            normalized(result.stdout) == """
                Smoke: passed (1 step run, N ms)
                outputs:
                  open = null
                  users = 1
                warning: outputs.open is null: steps.open.count reads steps.open, skipped by --skip-tags smoke

                """)
        let report = try String(contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8)
        ReportCheck.expectValid(report)
        let jobs = try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any]
        #expect(
            (jobs?["jobs"] as? [[String: Any]])?.first?["warnings"] as? [String] == [
                "outputs.open is null: steps.open.count reads steps.open, skipped by --skip-tags smoke"
            ])
    }

    @Test func theNamesOfAnIncludedFileAreCheckedInIt() throws {
        let directory = try home([
            "typo.yaml": """
                name: Typo
                steps:
                  - query: { table: incident, where: { priorty: 1 }, limit: 1 }
                """,
            "main.yaml": """
                name: Main
                steps:
                  - include: { file: typo.yaml }
                """,
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(["run", "main.yaml"], in: directory)
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == "typo.yaml:3:40: error: unknown field 'priorty' in incident; did you mean 'priority'?\n")
    }
}
