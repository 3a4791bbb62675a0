import Foundation
import NowData

/// The `import` step, through NowData's `NowImportSetService` (the Import Set API).
extension JobExecution {
    /// Loads the rows as one import set (`insertMultiple`), then reads each staging row's outcome. Result:
    /// `import_set_id`, `multi_import_set_id`, `rows` (each `row`, `status`, `table`, `sys_id` of the target
    /// and `message`), `count` and the number `inserted`, `updated`, `ignored` and `errors`. A row the instance
    /// could not transform fails the step, naming it. A dry run keeps the write and loads nothing.
    func perform(_ step: ImportStep, label: String, scope: Scope) async throws(StepFailure) -> (StepResult, String) {
        let table = try text(step.table, "import.table", scope: scope)
        let rows = try importedRows(step.source, scope: scope)
        let request: NowHTTPRequest
        do {
            request = try NowImportSetService.insertMultipleRequest(rows, into: table)
        } catch {
            throw StepFailure("import: \(error)")
        }
        if dryRun != nil {
            let write = PlannedWrite(step: label, request: request, before: nil, masker: masker)
            planned.append(write)
            let result = ImportStep.result(importSet: "", multi: "", rows: [], count: rows.count)
            return (.value(result), "would load \(rows.count) rows into \(table) (dry run)")
        }
        let imports = NowImportSetService(
            configuration: service.configuration, coreServiceProvider: service.coreServiceProvider)
        let loaded = try await calling { try await imports.insertMultiple(rows, into: table) }
        let fields: [FieldName] = [
            "sys_import_row", "sys_import_state", "sys_import_state_comment", "sys_target_table", "sys_target_sys_id",
        ]
        let configuration = FetchConfiguration(
            filter: Filter(query: "sys_import_set=\(loaded.importSetId)^ORDERBYsys_import_row"), limit: max(rows.count, 1),
            readConfiguration: FieldReadConfiguration(includeFields: fields, options: .excludeReferenceLink))
        let data = try await calling { try await service.records(from: table, configuration: configuration) }
        let staged: [NowRecord] = data.convertToRecords()
        let outcomes: [JSONValue] = staged.map { row -> JSONValue in
            let object: JSONObject = [
                "row": .number(JSONNumber(Int(row["sys_import_row"] ?? "") ?? 0)),
                "status": .string(row["sys_import_state"] ?? ""), "table": .string(row["sys_target_table"] ?? ""),
                "sys_id": .string(row["sys_target_sys_id"] ?? ""),
                "message": .string(row["sys_import_state_comment"] ?? ""),
            ]
            return .object(object)
        }
        let result = ImportStep.result(importSet: loaded.importSetId, multi: loaded.multiImportSetId, rows: outcomes)
        let failed = outcomes.filter { $0["status"]?.string == "error" }
        guard failed.isEmpty else {
            let reasons = failed.map { "row \($0["row"]?.text ?? "?"): \($0["message"]?.text ?? "")" }
            throw StepFailure(
                "import into \(table): \(failed.count) of \(rows.count) rows failed: " + reasons.joined(separator: "; "),
                fromInstance: true)
        }
        let counts = ["inserted", "updated", "ignored"].compactMap { status in
            result[status]?.text == "0" ? nil : "\(result[status]?.text ?? "") \(status)"
        }
        return (
            .value(result),
            "loaded \(rows.count) row\(rows.count == 1 ? "" : "s") into \(table): "
                + (counts.isEmpty ? "nothing transformed" : counts.joined(separator: ", "))
        )
    }

    /// The rows of the CSV file or the list, each column's value as text.
    private func importedRows(_ source: ImportStep.Source, scope: Scope) throws(StepFailure) -> [[FieldName: String]] {
        switch source {
        case .file(let template):
            let path = try text(template, "import.file", scope: scope)
            let url = resolvedPath(path)
            let text: String
            do {
                text = try String(contentsOf: url, encoding: .utf8)
            } catch {
                throw StepFailure("import.file: cannot read \(path): \(error.localizedDescription)")
            }
            do {
                return try CSVTable(text).rows
            } catch {
                throw StepFailure("import.file: \(path):\(error.line): \(error.message)")
            }
        case .rows(let value):
            let rows: JSONValue
            do {
                rows = try value.evaluate(in: scope)
            } catch {
                throw StepFailure("import.rows: \(error.message)")
            }
            guard case .array(let items) = rows else { throw StepFailure("import.rows: not a list of mappings") }
            var result: [[FieldName: String]] = []
            for (index, item) in items.enumerated() {
                guard case .object(let columns) = item else {
                    throw StepFailure("import.rows.\(index): not a mapping of column values")
                }
                result.append(Dictionary(columns.map { ($0.key, $0.value.text) }, uniquingKeysWith: { first, _ in first }))
            }
            return result
        }
    }
}
