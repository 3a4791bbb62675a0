import Foundation
import Testing

@Suite struct ReplCommandTests {
    static let job = """
        name: Triage
        vars: { summary: Printer on fire }
        steps:
          - id: open
            query: { table: incident, where: { active: true, priority: 1 }, fields: [number, short_description, sys_id], limit: 2, order_by: number }
          - id: note
            create: { table: incident, fields: { short_description: "${vars.summary}", urgency: 1 } }
          - assert: "steps.note.record.urgency == 1"
        finally:
          - delete: { table: incident, sys_id: "${steps.note.sys_id}" }
        """

    private func normalized(_ text: String) -> String {
        text.replacingOccurrences(of: #"[0-9a-f]{32}"#, with: "<sys_id>", options: .regularExpression)
    }

    /// `id kind: summary` of every main step the REPL reported as done, and of every main step `nowflow run` passed.
    private func summaries(repl text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            guard let match = line.firstMatch(of: /^(?:step \d+\/\d+ )?'?([\w]+)'? \((\w+)\): (.*)$/) else { return nil }
            return normalized("\(match.1) \(match.2): \(match.3)")
        }
    }

    private func summaries(run text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            guard let match = line.firstMatch(of: /^ok +step \d+ '([\w]+)' \((\w+)\): (.*) \(\d+ ms\)$/) else { return nil }
            return normalized("\(match.1) \(match.2): \(match.3)")
        }
    }

    @Test func aScriptedSessionWalksAJobAndItsSavedFileRunsTheSame() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.job.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let session = try ToolInvocation.run(
            ["repl", "job.yaml"], in: directory, environment: ["COLUMNS": "100"],
            stdin: """
                :list
                :next
                get incident ${steps.open.records.0.sys_id} fields=number,caller_id,sys_created_on display_value=true
                :tz Europe/Paris
                :show steps._.record.sys_created_on
                update incident ${steps._.sys_id} state=2 work_notes="Looked at it" id=touched
                :run
                :save saved.yaml
                :quit

                """)
        #expect(session.status == 0)
        #expect(session.stderr == "")
        #expect(normalized(session.stdout) == """
            Triage (job.yaml): 3 steps and 1 in finally: :next runs step 1 'open' (query), :run runs the rest, :help lists the commands
            nowflow [1/3]> :list
            Triage (job.yaml)
            => 1. 'open' (query) incident active=true priority=1 fields=number,short_description,sys_id limit=2…
               2. 'note' (create) incident short_description=${vars.summary} urgency=1
               3. (assert) steps.note.record.urgency == 1
              finally:
               1. (delete) incident ${steps.note.sys_id}
            nowflow [1/3]> :next
            step 1/3 'open' (query): 2 records from incident
            number      short_description             sys_id
            ----------  ----------------------------  --------------------------------
            INC0010001  Email server is down          <sys_id>
            INC0010019  Laptop screen flickering (2)  <sys_id>
            2 records
            nowflow [2/3]> get incident ${steps.open.records.0.sys_id} fields=number,caller_id,sys_created_on display_value=true
            _1 (get): incident <sys_id>
            number          INC0010001
            caller_id       Abel Tuter
            sys_created_on  2026-01-05 08:00:00 +00:00
            nowflow [2/3]> :tz Europe/Paris
            time zone: Europe/Paris
            nowflow [2/3]> :show steps._.record.sys_created_on
            2026-01-05 09:00:00 +01:00
            nowflow [2/3]> update incident ${steps._.sys_id} state=2 work_notes="Looked at it" id=touched
            touched (update): updated incident <sys_id>
            number      short_description     state  sys_id                            work_notes
            ----------  --------------------  -----  --------------------------------  ------------
            INC0010001  Email server is down  2      <sys_id>  Looked at it
            1 record
            nowflow [2/3]> :run
            step 2/3 'note' (create): created incident <sys_id>
            number      short_description  state  sys_id                            urgency
            ----------  -----------------  -----  --------------------------------  -------
            INC0010061  Printer on fire    1      <sys_id>  1
            1 record
            step 3/3 '_2' (assert): holds: steps.note.record.urgency == 1
            the job's steps have all run
            finally:
            finally 1 (delete): deleted incident <sys_id>
            nowflow> :save saved.yaml
            saved 5 steps to saved.yaml (nowflow run saved.yaml runs them again)
            nowflow> :quit

            """)

        let run = try ToolInvocation.run(["run", "saved.yaml"], in: directory)
        #expect(run.status == 0)
        let done = summaries(repl: session.stdout)
        #expect(done.count == 5)
        #expect(summaries(run: run.stderr) == done)
    }

    @Test func aScriptedSessionWithFailuresEndsAsARunWould() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let failed = try ToolInvocation.run(
            ["repl"], in: directory,
            stdin: """
                get incident 0123456789abcdef0123456789abcdef
                set team=Network

                """)
        #expect(failed.status == 3)
        #expect(failed.stdout == """
            nowflow repl on local: type a step (query incident active=true limit=5) or :help
            nowflow> get incident 0123456789abcdef0123456789abcdef
            error: (get): bad response 404 from GET /api/now/table/incident/0123456789abcdef0123456789abcdef: No Record found (Record doesn't exist or ACL restricts the record retrieval)
            nowflow> set team=Network
            _1 (set): vars.team

            """)
        let asserted = try ToolInvocation.run(
            ["repl"], in: directory,
            stdin: """
                assert 1 == 2
                get incident 0123456789abcdef0123456789abcdef
                :quit

                """)
        #expect(asserted.status == 4)
        #expect(asserted.stdout == """
            nowflow repl on local: type a step (query incident active=true limit=5) or :help
            nowflow> assert 1 == 2
            error: (assert): assertion failed: 1 == 2 (1 == 2 is false)
            nowflow> get incident 0123456789abcdef0123456789abcdef
            error: (get): bad response 404 from GET /api/now/table/incident/0123456789abcdef0123456789abcdef: No Record found (Record doesn't exist or ACL restricts the record retrieval)
            nowflow> :quit

            """)
        let continued = try ToolInvocation.run(
            ["repl"], in: directory, stdin: "continue_on_error=true get incident 0123456789abcdef0123456789abcdef\n")
        #expect(continued.status == 0)
    }

    /// A piped session stops at the first line it rejects (a field the instance does not have), says which line on
    /// standard error and exits 2; `--keep-going` runs the lines after it and exits 0, as sessions did before.
    @Test func aScriptedSessionStopsAtARejectedLineUnlessToldToKeepGoing() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = """
            set team=Network

            query incident priorty=1
            set after=yes

            """
        let stopped = try ToolInvocation.run(["repl"], in: directory, stdin: script)
        #expect(stopped.status == 2)
        #expect(stopped.stdout == """
            nowflow repl on local: type a step (query incident active=true limit=5) or :help
            nowflow> set team=Network
            _1 (set): vars.team
            nowflow>\u{20}
            nowflow> query incident priorty=1
            error at column 16: incident has no field 'priorty'; did you mean 'priority'?

            """)
        #expect(stopped.stderr == """
            nowflow repl: line 3: error at column 16: incident has no field 'priorty'; did you mean 'priority'?
            nowflow repl: stopped at line 3, which was rejected (--keep-going runs the lines after it)

            """)
        let commands = try ToolInvocation.run(["repl"], in: directory, stdin: ":format csv\n:quit\n")
        #expect(commands.status == 2)
        #expect(commands.stderr == """
            nowflow repl: line 1: error: :format takes table, json or yaml, not 'csv'
            nowflow repl: stopped at line 1, which was rejected (--keep-going runs the lines after it)

            """)
        let kept = try ToolInvocation.run(["repl", "--keep-going"], in: directory, stdin: script)
        #expect(kept.status == 0)
        #expect(kept.stderr == "")
        #expect(kept.stdout == """
            nowflow repl on local: type a step (query incident active=true limit=5) or :help
            nowflow> set team=Network
            _1 (set): vars.team
            nowflow>\u{20}
            nowflow> query incident priorty=1
            error at column 16: incident has no field 'priorty'; did you mean 'priority'?
            nowflow> set after=yes
            _2 (set): vars.after

            """)
    }

    /// A step over several lines: an open bracket or a final `\` continues it under a prompt of dots; input that
    /// ends inside one is an error.
    @Test func aStepContinuesOverLinesWhileABracketIsOpen() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = try ToolInvocation.run(
            ["repl"], in: directory,
            stdin: """
                query: { table: incident,
                  where: { number: INC0010001 },
                  fields: [number, short_description] }
                query incident number=INC0010001 \\
                  fields=number,state
                assert (1 ==

                """)
        #expect(session.status == 2)
        #expect(session.stdout == """
            nowflow repl on local: type a step (query incident active=true limit=5) or :help
            nowflow> query: { table: incident,
            .......>   where: { number: INC0010001 },
            .......>   fields: [number, short_description] }
            _1 (query): 1 record from incident
            number      short_description
            ----------  --------------------
            INC0010001  Email server is down
            1 record
            nowflow> query incident number=INC0010001 \\
            .......>   fields=number,state
            _2 (query): 1 record from incident
            number      state
            ----------  -----
            INC0010001  1
            1 record
            nowflow> assert (1 ==
            error: the input ended inside a step continued over lines (an open bracket or a final \\); it was not run

            """)
        #expect(session.stderr == """
            nowflow repl: line 6: error: the input ended inside a step continued over lines (an open bracket or a final \\); it was not run

            """)
    }

    @Test func badArgumentsAndBadJobFilesAreRefused() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "name: Broken\nsteps:\n  - qurey: { table: incident }\n".write(
            to: directory.appendingPathComponent("broken.yaml"), atomically: true, encoding: .utf8)
        let broken = try ToolInvocation.run(["repl", "broken.yaml"], in: directory, stdin: "")
        #expect(broken.status == 2)
        #expect(broken.stderr == "broken.yaml:3:5: error: unknown step kind 'qurey'; did you mean 'query'?\n")
        let usage = try ToolInvocation.run(["repl", "a.yaml", "b.yaml"], in: directory, stdin: "")
        #expect(usage.status == 1)
        #expect(usage.stderr == "nowflow repl: unexpected argument 'b.yaml'\nsee 'nowflow repl --help'\n")
    }

    @Test func theEndOfInputEndsTheSessionAndRunsADueFinally() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.job.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let session = try ToolInvocation.run(["repl", "job.yaml"], in: directory, stdin: ":next\n:next\n")
        #expect(session.status == 0)
        #expect(normalized(session.stdout).hasSuffix("""
            1 record
            finally:
            finally 1 (delete): deleted incident <sys_id>

            """))
    }
}
