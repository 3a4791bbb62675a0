import Foundation
import Synchronization
import Testing
import TestSupport

/// `nowflow run --shard K/N` and `nowflow report merge` through the built binary (issue 26): the shards' reports
/// say which shard they are, merge into one report of the same contract (compared whole, validated against
/// `docs/report.schema.json`), and four shards against one `nowflow serve` handle every record exactly once.
@Suite struct ShardCommandTests {
    /// Records whose sys_ids hash (FNV-1a 64, modulo 2) to shard 2 (`a1`, `b2`) and shard 1 (`a`).
    static let job = """
        name: Split
        vars:
          records:
            - { sys_id: a1, number: R1 }
            - { sys_id: a, number: R2 }
            - { sys_id: b2, number: R3 }
        steps:
          - id: each
            foreach: vars.records
            as: record
            steps:
              - id: check
                assert: { that: "record.number != 'R3'", message: "not R3" }
          - id: summary
            once: true
            set: { done: true }
        """

    private func directory(_ files: [String: String] = ["job.yaml": job]) throws -> URL {
        let directory = try ToolInvocation.temporaryDirectory()
        for (name, text) in files {
            try (text + "\n").write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return directory
    }

    private func read(_ name: String, in directory: URL) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    /// Runs the two shards of ``job``: shard 1 passes, shard 2 meets R3 and fails its assertion.
    private func runShards(in directory: URL) throws {
        let first = try ToolInvocation.run(
            ["run", "job.yaml", "--shard", "1/2", "--offline", "--quiet", "--report", "json:s1.json"], in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        let second = try ToolInvocation.run(
            ["run", "job.yaml", "--shard=2/2", "--offline", "--quiet", "--report", "json:s2.json"], in: directory)
        #expect(second.status == 4, "\(second.stderr)")
    }

    @Test func aBadShardIsAUsageError() throws {
        let directory = try directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let messages = try ["0/4", "5/4", "1/0", "garbage"].map { shard in
            let result = try ToolInvocation.run(["run", "job.yaml", "--shard", shard], in: directory)
            #expect(result.status == 1)
            #expect(result.stdout == "")
            return result.stderr
        }
        #expect(
            messages == [
                "nowflow run: --shard 0/4: the shard must be from 1 to 4, not 0\nsee 'nowflow run --help'\n",
                "nowflow run: --shard 5/4: the shard must be from 1 to 4, not 5\nsee 'nowflow run --help'\n",
                "nowflow run: --shard 1/0: the number of shards must be at least 1, not 0\nsee 'nowflow run --help'\n",
                "nowflow run: --shard expects K/N, shard K of N (such as 2/4), got 'garbage'\nsee 'nowflow run --help'\n",
            ])
    }

    /// The shards' reports merge into one: each shard's jobs in shard order, the suites named by shard; the exit
    /// status is that of the first shard that did not pass (shard 2's assertion: 4).
    @Test(.enabled(if: ReportCheck.python != nil, "no virtualenv with jsonschema and junitparser (scripts/test makes it)"))
    func theShardsReportsMergeIntoOneReport() throws {
        let directory = try directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try runShards(in: directory)
        let shardReport = try read("s2.json", in: directory)
        ReportCheck.expectValid(shardReport)
        // Given in any order, the shards are merged in shard order.
        let merged = try ToolInvocation.run(
            ["report", "merge", "--report", "json:all.json", "--report", "junit:all.xml", "s2.json", "s1.json"],
            in: directory)
        #expect(merged.status == 4, "\(merged.stderr)")
        #expect(merged.stdout == "")
        #expect(merged.stderr == "")
        let json = ReportCheck.normalized(try read("all.json", in: directory))
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
                      "error": null,
                      "error_location": null,
                      "file": "job.yaml",
                      "instance": "local",
                      "job": "Split",
                      "outputs": {},
                      "planned_writes": [],
                      "records": [],
                      "results": {
                        "each": {
                          "count": 1,
                          "results": [
                            {
                              "check": {
                                "passed": true
                              }
                            }
                          ]
                        },
                        "summary": {
                          "done": true
                        }
                      },
                      "shard": {
                        "count": 2,
                        "index": 1
                      },
                      "status": "passed",
                      "steps": [
                        {
                          "continued": false,
                          "duration_ms": 0,
                          "file": "job.yaml",
                          "id": "check",
                          "kind": "assert",
                          "line": 12,
                          "message": "holds: record.number != 'R3'",
                          "name": "check [0]",
                          "number": "1[0].1",
                          "status": "passed"
                        },
                        {
                          "continued": false,
                          "duration_ms": 0,
                          "file": "job.yaml",
                          "id": "each",
                          "kind": "foreach",
                          "line": 8,
                          "message": "1 of 3 items (shard 1/2)",
                          "name": "each",
                          "number": "1",
                          "status": "passed"
                        },
                        {
                          "continued": false,
                          "duration_ms": 0,
                          "file": "job.yaml",
                          "id": "summary",
                          "kind": "set",
                          "line": 14,
                          "message": "vars.done",
                          "name": "summary",
                          "number": "2",
                          "status": "passed"
                        }
                      ],
                      "vars": {
                        "done": true,
                        "records": [
                          {
                            "number": "R1",
                            "sys_id": "a1"
                          },
                          {
                            "number": "R2",
                            "sys_id": "a"
                          },
                          {
                            "number": "R3",
                            "sys_id": "b2"
                          }
                        ]
                      },
                      "warnings": []
                    },
                    {
                      "diagnostics": [],
                      "dry_run": false,
                      "duration_ms": 0,
                      "ensured": {},
                      "error": "step 1 'each' (foreach): item 1 failed: step 1[1].1 'check' (assert): not R3 ('R3' != 'R3' is false)",
                      "error_location": "job.yaml:8:5",
                      "file": "job.yaml",
                      "instance": "local",
                      "job": "Split",
                      "outputs": {},
                      "planned_writes": [],
                      "records": [],
                      "results": {},
                      "shard": {
                        "count": 2,
                        "index": 2
                      },
                      "status": "assertion_failed",
                      "steps": [
                        {
                          "continued": false,
                          "duration_ms": 0,
                          "file": "job.yaml",
                          "id": "check",
                          "kind": "assert",
                          "line": 12,
                          "message": "holds: record.number != 'R3'",
                          "name": "check [0]",
                          "number": "1[0].1",
                          "status": "passed"
                        },
                        {
                          "continued": false,
                          "duration_ms": 0,
                          "file": "job.yaml",
                          "id": "check",
                          "kind": "assert",
                          "line": 12,
                          "message": "not R3 ('R3' != 'R3' is false)",
                          "name": "check [1]",
                          "number": "1[1].1",
                          "status": "assertion_failed"
                        },
                        {
                          "continued": false,
                          "duration_ms": 0,
                          "file": "job.yaml",
                          "id": "each",
                          "kind": "foreach",
                          "line": 8,
                          "message": "item 1 failed: step 1[1].1 'check' (assert): not R3 ('R3' != 'R3' is false)",
                          "name": "each",
                          "number": "1",
                          "status": "assertion_failed"
                        },
                        {
                          "continued": false,
                          "duration_ms": 0,
                          "file": "job.yaml",
                          "id": "summary",
                          "kind": "set",
                          "line": 14,
                          "message": "not run: step 1 'each' (foreach) failed",
                          "name": "summary",
                          "number": "2",
                          "status": "not_run"
                        }
                      ],
                      "vars": {
                        "records": [
                          {
                            "number": "R1",
                            "sys_id": "a1"
                          },
                          {
                            "number": "R2",
                            "sys_id": "a"
                          },
                          {
                            "number": "R3",
                            "sys_id": "b2"
                          }
                        ]
                      },
                      "warnings": []
                    }
                  ],
                  "nowflow_version": "0.1.0",
                  "schema_version": 1,
                  "status": "assertion_failed"
                }

                """)
        #expect(
            ReportCheck.normalized(try read("all.xml", in: directory)) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="nowflow" tests="7" failures="2" errors="0" skipped="1" time="0.000">
                  <testsuite name="Split (shard 1/2)" tests="3" failures="0" errors="0" skipped="0" time="0.000" file="job.yaml">
                    <properties>
                      <property name="nowflow.version" value="0.1.0"/>
                      <property name="instance" value="local"/>
                      <property name="shard" value="1/2"/>
                      <property name="vars.done" value="true"/>
                      <property name="vars.records" value="[{&quot;number&quot;:&quot;R1&quot;,&quot;sys_id&quot;:&quot;a1&quot;},{&quot;number&quot;:&quot;R2&quot;,&quot;sys_id&quot;:&quot;a&quot;},{&quot;number&quot;:&quot;R3&quot;,&quot;sys_id&quot;:&quot;b2&quot;}]"/>
                    </properties>
                    <testcase classname="Split (shard 1/2)" name="check [0]" file="job.yaml" line="12" time="0.000"/>
                    <testcase classname="Split (shard 1/2)" name="each" file="job.yaml" line="8" time="0.000"/>
                    <testcase classname="Split (shard 1/2)" name="summary" file="job.yaml" line="14" time="0.000"/>
                  </testsuite>
                  <testsuite name="Split (shard 2/2)" tests="4" failures="2" errors="0" skipped="1" time="0.000" file="job.yaml">
                    <properties>
                      <property name="nowflow.version" value="0.1.0"/>
                      <property name="instance" value="local"/>
                      <property name="shard" value="2/2"/>
                      <property name="vars.records" value="[{&quot;number&quot;:&quot;R1&quot;,&quot;sys_id&quot;:&quot;a1&quot;},{&quot;number&quot;:&quot;R2&quot;,&quot;sys_id&quot;:&quot;a&quot;},{&quot;number&quot;:&quot;R3&quot;,&quot;sys_id&quot;:&quot;b2&quot;}]"/>
                    </properties>
                    <testcase classname="Split (shard 2/2)" name="check [0]" file="job.yaml" line="12" time="0.000"/>
                    <testcase classname="Split (shard 2/2)" name="check [1]" file="job.yaml" line="12" time="0.000">
                      <failure type="assertion" message="not R3 (&apos;R3&apos; != &apos;R3&apos; is false)">step 1[1].1 &apos;check&apos; (assert): not R3 (&apos;R3&apos; != &apos;R3&apos; is false)</failure>
                    </testcase>
                    <testcase classname="Split (shard 2/2)" name="each" file="job.yaml" line="8" time="0.000">
                      <failure type="assertion" message="item 1 failed: step 1[1].1 &apos;check&apos; (assert): not R3 (&apos;R3&apos; != &apos;R3&apos; is false)">step 1 &apos;each&apos; (foreach): item 1 failed: step 1[1].1 &apos;check&apos; (assert): not R3 (&apos;R3&apos; != &apos;R3&apos; is false)</failure>
                    </testcase>
                    <testcase classname="Split (shard 2/2)" name="summary" file="job.yaml" line="14" time="0.000">
                      <skipped message="not run: step 1 &apos;each&apos; (foreach) failed"/>
                    </testcase>
                  </testsuite>
                </testsuites>

                """)
    }

    @Test func reportsThatDoNotGoTogetherAreRefused() throws {
        let directory = try directory([
            "job.yaml": Self.job,
            "other.yaml": "name: Other\nsteps:\n  - set: { x: 1 }",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        try runShards(in: directory)
        let plain = try ToolInvocation.run(["run", "job.yaml", "--offline", "--quiet", "--report", "json:plain.json"], in: directory)
        #expect(plain.status == 4)
        let third = try ToolInvocation.run(
            ["run", "job.yaml", "--offline", "--quiet", "--shard", "1/3", "--report", "json:t1.json"], in: directory)
        #expect(third.status == 0)
        let other = try ToolInvocation.run(
            ["run", "other.yaml", "--offline", "--quiet", "--shard", "2/2", "--report", "json:o2.json"], in: directory)
        #expect(other.status == 0)
        let version = try read("s2.json", in: directory).replacingOccurrences(
            of: #""schema_version": 1"#, with: #""schema_version": 2"#)
        try version.write(to: directory.appendingPathComponent("v2.json"), atomically: true, encoding: .utf8)
        let broken = try read("s2.json", in: directory).replacingOccurrences(
            of: #""status": "assertion_failed","#, with: #""status": 4,"#)
        try broken.write(to: directory.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        try "[1, 2".write(to: directory.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)

        let cases: [[String]] = [
            ["s1.json", "s1.json"], ["s1.json"], ["s1.json", "plain.json"], ["s1.json", "t1.json"],
            ["s1.json", "o2.json"], ["s1.json", "v2.json"], ["s1.json", "broken.json"], ["missing.json"], [],
        ]
        var errors: [String] = []
        for files in cases {
            let result = try ToolInvocation.run(["report", "merge"] + files, in: directory)
            #expect(result.status == 1)
            #expect(result.stdout == "")
            errors.append(result.stderr)
        }
        #expect(
            errors == [
                "nowflow report merge: shard 1/2 is given twice: s1.json and s1.json\n",
                "nowflow report merge: shard 2/2 missing: a merged report has every shard\n",
                "nowflow report merge: plain.json: not a shard's report (it was not written by nowflow run --shard K/N)\n",
                "nowflow report merge: s1.json is shard 1/2 but t1.json is shard 1/3: the shards of one run share N\n",
                "nowflow report merge: o2.json ran other.yaml, not the job files of s1.json (job.yaml)\n",
                "nowflow report merge: v2.json: schema_version: 2; this nowflow merges reports of schema_version 1\n",
                "nowflow report merge: broken.json: jobs[0].status: expected a text\n",
                "nowflow report merge: cannot read missing.json: The operation could not be completed. The file doesn’t exist.\n",
                "nowflow report merge: no report given\nsee 'nowflow report merge --help'\n",
            ])
        let unknown = try ToolInvocation.run(["report", "mrege", "s1.json"], in: directory)
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "nowflow report: unknown subcommand 'mrege'; the subcommand is merge\nsee 'nowflow report merge --help'\n")
        let none = try ToolInvocation.run(["report"], in: directory)
        #expect(none.status == 1)
        #expect(none.stderr == "nowflow report: no subcommand given; the subcommand is merge\nsee 'nowflow report merge --help'\n")
        let notJSON = try ToolInvocation.run(["report", "merge", "bad.json"], in: directory)
        #expect(notJSON.status == 1)
        #expect(notJSON.stderr.hasPrefix("nowflow report merge: bad.json: not JSON: "), "\(notJSON.stderr)")
    }

    /// The merged report is written by the same code as a run's: merging the one report of a run of one shard
    /// gives that report back, byte for byte, in JSON and in JUnit.
    @Test func theReportOfOneShardMergesIntoItself() throws {
        let directory = try directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try ToolInvocation.run(
            ["run", "job.yaml", "--shard", "1/1", "--offline", "--quiet", "--report", "json:s.json", "--report", "junit:s.xml"],
            in: directory)
        #expect(run.status == 4, "\(run.stderr)")
        let merged = try ToolInvocation.run(
            ["report", "merge", "s.json", "--report", "json:all.json", "--report", "junit:all.xml"], in: directory)
        #expect(merged.status == 4, "\(merged.stderr)")
        #expect(try read("all.json", in: directory) == (try read("s.json", in: directory)))
        #expect(try read("all.xml", in: directory) == (try read("s.xml", in: directory)))
    }

    /// A dry run of a shard lists the writes of its own records only.
    @Test func aDryRunOfAShardPlansItsRecordsWrites() throws {
        let directory = try directory([
            "job.yaml": """
                name: Close
                steps:
                  - id: open
                    query: { table: incident, query: active=true, fields: [sys_id], order_by: number }
                  - foreach: steps.open.records
                    as: incident
                    steps:
                      - update: { table: incident, sys_id: "${incident.sys_id}", fields: { state: 7 } }
                """
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        var planned: [[String]] = []
        for index in 1...2 {
            let result = try ToolInvocation.run(
                ["run", "job.yaml", "--shard", "\(index)/2", "--dry-run", "--offline", "--output", "json"], in: directory)
            #expect(result.status == 0, "\(result.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let job = (report?["jobs"] as? [[String: Any]])?.first
            let writes = (job?["planned_writes"] as? [[String: Any]]) ?? []
            let sysIDs = writes.compactMap { ($0["path"] as? String)?.split(separator: "/").last.map(String.init) }
            #expect(!sysIDs.isEmpty)
            planned.append(sysIDs)
            let steps = (job?["steps"] as? [[String: Any]]) ?? []
            let foreach = steps.first { $0["number"] as? String == "2" }
            #expect((foreach?["message"] as? String)?.hasSuffix(" items (shard \(index)/2)") == true)
        }
        #expect(Set(planned[0]).isDisjoint(with: planned[1]))
        let all = try ToolInvocation.run(["run", "job.yaml", "--dry-run", "--offline", "--output", "json"], in: directory)
        let report = try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [String: Any]
        let writes = ((report?["jobs"] as? [[String: Any]])?.first?["planned_writes"] as? [[String: Any]]) ?? []
        #expect(writes.count == planned[0].count + planned[1].count)
    }

    /// `--rate` is each shard's share: divided by N, as the progress lines show.
    @Test func theRateIsDividedByTheNumberOfShards() throws {
        let directory = try directory([
            "job.yaml": """
                name: Paced
                vars:
                  items: [\((1...100).map(String.init).joined(separator: ", "))]
                steps:
                  - foreach: vars.items
                    steps:
                      - query: { table: incident, limit: 1, fields: [number] }
                """
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(
            ["run", "job.yaml", "--offline", "--rate", "100/s", "--shard", "2/4"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        // 100 items that are not records run on every shard: 100 requests at 25 a second take 4 s.
        #expect(result.stderr.contains("(paced: 25/s)"), "\(result.stderr)")
        #expect(result.stderr.contains("ok   step 1 (foreach): 100 of 100 items (shard 2/4) ("), "\(result.stderr)")
    }

    /// Without `--report`, the merged report is printed; every shard passed: exit 0.
    @Test func passingShardsMergeWithStatusZero() throws {
        let directory = try directory(["job.yaml": Self.job.replacingOccurrences(of: "'R3'", with: "'R9'")])
        defer { try? FileManager.default.removeItem(at: directory) }
        for index in 1...2 {
            let result = try ToolInvocation.run(
                ["run", "job.yaml", "--shard", "\(index)/2", "--offline", "--quiet", "--report", "json:s\(index).json"],
                in: directory)
            #expect(result.status == 0, "\(result.stderr)")
        }
        let merged = try ToolInvocation.run(["report", "merge", "s1.json", "s2.json"], in: directory)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.contains(#""status": "passed""#))
        #expect(merged.stdout.components(separatedBy: #""shard": {"#).count == 3)
    }

    /// Four runners with the same arguments against one `nowflow serve`, at once: every one of 300 records is
    /// updated by exactly one shard, the `once` step runs once, and the four reports merge into one that passed.
    @Test func fourShardsAgainstOneServerHandleEveryRecordOnce() async throws {
        let server = try await ServeProcess(["--db", ":memory:", "--password", "pw"])
        let instance = "http://127.0.0.1:\(server.port)"
        let auth = "auth:\n  basic: { user: admin, password: pw }\n"
        let directory = try directory([
            "seed.yaml": """
                name: Seed
                \(auth)vars:
                  items: [\((1...300).map(String.init).joined(separator: ", "))]
                steps:
                  - foreach: vars.items
                    as: n
                    parallel: 8
                    steps:
                      - create: { table: incident, fields: { short_description: "shard me ${n}" } }
                """,
            "mark.yaml": """
                name: Mark
                \(auth)steps:
                  - id: todo
                    query: { table: incident, query: "short_descriptionSTARTSWITHshard me", fields: [sys_id], limit: 1000 }
                  - id: each
                    foreach: steps.todo.records
                    as: incident
                    parallel: 4
                    steps:
                      - update: { table: incident, sys_id: "${incident.sys_id}", fields: { description: marked } }
                  - id: note
                    once: true
                    create: { table: incident, fields: { short_description: "the sharded run's note" } }
                """,
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let seeded = try ToolInvocation.run(["run", "seed.yaml", "--instance", instance, "--offline", "--quiet"], in: directory)
        #expect(seeded.status == 0, "\(seeded.stderr)")

        let statuses = Mutex([Int32](repeating: -1, count: 4))
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            let result = try? ToolInvocation.run(
                [
                    "run", "mark.yaml", "--instance", instance, "--offline", "--quiet", "--shard", "\(index + 1)/4",
                    "--report", "json:shard-\(index + 1).json",
                ], in: directory)
            statuses.withLock { $0[index] = result?.status ?? -2 }
        }
        #expect(statuses.withLock { $0 } == [0, 0, 0, 0])
        var updated: [String] = []
        for index in 1...4 {
            let report = try JSONSerialization.jsonObject(
                with: Data(try read("shard-\(index).json", in: directory).utf8)) as? [String: Any]
            let job = (report?["jobs"] as? [[String: Any]])?.first
            let shard = job?["shard"] as? [String: Int]
            #expect(shard == ["index": index, "count": 4])
            let records = (job?["records"] as? [[String: Any]]) ?? []
            updated += records.filter { $0["action"] as? String == "updated" }.compactMap { $0["sys_id"] as? String }
            #expect(records.filter { $0["action"] as? String == "created" }.count == (index == 1 ? 1 : 0))
        }
        #expect(updated.count == 300)
        #expect(Set(updated).count == 300)

        let authorization = ["Authorization": "Basic " + Data("admin:pw".utf8).base64EncodedString()]
        func count(_ query: String) throws -> String? {
            try RawHTTPClient.send(
                "GET", "/api/now/table/incident?sysparm_limit=1&sysparm_query=\(query)", headers: authorization,
                port: server.port
            ).header("X-Total-Count")
        }
        #expect(try count("description=marked") == "300")
        #expect(try count("short_descriptionSTARTSWITHshard%20me%5Edescription!=marked") == "0")
        #expect(try count("short_description=the%20sharded%20run's%20note") == "1")

        let merged = try ToolInvocation.run(
            ["report", "merge", "--report", "json:all.json", "--report", "junit:all.xml"]
                + (1...4).map { "shard-\($0).json" }, in: directory)
        #expect(merged.status == 0, "\(merged.stderr)")
        let all = try read("all.json", in: directory)
        ReportCheck.expectValid(all)
        #expect(all.components(separatedBy: #""action": "updated""#).count - 1 == 300)
        #expect(try read("all.xml", in: directory).contains(#"<testsuite name="Mark (shard 4/4)""#))
    }
}
