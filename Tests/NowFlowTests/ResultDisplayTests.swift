import Foundation
import LocalInstance
import NowData
import Synchronization
import Testing

@testable import NowFlow

/// What `nowflow run` shows under each step's line, and the job's `outputs:` in the summary and the reports.
@Suite struct ResultDisplayTests {
    /// Runs `text` on a fresh embedded instance with results shown 80 characters wide; gives the result and each
    /// step's line followed by its shown lines, sys_ids and durations normalised.
    private func run(_ text: String, display: ResultDisplay? = ResultDisplay(width: 80)) async throws -> (
        RunResult, String
    ) {
        let instance = try LocalInstance(options: LocalInstance.Options(log: { _ in }))
        defer { instance.close() }
        let job = try JobFile.parse(text, file: "job.yaml")
        let outcomes = Mutex<[StepOutcome]>([])
        var options = RunOptions.inProcess(on: instance)
        options.display = display
        options.secrets = ["Printer on fire"]
        options.onEvent = { event in
            if case .stepFinished(let outcome) = event { outcomes.withLock { $0.append(outcome) } }
        }
        let result = await JobRunner(job: job, options: options).run()
        let lines = outcomes.withLock { outcomes in
            outcomes.flatMap { [$0.progressLine(color: false)] + $0.shown }
        }
        return (result, RunHarness.normalized(lines.joined(separator: "\n")))
    }

