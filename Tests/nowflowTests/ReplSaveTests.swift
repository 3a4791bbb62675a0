import Foundation
import Testing

/// `:save` from a piped session: it never writes over a file unasked, and what it writes keeps the job's
/// description, the comments of the steps it copies, `vars` and `finally`, and runs.
@Suite struct ReplSaveTests {
    static let job = """
        name: Walk copy
        description: Opens a ticket for the printer, then closes it.
        vars: { summary: Printer on fire }
        steps:
          # Who reports it.
          - id: caller
            query: { table: sys_user, where: { user_name: abel.tuter }, fields: [sys_id], limit: 1 }
          - id: ticket   # the ticket itself
            create:
              table: incident
              fields: { short_description: "${vars.summary}", caller_id: "${steps.caller.records.0.sys_id}" }
          - assert: "steps.ticket.record.short_description == vars.summary"
        finally:
          - delete: { table: incident, sys_id: "${steps.ticket.sys_id}" }

        """

    @Test func aPipedSaveRefusesToWriteOverAFileAndSaveBangKeepsTheJobsParts() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let jobFile = directory.appendingPathComponent("walk-copy.yaml")
        try Self.job.write(to: jobFile, atomically: true, encoding: .utf8)
        try "keep me\n".write(to: directory.appendingPathComponent("other.yaml"), atomically: true, encoding: .utf8)
        let session = try ToolInvocation.run(
            ["repl", "walk-copy.yaml"], in: directory, environment: ["COLUMNS": "100"],
            stdin: """
                :next
                :next
                :save walk-copy.yaml
                :save other.yaml
                :save! saved.yaml
                :quit

                """)
        #expect(session.status == 0)
        #expect(session.stdout.replacingOccurrences(of: #"[0-9a-f]{32}"#, with: "<sys_id>", options: .regularExpression) == """
            Walk copy (walk-copy.yaml): 3 steps and 1 in finally: :next runs step 1 'caller' (query), :run runs the rest, :help lists the commands
            nowflow [1/3]> :next
            step 1/3 'caller' (query): 1 record from sys_user
            sys_id
            --------------------------------
            <sys_id>
            1 record
            nowflow [2/3]> :next
            step 2/3 'ticket' (create): created incident <sys_id>
            number      short_description  state  sys_id                            caller_id
            ----------  -----------------  -----  --------------------------------  ----------------------------
            INC0010061  Printer on fire    1      <sys_id>  dbbd5520a9542c7bfd1b56b7cc0…
            1 record
            nowflow [3/3]> :save walk-copy.yaml
            error: not saved: walk-copy.yaml is the job file this session walks; :save! walk-copy.yaml writes over it
            nowflow [3/3]> :save other.yaml
            error: not saved: other.yaml exists; :save! other.yaml writes over it
            nowflow [3/3]> :save! saved.yaml
            saved 2 steps to saved.yaml (nowflow run saved.yaml runs them again)
            nowflow [3/3]> :quit
            finally:
            finally 1 (delete): deleted incident <sys_id>

            """)
        #expect(try String(contentsOf: jobFile, encoding: .utf8) == Self.job)
        #expect(try String(contentsOf: directory.appendingPathComponent("other.yaml"), encoding: .utf8) == "keep me\n")
        let saved = try String(contentsOf: directory.appendingPathComponent("saved.yaml"), encoding: .utf8)
        #expect(saved == """
            name: Walk copy
            description: Opens a ticket for the printer, then closes it.
            vars:
              summary: Printer on fire
            steps:
            # Who reports it.
            - id: caller
              query: { table: sys_user, where: { user_name: abel.tuter }, fields: [sys_id], limit: 1 }
            - id: ticket   # the ticket itself
              create:
                table: incident
                fields: { short_description: "${vars.summary}", caller_id: "${steps.caller.records.0.sys_id}" }
            finally:
            - delete:
                table: incident
                sys_id: '${steps.ticket.sys_id}'

            """)
        let validated = try ToolInvocation.run(["validate", "saved.yaml"], in: directory)
        #expect(validated.status == 0)
        let run = try ToolInvocation.run(["run", "saved.yaml", "--quiet"], in: directory)
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("Walk copy: passed (3 steps run"))
        #expect(run.stdout.hasSuffix("by finally 1 (delete)\n"))
    }
    /// `:save` after `:undo` leaves the step whose write was taken back out of the file, and says so.
    @Test func saveLeavesOutTheStepsWhoseWriteWasUndone() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = try ToolInvocation.run(
            ["repl"], in: directory, environment: ["COLUMNS": "100"],
            stdin: """
                create incident short_description="Kept" id=kept
                create incident short_description="Taken back" id=gone
                :undo
                :save saved.yaml
                delete incident ${steps.kept.sys_id}

                """)
        #expect(session.status == 0)
        #expect(session.stderr == "")
        #expect(session.stdout.replacingOccurrences(of: #"[0-9a-f]{32}"#, with: "<sys_id>", options: .regularExpression) == """
            nowflow repl on local: type a step (query incident active=true limit=5) or :help
            nowflow> create incident short_description="Kept" id=kept
            kept (create): created incident <sys_id>
            number      short_description  state  sys_id
            ----------  -----------------  -----  --------------------------------
            INC0010061  Kept               1      <sys_id>
            1 record
            nowflow> create incident short_description="Taken back" id=gone
            gone (create): created incident <sys_id>
            number      short_description  state  sys_id
            ----------  -----------------  -----  --------------------------------
            INC0010062  Taken back         1      <sys_id>
            1 record
            nowflow> :undo
            undid 2 (gone create incident <sys_id>): deleted it
            nowflow> :save saved.yaml
            saved 1 step to saved.yaml (nowflow run saved.yaml runs them again); left out the undone step gone
            nowflow> delete incident ${steps.kept.sys_id}
            _1 (delete): deleted incident <sys_id>

            """)
        let saved = try String(contentsOf: directory.appendingPathComponent("saved.yaml"), encoding: .utf8)
        #expect(saved == """
            name: REPL session
            description: Saved from a nowflow repl session.
            steps:
            - id: kept
              create:
                table: incident
                fields:
                  short_description: 'Kept'

            """)
        let validated = try ToolInvocation.run(["validate", "saved.yaml"], in: directory)
        #expect(validated.status == 0)
    }
}
