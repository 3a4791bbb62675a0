import Foundation
import NowData
import Testing

@testable import NowFlow

/// The `change` and `import` steps: their validation, a standard change moved through its model (and a move the
/// model refuses, failing the step with the instance's message), rows loaded from a list and from a CSV file,
/// and the CSV reader's errors.
@Suite struct ChangeImportStepTests {
    @Test func validationSaysWhatIsMissingOrWrong() throws {
        let text = """
            name: Bad
            steps:
              - change: { fields: { short_description: x } }
              - change: { template: a, model: Normal }
              - change: { sys_id: x }
              - change: { model: Normal, states: [scheduled, done] }
              - import: { table: u_cmdb_ci_server_import }
              - import: { table: u_cmdb_ci_server_import, file: a.csv, rows: [] }
              - change: { model: Normal, state: closed }
            """
        var diagnostics: [String] = []
        do {
            _ = try JobFile.parse(text, file: "job.yaml")
        } catch {
            diagnostics = error.diagnostics.map(\.description)
        }
        #expect(
            diagnostics == [
                "job.yaml:3:13: error: change needs template: (a standard change template's name or sys_id), model: "
                    + "(Normal, Emergency, Standard) or sys_id: (an existing change)",
                "job.yaml:4:35: error: change takes one of template:, model: or sys_id:, not template and model",
                "job.yaml:5:13: error: change with sys_id: needs fields: or states: (what to do to the change)",
                "job.yaml:6:38: error: change.states: 'done' is not a change request state (new, assess, authorize, "
                    + "scheduled, implement, review, closed, canceled)",
                "job.yaml:7:13: error: import needs file: (a CSV file, relative to the job file) or rows: (a list of "
                    + "mappings)",
                "job.yaml:8:66: error: import takes file: or rows:, not both",
                "job.yaml:9:30: error: unknown key 'state' in change; did you mean 'states'?",
            ])
    }

    @Test func aStandardChangeMovesAndARefusedMoveFailsTheStep() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Change
            steps:
              - id: change
                change:
                  template: Reboot Windows Server
                  fields: { start_date: "2026-03-07 22:00:00", end_date: "2026-03-07 23:00:00" }
                  states: [scheduled, implement]
              - assert: "steps.change.state == '-1' && steps.change.record.type == 'standard'"
              - change: { sys_id: "${steps.change.sys_id}", states: [closed] }
            """)
        #expect(result.status == .failed)
        #expect(
            RunHarness.normalized(result.error ?? "")
                == "step 3 (change): bad response 400 from PATCH /api/sn_chg_rest/change/<sys_id>: Change Request "
                + "cannot move to state: closed (The Standard change model has no transition from Implement to "
                + "Closed; from Implement a change can move to: Review, Canceled)")
        #expect(
            Array(harness.lines.prefix(2)) == [
                "ok   step 1 'change' (change): CHG0030009: created from the template 'Reboot Windows Server', moved "
                    + "to scheduled, moved to implement (N ms)",
                "ok   step 2 (assert): holds: steps.change.state == '-1' && steps.change.record.type == 'standard' "
                    + "(N ms)",
            ])
    }

    @Test func rowsAreLoadedFromAListAndFromACSVFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("Name,IP address\nlnx-web-09,10.0.9.9\n\"lnx, web 10\",10.0.9.10\n".utf8)
            .write(to: directory.appendingPathComponent("servers.csv"))
        try Data("Name,IP address\na,b,c\n".utf8).write(to: directory.appendingPathComponent("bad.csv"))
        let harness = try RunHarness()
        let job = """
            name: Import
            steps:
              - id: file
                import: { table: u_cmdb_ci_server_import, file: servers.csv }
              - id: list
                import: { table: u_cmdb_ci_server_import, rows: [{ u_name: lnx-web-09, u_ip_address: 10.0.9.9 }] }
              - assert: "steps.file.inserted == 2 && steps.list.ignored == 1 && steps.list.rows.0.status == 'ignored'"
              - assert: "steps.list.rows.0.sys_id == steps.file.rows.0.sys_id && steps.file.rows.1.table == 'cmdb_ci_server'"
              - import: { table: u_cmdb_ci_server_import, file: bad.csv }
            """
        let result = try await harness.run(job, file: directory.appendingPathComponent("job.yaml").path)
        #expect(result.status == .failed)
        #expect(result.error == "step 5 (import): import.file: bad.csv:2: 3 fields, but the header names 2 columns")
        #expect(
            Array(harness.lines.prefix(2)) == [
                "ok   step 1 'file' (import): loaded 2 rows into u_cmdb_ci_server_import: 2 inserted (N ms)",
                "ok   step 2 'list' (import): loaded 1 row into u_cmdb_ci_server_import: 1 ignored (N ms)",
            ])
        let names = try harness.count("cmdb_ci_server", "name=lnx, web 10")
        #expect(names == 1)
    }

    @Test func theCSVReaderTakesQuotesAndRefusesBrokenTexts() throws {
        let table = try CSVTable("a,b\r\n\"x \"\"y\"\"\",\"two\nlines\"\n\n1\n")
        #expect(table.columns == ["a", "b"])
        #expect(table.rows == [["a": "x \"y\"", "b": "two\nlines"], ["a": "1"]])
        #expect(throws: CSVTable.ParseError(line: 2, message: "a quoted field is not closed")) {
            try CSVTable("a\n\"open\n")
        }
        #expect(throws: CSVTable.ParseError(line: 1, message: "no header line naming the columns")) {
            try CSVTable("\n\n")
        }
        #expect(throws: CSVTable.ParseError(line: 1, message: "column 2 of the header has no name")) {
            try CSVTable("a,,c\n")
        }
    }
}
