import Foundation
import LocalInstance
import NowData
import Synchronization
import Testing

@testable import NowFlow

/// How a run names a record (``RecordName``): by its table's display field when the run read the table's dictionary
/// (the name check's, or a write by query's), else by its number, name or user name; in the records-touched
/// summary, an ensure's line, a dry run's planned writes and the tables shown under a step.
@Suite struct RecordNameTests {
    /// A custom table whose display field is `short_description`; it has a `name` too, which names its records
    /// when its display field is not known.
    private static let schema = """
        {"tables": [{"name": "u_note", "label": "Note", "display_field": "short_description",
          "fields": [{"name": "short_description"}, {"name": "name"}, {"name": "u_size", "type": "integer"}]}]}
        """

    /// A fresh in-memory instance with the demo data and ``schema``'s table.
    private func instance() throws -> LocalInstance {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("record-name-\(UUID().uuidString).json")
        try Self.schema.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return try LocalInstance(options: LocalInstance.Options(schemaFile: file.path, log: { _ in }))
    }

    /// Runs `text` on `instance` (after the name check, as `nowflow run` does, unless `checkingNames` is false),
    /// results shown 100 characters wide; gives each step's line followed by its shown lines, then the summary,
    /// sys_ids and durations normalised.
    private func run(_ text: String, on instance: LocalInstance, checkingNames: Bool = true, dryRun: Bool = false)
        async throws -> String
    {
        let job = try JobFile.parse(text, file: "job.yaml")
        let outcomes = Mutex<[StepOutcome]>([])
        var options = RunOptions.inProcess(on: instance)
        options.display = ResultDisplay(width: 100)
        options.dryRun = dryRun
        options.onEvent = { event in
            if case .stepFinished(let outcome) = event { outcomes.withLock { $0.append(outcome) } }
        }
        if checkingNames {
            let check = await JobRunner(job: job, options: options).checkNames()
            #expect(check.diagnostics.isEmpty && check.notChecked == nil)
        }
        let result = await JobRunner(job: job, options: options).run()
        let lines = outcomes.withLock { outcomes in outcomes.flatMap { [$0.progressLine(color: false)] + $0.shown } }
        let text = (lines + [result.summaryText()]).joined(separator: "\n")
        return RunHarness.normalized(text).replacingOccurrences(of: #"\d+ ms"#, with: "N ms", options: .regularExpression)
    }

    private let notes = """
        name: Notes
        steps:
          - id: first
            create: { table: u_note, fields: { short_description: Printer jam, name: note-1, u_size: 1 } }
          - update: { table: u_note, sys_id: "${steps.first.sys_id}", fields: { u_size: 2 } }
          - id: second
            create: { table: u_note, fields: { name: note-2 } }
          - update: { table: u_note, sys_id: "${steps.second.sys_id}", fields: { short_description: Toner low } }
          - query: { table: u_note, fields: [name, u_size], order_by: name }
          - query: { table: u_note, order_by: name }
        """

    @Test func aTableWhoseDisplayFieldIsKnownNamesItsRecordsByIt() async throws {
        let instance = try instance()
        defer { instance.close() }
        let shown = try await run(notes, on: instance)
        #expect(shown == """
            ok   step 1 'first' (create): created u_note <sys_id> (N ms)
                 short_description  Printer jam
                 name               note-1
                 u_size             1
            ok   step 2 (update): updated u_note <sys_id> (N ms)
                 short_description  Printer jam
                 u_size             2
            ok   step 3 'second' (create): created u_note <sys_id> (N ms)
                 name  note-2
            ok   step 4 (update): updated u_note <sys_id> (N ms)
                 short_description  Toner low
            ok   step 5 (query): 2 records from u_note (N ms)
                 name    u_size
                 ------  ------
                 note-1  2
                 note-2
            ok   step 6 (query): 2 records from u_note (N ms)
                 short_description  name    sys_id
                 -----------------  ------  --------------------------------
                 Printer jam        note-1  <sys_id>
                 Toner low          note-2  <sys_id>
            Notes: passed (6 steps run, N ms)
            records touched:
              u_note Printer jam (<sys_id>): created by step 1 'first' (create), updated by step 2 (update)
              u_note Toner low (<sys_id>): created by step 3 'second' (create), updated by step 4 (update)
            """)
    }

    /// Without the name check, a record is named by its number, name or user name until the run reads its table's
    /// dictionary: here the query's paging by key (step 5) does, and the table of step 6 leads with the display field.
    @Test func withoutTheNameCheckARecordIsNamedByItsNumberNameOrUserName() async throws {
        let instance = try instance()
        defer { instance.close() }
        let shown = try await run(notes, on: instance, checkingNames: false)
        #expect(shown == """
            ok   step 1 'first' (create): created u_note <sys_id> (N ms)
                 name               note-1
                 short_description  Printer jam
                 u_size             1
            ok   step 2 (update): updated u_note <sys_id> (N ms)
                 name    note-1
                 u_size  2
            ok   step 3 'second' (create): created u_note <sys_id> (N ms)
                 name  note-2
            ok   step 4 (update): updated u_note <sys_id> (N ms)
                 name               note-2
                 short_description  Toner low
            ok   step 5 (query): 2 records from u_note (N ms)
                 name    u_size
                 ------  ------
                 note-1  2
                 note-2
            ok   step 6 (query): 2 records from u_note (N ms)
                 short_description  name    sys_id
                 -----------------  ------  --------------------------------
                 Printer jam        note-1  <sys_id>
                 Toner low          note-2  <sys_id>
            Notes: passed (6 steps run, N ms)
            records touched:
              u_note note-1 (<sys_id>): created by step 1 'first' (create), updated by step 2 (update)
              u_note note-2 (<sys_id>): created by step 3 'second' (create), updated by step 4 (update)
            """)
    }

    @Test func anEnsureAndADryRunsPlannedWritesNameTheRecordByItsDisplayField() async throws {
        let instance = try instance()
        defer { instance.close() }
        let ensured = try await run(
            """
            name: Ensure
            steps:
              - ensure: { table: u_note, match: { name: note-1 }, fields: { short_description: Printer jam, u_size: 3 } }
              - ensure: { table: u_note, match: { name: note-1 }, fields: { u_size: 4 } }
            """, on: instance)
        #expect(ensured == """
            ok   step 1 (ensure): created u_note Printer jam (<sys_id>) (N ms)
                 short_description  Printer jam
                 name               note-1
                 u_size             3
            ok   step 2 (ensure): updated u_note Printer jam (<sys_id>): u_size '3' → '4' (N ms)
                 short_description  Printer jam
                 u_size             4
            Ensure: passed (2 steps run, N ms)
            1 record changed
            records touched:
              u_note Printer jam (<sys_id>): created by step 1 (ensure), updated by step 2 (ensure)
            """)
        let planned = try await run(
            """
            name: Plan
            steps:
              - update: { table: u_note, query: "name=note-1", max: 1, fields: { u_size: 5 } }
              - delete: { table: u_note, query: "name=note-1", max: 1 }
            """, on: instance, dryRun: true)
        #expect(planned == """
            ok   step 1 (update): would update 1 u_note record (dry run) (N ms)
                 short_description  Printer jam
                 u_size             5
                 sys_id             <sys_id>
            ok   step 2 (delete): would delete 1 u_note record (dry run) (N ms)
                 sys_id
                 --------------------------------
                 <sys_id>
            Plan: dry run passed (2 steps run, N ms, dry run)
            writes not sent (dry run):
              PATCH /api/now/table/u_note/<sys_id> {"u_size":"5"}
                Printer jam: u_size 4 → 5
              DELETE /api/now/table/u_note/<sys_id>
                Printer jam
            """)
    }
}
