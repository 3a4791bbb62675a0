import Foundation
import Testing

/// The exit statuses of `nowflow run` as documented (docs/ci.md, "Exit statuses"), each produced by the built
/// binary with what it prints. The statuses of a run stopped by a signal (130, 143, 129) or by a closed output (141)
/// are produced by ``InterruptionTests``.
@Suite struct ExitStatusTests {
    /// Runs `nowflow run arguments` in a fresh home holding `files` (paths under it; a path ending in `/` is a
    /// directory), its path in the outputs as `$HOME`, times as `N ms`.
    private func run(_ arguments: [String], files: [String: String] = [:], environment: [String: String] = [:])
        throws -> ToolInvocation
    {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (path, text) in files {
            let url = directory.appendingPathComponent(path)
            if path.hasSuffix("/") {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            } else {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: url, atomically: true, encoding: .utf8)
            }
        }
        var result = try ToolInvocation.run(["run"] + arguments, in: directory, environment: environment)
        for text in [\ToolInvocation.stdout, \ToolInvocation.stderr] {
            result[keyPath: text] = result[keyPath: text]
                .replacingOccurrences(of: directory.path, with: "$HOME")
                .replacingOccurrences(of: #"\d+ ms"#, with: "N ms", options: .regularExpression)
                .replacingOccurrences(of: #"[0-9a-f]{32}"#, with: "<sys_id>", options: .regularExpression)
        }
        return result
    }

    static let readJob = """
        name: Read
        steps:
          - id: open
            query: { table: incident, where: { active: true, priority: 1 }, fields: [number] }
            show: false
        """
    static let config = """
        profiles:
          dev:
            url: https://dev12345.service-now.com
            auth: { token: "${env.DEV_TOKEN}" }
        """

    @Test func zeroWhenTheJobPassed() throws {
        let result = try run(["job.yaml", "--quiet"], files: ["job.yaml": Self.readJob])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == "Read: passed (1 step run, N ms)\n")
    }

    @Test func oneForAMistakeInTheCommandLine() throws {
        let result = try run(["job.yaml", "--dry-rn"], files: ["job.yaml": Self.readJob])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(
            result.stderr == """
                nowflow run: unknown option --dry-rn; did you mean --dry-run?
                see 'nowflow run --help'

                """)
    }

    @Test func oneForAnUnknownProfile() throws {
        let result = try run(
            ["job.yaml", "--instance", "staging"], files: ["job.yaml": Self.readJob, ".nowflow/config.yaml": Self.config])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(
            result.stderr == """
                nowflow run: no profile 'staging' in $HOME/.nowflow/config.yaml (profiles: dev)

                """)
    }

    /// A profile whose auth reads an environment variable that is not set: the configuration is at fault, not a
    /// step, and nothing is sent.
    @Test func oneForAProfileWhoseVariableIsUnset() throws {
        let result = try run(
            ["job.yaml", "--instance", "dev"], files: ["job.yaml": Self.readJob, ".nowflow/config.yaml": Self.config])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(
            result.stderr == """
                nowflow run: profile dev: auth: env.DEV_TOKEN: the environment variable DEV_TOKEN is not set

                """)
    }

    @Test func oneForAnUnreadableConfigFile() throws {
        let result = try run(
            ["job.yaml", "--instance", "dev"], files: ["job.yaml": Self.readJob, ".nowflow/config.yaml/": ""])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(
            result.stderr == """
                nowflow run: $HOME/.nowflow/config.yaml: error: cannot read the file

                """)
    }

    @Test func oneForAMissingOrUnreadableVarsFile() throws {
        let missing = try run(["job.yaml", "--vars-file", "ci.yaml"], files: ["job.yaml": Self.readJob])
        #expect(missing.status == 1)
        #expect(missing.stdout == "")
        #expect(
            missing.stderr == """
                ci.yaml: error: no such file

                """)
        let directory = try run(["job.yaml", "--vars-file", "ci/"], files: ["job.yaml": Self.readJob, "ci/": ""])
        #expect(directory.status == 1)
        #expect(
            directory.stderr == """
                ci/: error: cannot read the file

                """)
    }

    @Test func twoForAJobFileThatIsMissingUnreadableOrInvalid() throws {
        let missing = try run(["gone.yaml"])
        #expect(missing.status == 2)
        #expect(missing.stdout == "")
        #expect(
            missing.stderr == """
                gone.yaml: error: no such file

                """)
        let unreadable = try run(["jobs/"], files: ["jobs/": ""])
        #expect(unreadable.status == 2)
        #expect(
            unreadable.stderr == """
                jobs/: error: cannot read the file

                """)
        let invalid = try run(["job.yaml"], files: ["job.yaml": "name: Bad\nsteps:\n  - qurey: { table: incident }\n"])
        #expect(invalid.status == 2)
        #expect(
            invalid.stderr == """
                job.yaml:3:5: error: unknown step kind 'qurey'; did you mean 'query'?

                """)
    }

    @Test func threeWhenAStepFailed() throws {
        let job = """
            name: Missing
            steps:
              - get: { table: incident, sys_id: 0123456789abcdef0123456789abcdef }
            """
        let result = try run(["job.yaml"], files: ["job.yaml": job])
        #expect(result.status == 3)
        #expect(
            result.stderr == """
                FAIL step 1 (get): bad response 404 from GET /api/now/table/incident/<sys_id>: No Record found (Record doesn't exist or ACL restricts the record retrieval) (N ms)

                """)
        #expect(
            result.stdout == """
                Missing: failed (1 step run, N ms)
                  job.yaml:3:5: step 1 (get): bad response 404 from GET /api/now/table/incident/<sys_id>: No Record found (Record doesn't exist or ACL restricts the record retrieval)

                """)
    }

    @Test func fourWhenAnAssertionFailed() throws {
        let job = Self.readJob + "\n  - assert: \"steps.open.count == 99\"\n"
        let result = try run(["job.yaml"], files: ["job.yaml": job])
        #expect(result.status == 4)
        #expect(
            result.stdout == """
                Read: assertion failed (2 steps run, N ms)
                  job.yaml:6:5: step 2 (assert): assertion failed: steps.open.count == 99 (5 == 99 is false)

                """)
    }

    /// With `--detailed-exitcode`, a run that passed and changed a record; without it, 0.
    @Test func fiveWhenADetailedRunChangedARecord() throws {
        let job = """
            name: Change
            steps:
              - id: made
                create: { table: incident, fields: { short_description: Exit five } }
            finally:
              - delete: { table: incident, sys_id: "${steps.made.sys_id}" }
            """
        let detailed = try run(["job.yaml", "--quiet", "--detailed-exitcode"], files: ["job.yaml": job])
        #expect(detailed.status == 5)
        #expect(detailed.stderr == "")
        #expect(
            detailed.stdout == """
                Change: passed (2 steps run, N ms)
                records touched:
                  incident INC0010061 (<sys_id>): created by step 1 'made' (create), deleted by finally 1 (delete)

                """)
        let plain = try run(["job.yaml", "--quiet"], files: ["job.yaml": job])
        #expect(plain.status == 0)
    }
}
