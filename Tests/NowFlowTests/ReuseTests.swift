import Foundation
import LocalInstance
import NowData
import Synchronization
import Testing

@testable import NowFlow

/// Reuse: `include:` with parameters and outputs, cycles, `vars_files:` and `--vars-file` precedence, `tags:`.
@Suite struct ReuseTests {
    /// A temporary directory holding `files`.
    private func directory(_ files: [String: String]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reuse-\(UUID().uuidString)")
        for (name, text) in files {
            let url = directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return directory
    }

    /// Runs the job at `path` on a fresh embedded instance; gives the result and the progress lines.
    private func run(_ path: String, configure: (inout RunOptions) -> Void = { _ in }) async throws -> (
        RunResult, String
    ) {
        let instance = try LocalInstance(options: LocalInstance.Options(log: { _ in }))
        defer { instance.close() }
        let job = try JobFile.load(path: path)
        let lines = Mutex<[String]>([])
        var options = RunOptions.inProcess(on: instance)
        options.onEvent = { event in
            if case .stepFinished(let outcome) = event { lines.withLock { $0.append(outcome.progressLine(color: false)) } }
        }
        configure(&options)
        let result = await JobRunner(job: job, options: options).run()
        return (result, RunHarness.normalized(lines.withLock { $0.joined(separator: "\n") }))
    }

    private func diagnostics(_ path: String) -> String {
        do {
            _ = try JobFile.load(path: path)
            return "valid"
        } catch {
            return error.description
        }
    }

    static let findCaller = """
        name: Find caller
        vars:
          user_name: abel.tuter
          active: true
        steps:
          - id: user
            query: { table: sys_user, where: { user_name: "${vars.user_name}", active: "${vars.active}" }, fields: [sys_id, name], limit: 1 }
          - assert: { that: "steps.user.count == 1", message: "no user ${vars.user_name}" }
        finally:
          - set: { looked_up: "${vars.user_name}" }
        outputs:
          sys_id: steps.user.records.0.sys_id
          name: steps.user.records.0.name
          looked_up: vars.looked_up
        """

    @Test func anIncludedJobRunsWithItsParametersAndGivesItsOutputs() async throws {
        let root = try directory([
            "shared/find-caller.yaml": Self.findCaller,
            "jobs/main.yaml": """
                name: Main
                vars: { who: beth.anglin }
                steps:
                  - id: caller
                    include: { file: ../shared/find-caller.yaml, with: { user_name: "${vars.who}" } }
                  - id: again
                    include: { file: ../shared/find-caller.yaml }
                  - assert: "steps.caller.outputs.name == 'Beth Anglin' && steps.again.outputs.name == 'Abel Tuter'"
                  - assert: "steps.caller.outputs.looked_up == 'beth.anglin'"
                outputs:
                  caller: steps.caller.outputs.sys_id
                """,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let (result, lines) = try await run(root.appendingPathComponent("jobs/main.yaml").path)
        #expect(result.status == .passed, "\(result.error ?? "")")
        #expect(
            lines == """
                ok   step 1.1 'user' (query): 1 record from sys_user (N ms)
                ok   step 1.2 (assert): holds: steps.user.count == 1 (N ms)
                ok   step 1.finally 1 (set): vars.looked_up (N ms)
                ok   step 1 'caller' (include): ran ../shared/find-caller.yaml (Find caller): outputs sys_id, name, looked_up (N ms)
                ok   step 2.1 'user' (query): 1 record from sys_user (N ms)
                ok   step 2.2 (assert): holds: steps.user.count == 1 (N ms)
                ok   step 2.finally 1 (set): vars.looked_up (N ms)
                ok   step 2 'again' (include): ran ../shared/find-caller.yaml (Find caller): outputs sys_id, name, looked_up (N ms)
                ok   step 3 (assert): holds: steps.caller.outputs.name == 'Beth Anglin' && steps.again.outputs.name == 'Abel Tuter' (N ms)
                ok   step 4 (assert): holds: steps.caller.outputs.looked_up == 'beth.anglin' (N ms)
                """)
        // The included job's variables stay in its own scope.
        #expect(result.vars.keys.sorted() == ["who"])
        #expect(result.outputs["caller"]?.string?.count == 32)
    }

    @Test func aFailureInsideAnIncludeFailsTheIncludeStep() async throws {
        let root = try directory([
            "find-caller.yaml": Self.findCaller,
            "main.yaml": """
                name: Main
                steps:
                  - include: { file: find-caller.yaml, with: { user_name: nobody.here } }
                """,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let (result, lines) = try await run(root.appendingPathComponent("main.yaml").path)
        #expect(result.status == .assertionFailed)
        #expect(
            lines == """
                ok   step 1.1 'user' (query): 0 records from sys_user (N ms)
                ASSERT step 1.2 (assert): no user nobody.here (0 == 1 is false) (N ms)
                ok   step 1.finally 1 (set): vars.looked_up (N ms)
                ASSERT step 1 (include): find-caller.yaml: step 1.2 (assert): no user nobody.here (0 == 1 is false) (N ms)
                """)
    }

    @Test func includesAreCheckedCyclesRefusedWithTheirChain() throws {
        let root = try directory([
            "a.yaml": """
                name: A
                steps:
                  - include: { file: b.yaml }
                """,
            "b.yaml": """
                name: B
                steps:
                  - include: { file: sub/c.yaml }
                """,
            "sub/c.yaml": """
                name: C
                steps:
                  - include: { file: ../a.yaml }
                """,
            "params.yaml": """
                name: Params
                vars: { max: 2 }
                steps:
                  - id: one
                    include: { file: find-caller.yaml, with: { user_nam: x, active: maybe } }
                  - include: { file: missing.yaml }
                  - include: { file: find-caller.yaml, with: { active: false }, other: 2 }
                  - assert: "steps.one.outputs.sysid != ''"
                  - assert: "steps.one.records != ''"
                """,
            "find-caller.yaml": Self.findCaller,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let a = root.appendingPathComponent("a.yaml").path
        let prefix = root.path + "/"
        #expect(
            diagnostics(a).replacingOccurrences(of: prefix, with: "") == """
                sub/c.yaml:3:22: error: include: ../a.yaml makes a cycle: a.yaml → b.yaml → sub/c.yaml → a.yaml
                """)
        #expect(
            diagnostics(root.appendingPathComponent("params.yaml").path).replacingOccurrences(of: prefix, with: "") == """
                params.yaml:5:48: error: include.with: find-caller.yaml has no variable 'user_nam' (it declares user_name and active); did you mean 'user_name'?
                params.yaml:5:69: error: include.with: vars.active is a boolean (declared true), not a string
                params.yaml:6:22: error: include: no such file 'missing.yaml' (missing.yaml)
                params.yaml:7:65: error: unknown key 'other' in include; expected file or with
                params.yaml:8:14: error: steps.one.outputs.sysid: find-caller.yaml has no output 'sysid' (it declares sys_id, name and looked_up); did you mean 'sys_id'?
                params.yaml:9:14: error: steps.one.records: an include step's result has no 'records'; it has outputs
                """)
    }

    @Test func varsFilesAndVarsFileValuesWinInOrderAndAreTypeChecked() async throws {
        let root = try directory([
            "common.yaml": "caller: beth.anglin\nlimit: 2\nregion: emea\n",
            "later.json": #"{"limit": 3, "tags": ["a", "b"]}"#,
            "job.yaml": """
                name: Precedence
                vars_files: [common.yaml, later.json]
                vars:
                  caller: abel.tuter
                  limit: 1
                  note: "${vars.region} ${vars.caller}"
                steps:
                  - assert: "vars.region == 'emea' && vars.tags == ['a', 'b']"
                outputs:
                  caller: vars.caller
                  limit: vars.limit
                  note: vars.note
                """,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.appendingPathComponent("job.yaml").path
        let (fromFiles, _) = try await run(path)
        #expect(fromFiles.status == .passed, "\(fromFiles.error ?? "")")
        #expect(fromFiles.outputs == ["caller": "beth.anglin", "limit": 3, "note": "emea beth.anglin"])
        // --vars-file values win over the job's vars_files, and --var over both.
        let (fromOptions, _) = try await run(path) { options in
            options.variableValues = ["caller": "fred.luddy", "limit": 5]
            options.variables = ["limit": "7"]
        }
        #expect(fromOptions.outputs == ["caller": "fred.luddy", "limit": 7, "note": "emea fred.luddy"])
        let (refused, _) = try await run(path) { options in options.variableValues = ["limit": "many"] }
        #expect(refused.error == "before the first step: --vars-file: vars.limit is a number (declared 1), not a string")
    }

    @Test func aVarsFileValueOfAnotherTypeIsAValidationError() throws {
        let root = try directory([
            "bad.yaml": "keep: yes\nmax: 5\n1st: x\n",
            "list.yaml": "- a\n",
            "job.yaml": """
                name: Bad files
                vars_files: [bad.yaml, list.yaml, none.yaml]
                vars: { keep: false, max: 2 }
                steps:
                  - assert: "vars.keep == false"
                """,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(
            diagnostics(root.appendingPathComponent("job.yaml").path).replacingOccurrences(of: root.path + "/", with: "") == """
                job.yaml:2:35: error: vars_files: no such file 'none.yaml' (none.yaml)
                bad.yaml:3:1: error: a variable name '1st' must be made of letters, digits and '_', and not start with a digit
                list.yaml:1:1: error: a vars file is a mapping of variable names to values, not a list
                """)
        try "keep: yes\nmax: 5\n".write(to: root.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
        try "a: 1\n".write(to: root.appendingPathComponent("list.yaml"), atomically: true, encoding: .utf8)
        try "b: 1\n".write(to: root.appendingPathComponent("none.yaml"), atomically: true, encoding: .utf8)
        #expect(
            diagnostics(root.appendingPathComponent("job.yaml").path).replacingOccurrences(of: root.path + "/", with: "") == """
                job.yaml:2:14: error: vars_files: bad.yaml: vars.keep is a boolean (declared false), not a string
                """)
    }

    static let tagged = """
        name: Tagged
        steps:
          - id: lookup
            query: { table: incident, limit: 1 }
            tags: [read]
          - set: { changed: true }
            tags: write, slow
          - foreach: "[1, 2]"
            tags: [loop]
            steps:
              - set: { inner: "${item}" }
              - set: { tagged_inner: "${item}" }
                tags: [inner]
          - set: { untagged: true }
        finally:
          - set: { cleaned: true }
            tags: [always]
        """

    @Test func tagsChooseAndSkipSteps() async throws {
        let root = try directory(["job.yaml": Self.tagged])
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.appendingPathComponent("job.yaml").path
        let (chosen, chosenLines) = try await run(path) { $0.tags = ["read", "inner"] }
        #expect(chosen.status == .passed)
        #expect(
            chosenLines == """
                ok   step 1 'lookup' (query): 1 record from incident (N ms)
                skip step 2 (set): not chosen by --tags inner,read (its tags: slow, write) (N ms)
                skip step 3[0].1 (set): not chosen by --tags inner,read (its tags: loop) (N ms)
                ok   step 3[0].2 (set): vars.tagged_inner (N ms)
                skip step 3[1].1 (set): not chosen by --tags inner,read (its tags: loop) (N ms)
                ok   step 3[1].2 (set): vars.tagged_inner (N ms)
                ok   step 3 (foreach): 2 items (N ms)
                skip step 4 (set): not chosen by --tags inner,read (it has no tags) (N ms)
                ok   finally 1 (set): vars.cleaned (N ms)
                """)
        let (skipped, skippedLines) = try await run(path) { $0.skipTags = ["loop", "write"] }
        #expect(skipped.status == .passed)
        #expect(
            skippedLines == """
                ok   step 1 'lookup' (query): 1 record from incident (N ms)
                skip step 2 (set): skipped by --skip-tags write (N ms)
                skip step 3 (foreach): skipped by --skip-tags loop (N ms)
                ok   step 4 (set): vars.untagged (N ms)
                ok   finally 1 (set): vars.cleaned (N ms)
                """)
    }

    @Test func showAndTagsAreValidated() throws {
        let root = try directory([
            "job.yaml": """
                name: Options
                steps:
                  - query: { table: incident, limit: 1 }
                    show: sometimes
                  - query: { table: incident, limit: 1 }
                    show: -1
                    tags: [read, "not a tag"]
                """
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(
            diagnostics(root.appendingPathComponent("job.yaml").path).replacingOccurrences(of: root.path + "/", with: "") == """
                job.yaml:4:11: error: show must be all, false or a number of records, not a string
                job.yaml:6:11: error: show must be all, false or a number of records, not a number
                job.yaml:7:11: error: tags: 'not a tag' is not a tag (letters, digits, '_' and '-')
                """)
    }

    @Test func anIncludedJobsSecretsAreMasked() async throws {
        let root = try directory([
            "token.yaml": """
                name: Token
                vars: { token: none }
                secrets: [token]
                steps:
                  - assert: { that: "vars.token == 'open'", message: "refused ${vars.token}" }
                """,
            "main.yaml": """
                name: Main
                steps:
                  - include: { file: token.yaml, with: { token: s3cr3t-4711 } }
                """,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let (result, lines) = try await run(root.appendingPathComponent("main.yaml").path)
        #expect(result.status == .assertionFailed)
        #expect(
            lines == """
                ASSERT step 1.1 (assert): refused *** ('***' == 'open' is false) (N ms)
                ASSERT step 1 (include): token.yaml: step 1.1 (assert): refused *** ('***' == 'open' is false) (N ms)
                """)
        #expect(result.error == "step 1 (include): token.yaml: step 1.1 (assert): refused *** ('***' == 'open' is false)")
    }
}