    /// An extract of one record shows its fields as `field  value` lines because it is a record; an extracted
    /// reference field's object, whose members are texts as a record's are, is shown as YAML.
    @Test func anExtractedRecordIsShownByItsType() async throws {
        let (result, shown) = try await run(
            """
            name: Records
            steps:
              - id: q
                query: { table: incident, where: { number: INC0010001 }, fields: [number, short_description, caller_id] }
              - id: one
                extract: { from: steps.q, path: records.0 }
              - id: caller
                extract: { from: steps.one, path: caller_id }
            """)
        #expect(result.status == .passed)
        #expect(shown == """
            ok   step 1 'q' (query): 1 record from incident (N ms)
                 number      short_description     caller_id
                 ----------  --------------------  --------------------------------
                 INC0010001  Email server is down  <sys_id>
            ok   step 2 'one' (extract): = {"caller_id":{"link":"http://localhost/api/now/table/sys_... (N ms)
                 number             INC0010001
                 short_description  Email server is down
                 sys_id             <sys_id>
                 caller_id          <sys_id>
            ok   step 3 'caller' (extract): = {"link":"http://localhost/api/now/table/sys_user/dbbd5520... (N ms)
                 link: http://localhost/api/now/table/sys_user/<sys_id>
                 value: <sys_id>
            """)
    }

    private func summary(_ result: RunResult) -> String {
        result.summaryText().replacingOccurrences(of: #"\d+ ms"#, with: "N ms", options: .regularExpression)
    }

    @Test func eachStepShowsWhatItReadWroteOrGave() async throws {
        let (result, shown) = try await run(
            """
            name: Show
            vars: { summary: Printer on fire }
            steps:
              - id: open
                query: { table: incident, where: { active: true, priority: 1 }, order_by: number }
              - id: many
                query: { table: incident, fields: [number, short_description], order_by: number, limit: 23 }
              - id: few
                query: { table: incident, order_by: number, limit: 5 }
                show: 2
              - id: quiet
                query: { table: incident, limit: 5 }
                show: false
              - id: made
                create: { table: incident, fields: { short_description: "${vars.summary}", urgency: 2 } }
              - id: check
                get: { table: incident, sys_id: "${steps.made.sys_id}", fields: [number, urgency, state] }
              - id: bump
                update: { table: incident, where: { number: "${steps.check.record.number}" }, max: 1, fields: { urgency: 1, impact: 1 } }
              - id: numbers
                extract: { from: steps.few, path: records }
              - id: first
                extract: { from: steps.few.records.0, path: number }
              - set: { label: "${format('{} open, first {}', steps.open.count, steps.first)}", empty: null }
              - assert: "steps.bump.count == 1"
            finally:
              - delete: { table: incident, where: { sys_id: "${steps.made.sys_id}" }, max: 1 }
            """)
        #expect(result.status == .passed)
        #expect(
            shown == """
                ok   step 1 'open' (query): 5 records from incident (N ms)
                     number      short_description       state  sys_id
                     ----------  ----------------------  -----  --------------------------------
                     INC0010001  Email server is down    1      <sys_id>
                     INC0010019  Laptop screen flicker…  1      <sys_id>
                     INC0010028  Website loading slowl…  3      <sys_id>
                     INC0010037  Printer on floor 3 ja…  1      <sys_id>
                     INC0010055  Password reset reques…  1      <sys_id>
                ok   step 2 'many' (query): 23 records from incident (N ms)
                     number      short_description
                     ----------  -----------------------------------
                     INC0010001  Email server is down
                     INC0010002  Unable to connect to VPN
                     INC0010003  Database queries running slowly
                     INC0010004  Laptop screen flickering
                     INC0010005  Cannot access shared drive
                     INC0010006  Outlook keeps crashing
                     INC0010007  Printer on floor 3 jammed
                     INC0010008  Wireless drops in conference room
                     INC0010009  ERP application returns error 500
                     INC0010010  Password reset request
                     INC0010011  Disk space low on database server
                     INC0010012  Keyboard not working
                     INC0010013  Website loading slowly
                     INC0010014  Antivirus update failed
                     INC0010015  Need access to the finance share
                     INC0010016  Email server is down (2)
                     INC0010017  Unable to connect to VPN (2)
                     INC0010018  Database queries running slowly (2)
                     INC0010019  Laptop screen flickering (2)
                     INC0010020  Cannot access shared drive (2)
                     and 3 more
                ok   step 3 'few' (query): 5 records from incident (N ms)
                     number      short_description       state  sys_id
                     ----------  ----------------------  -----  --------------------------------
                     INC0010001  Email server is down    1      <sys_id>
                     INC0010002  Unable to connect to …  2      <sys_id>
                     and 3 more
                ok   step 4 'quiet' (query): 5 records from incident (N ms)
                ok   step 5 'made' (create): created incident <sys_id> (N ms)
                     number             INC0010061
                     short_description  ***
                     urgency            2
                ok   step 6 'check' (get): incident <sys_id> (N ms)
                     number      urgency  state
                     ----------  -------  -----
                     INC0010061  2        1
                ok   step 7 'bump' (update): updated 1 incident record (N ms)
                     number   INC0010061
                     urgency  1
                     impact   1
                     sys_id   <sys_id>
                ok   step 8 'numbers' (extract): = [{"active":"true","activity_due":"","additional_assignee_... (N ms)
                     number      short_description       state  sys_id
                     ----------  ----------------------  -----  --------------------------------
                     INC0010001  Email server is down    1      <sys_id>
                     INC0010002  Unable to connect to …  2      <sys_id>
                     INC0010003  Database queries runn…  2      <sys_id>
                     INC0010004  Laptop screen flicker…  3      <sys_id>
                     INC0010005  Cannot access shared …  6      <sys_id>
                ok   step 9 'first' (extract): = 'INC0010001' (N ms)
                ok   step 10 (set): vars.label, vars.empty (N ms)
                     vars.label = "5 open, first INC0010001"
                     vars.empty = null
                ok   step 11 (assert): holds: steps.bump.count == 1 (N ms)
                ok   finally 1 (delete): deleted 1 incident record (N ms)
                     sys_id
                     --------------------------------
                     <sys_id>
                """)
    }

    @Test func withoutADisplayNothingIsShown() async throws {
        let (_, shown) = try await run(
            """
            name: Quiet
            steps:
              - query: { table: incident, limit: 2 }
              - set: { x: 1 }
            """, display: nil)
        #expect(
            shown == """
                ok   step 1 (query): 2 records from incident (N ms)
                ok   step 2 (set): vars.x (N ms)
                """)
    }

    static let outputsJob = """
        name: Outputs
        steps:
          - id: open
            query: { table: incident, where: { active: true, priority: 1 }, fields: [number] }
        outputs:
          count: steps.open.count
          numbers: "${join(pluck(steps.open.records, 'number'), ' ')}"
          first: steps.open.records.0.number
          secret: "'Printer on fire'"
        """

    @Test func outputsAreInTheSummaryTheJSONAndJUnit() async throws {
        let (result, _) = try await run(Self.outputsJob)
        #expect(result.status == .passed)
        #expect(
            summary(result) == """
                Outputs: passed (1 step run, N ms)
                outputs:
                  count = 5
                  numbers = INC0010001 INC0010019 INC0010028 INC0010037 INC0010055
                  first = INC0010001
                  secret = ***
                """)
        #expect(
            result.jsonValue["outputs"]?.jsonText() == #"{"count":5,"numbers":"INC0010001 INC0010019 INC0010028 INC0010037 INC0010055","first":"INC0010001","secret":"***"}"#)
        let junit = RunReport(results: [result], nowflowVersion: "0.1.0").junitXML().split(separator: "\n").map(String.init)
        #expect(
            junit.filter { $0.contains(#"<property name="outputs."#) } == [
                #"      <property name="outputs.count" value="5"/>"#,
                #"      <property name="outputs.numbers" value="INC0010001 INC0010019 INC0010028 INC0010037 INC0010055"/>"#,
                #"      <property name="outputs.first" value="INC0010001"/>"#,
                #"      <property name="outputs.secret" value="***"/>"#,
            ])
    }

    @Test func anOutputThatCannotBeEvaluatedFailsThePassingRunAtItsPosition() async throws {
        let (result, _) = try await run(
            """
            name: Broken output
            steps:
              - id: none
                query: { table: incident, where: { number: NOPE } }
            outputs:
              count: steps.none.count
              first: steps.none.records.0.number
            """)
        #expect(result.status == .failed)
        #expect(
            summary(result) == """
                Broken output: failed (1 step run, N ms)
                  job.yaml:7:3: outputs.first: steps.none.records.0.number: no value at 'steps.none.records.0' in path 'steps.none.records.0.number': index 0 out of range (0 elements)
                outputs:
                  count = 0
                """)
    }

    @Test func outputsAreValidated() {
        do {
            _ = try JobFile.parse(
                """
                name: Bad outputs
                steps:
                  - id: open
                    query: { table: incident, limit: 1 }
                outputs:
                  count: steps.opne.count
                  1st: steps.open.count
                  flag: "steps.open.count && true"
                """, file: "job.yaml")
            Issue.record("no error")
        } catch {
            #expect(
                error.description == """
                    job.yaml:6:10: error: steps.opne: no step has the id 'opne'; did you mean 'open'?
                    job.yaml:7:3: error: an output name '1st' must be made of letters, digits and '_', and not start with a digit
                    job.yaml:8:10: error: '&&' needs true or false, not a number
                    """)
        }
    }
}
