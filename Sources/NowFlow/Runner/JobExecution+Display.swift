import NowData

/// What `nowflow run` shows under a step's line (``RunOptions/display``): the records a query or get read as the
/// REPL's aligned table (the step's `fields`, else the identifying ones; at most `show:` rows), the identifying
/// fields and the fields a write (or an ensure that created or changed a record) set, the value an extract or set
/// gave, an http answer's body, an attachment's metadata, a list of attachments, an aggregate's statistics or groups.
extension JobExecution {
    /// The lines shown under the step's line for its `result`, the secrets masked; none without a display, or with
    /// `show: false` (and then the result is not walked for secrets).
    ///
    /// Records are laid out from their cells, each member masked and its dates shown in the display's zone as its
    /// cell is made; the other values are masked and shown whole, as they are small.
    func shownLines(of step: Step, _ result: StepResult, scope: Scope) -> [String] {
        guard let display = options.display, let dates = displayDates, step.show != .none else { return [] }
        let naming = naming(of: step, scope: scope)
        let width = display.width.map { max($0 - ResultDisplay.indent.count, 20) } ?? RecordTable.unlimited
        /// A value as shown: its secrets masked, its dates in the display's zone.
        func shown(_ value: JSONValue) -> JSONValue { dates.shown(masker(value)) }
        /// A record's cells as shown.
        func cells(_ record: NowRecord) -> [String: String] { RecordTable.cells(of: record, shown: shown) }
        var lines: [String]
        switch (step.kind, result) {
        case (.query(let query), .records(let records)):
            lines = table(records.map(cells), fields: query.fields, show: step.show, width: width, naming: naming)
        case (.get(let get), .record(let record, _)):
            lines = table(
                record.map { [cells($0)] } ?? [], fields: get.fields, show: step.show, width: width, naming: naming)
        case (.create(let create), .written(let write)):
            lines = written(
                write.record.map { [cells($0)] } ?? [], set: create.fields.map(\.name), naming: naming,
                show: step.show, dates: dates, width: width)
        case (.update(let update), .written(let write)):
            let rows = (write.records?.values ?? []).compactMap { $0.map(cells) }
            lines = written(
                rows, set: update.fields.map(\.name), naming: naming, bySysID: !write.byQuery, show: step.show,
                dates: dates, width: width)
        case (.delete, .written(let write)):
            let sysIDs = write.byQuery ? write.sysIDs.map { masker($0) } : []
            lines = table(sysIDs.map { ["sys_id": $0] }, fields: ["sys_id"], show: step.show, width: width)
        case (.extract, .extracted(.records(let records))):
            lines = table(records.map(cells), fields: [], show: step.show, width: width)
        case (.extract, .extracted(.record(let record))):
            let renderer = ResultRenderer(format: .table, dates: dates, width: width)
            lines = renderer.recordLines(cells: cells(record), fields: []).split(separator: "\n").map(String.init)
        case (.extract, .extracted(let extracted)):
            let value = masker(extracted.json)
            if let items = dates.shown(value).array, !items.isEmpty, items.allSatisfy({ $0.object != nil }) {
                lines = table(RecordTable.cells(ofObjects: items), fields: [], show: step.show, width: width)
            } else {
                lines = valueLines(value, dates: dates, width: width)
            }
        case (.set(let assignments), .value(let values)):
            let values = shown(values)
            lines = assignments.map { assignment in
                let value = values[assignment.name] ?? .null
                return RecordTable.cut("vars.\(assignment.name) = \(value.sortingKeys().jsonText())", to: width)
            }
        case (.include, .value(let value)):
            let outputs = shown(value)["outputs"]?.object ?? [:]
            lines = outputs.map { RecordTable.cut("outputs.\($0.key) = \($0.value.sortingKeys().jsonText())", to: width) }
        case (.ensure, .ensured(let outcome)):
            // What was created or changed: the record's identifying field and the fields sent.
            let sent = outcome.written
            let rows = outcome.record.map { [cells($0)] } ?? []
            lines =
                sent.isEmpty
                ? [] : written(rows, set: sent, naming: naming, show: step.show, dates: dates, width: width)
        case (.http, .http(_, _, let body)):
            lines = valueLines(masker(body), dates: dates, width: width)
        case (.attach, .attachments(let value)), (.download, .attachments(let value)),
            (.attachments, .attachments(let value)), (.aggregate, .aggregate(let value)):
            let (value, fields) = ResultRenderer.tabular(shown(value), of: step.kind)
            if let records = value["records"]?.array {
                lines = table(RecordTable.cells(ofObjects: records), fields: fields, show: step.show, width: width)
            } else if let record = value["record"]?.object {
                let renderer = ResultRenderer(format: .table, dates: dates, width: width)
                lines = renderer.recordLines(record, fields: fields).split(separator: "\n").map(String.init)
            } else {
                lines = []
            }
        default:
            lines = []
        }
        return lines.map { ResultDisplay.indent + $0 }
    }

    /// The fields that name the records of `step`'s table (``naming(_:)``); those of any table for a step without
    /// a table, or whose table does not render.
    private func naming(of step: Step, scope: Scope) -> [String] {
        let table: Template
        switch step.kind {
        case .query(let query): table = query.table
        case .get(let get): table = get.table
        case .create(let create): table = create.table
        case .update(let update): table = update.table
        case .ensure(let ensure): table = ensure.table
        default: return RecordName.fields
        }
        return (try? text(table, "table", scope: scope)).map(naming) ?? RecordName.fields
    }

    /// Rows of cells as an aligned table of `fields` (else the identifying fields they have, the fields that name
    /// them, `naming`, first), at most `show` rows and a line saying how many more there are.
    private func table(
        _ rows: [[String: String]], fields: [String], show: ShowSetting, width: Int,
        naming: [String] = RecordName.fields
    ) -> [String] {
        guard !rows.isEmpty else { return [] }
        let limit: Int
        switch show {
        case .rows(let rows): limit = rows
        case .all, .none: limit = rows.count
        }
        let shown = Array(rows.prefix(limit))
        let columns = fields.isEmpty ? RecordTable.identifyingColumns(of: shown, naming: naming) : fields
        var lines = RecordTable(rows: shown, fields: columns, width: width, naming: naming).render().lines
        if rows.count > shown.count { lines.append("and \(rows.count - shown.count) more") }
        return lines
    }

    /// The records a write touched, as cells: the field that names each (the first of `naming` they have,
    /// ``RecordName``) and the fields it set; one record as `field  value` lines (with its sys_id unless the write
    /// named it, as the step's line does), several as a table with their sys_ids.
    private func written(
        _ rows: [[String: String]], set: [String], naming: [String], bySysID: Bool = true, show: ShowSetting,
        dates: JobDates, width: Int
    ) -> [String] {
        let present = Set(rows.flatMap { row in row.compactMap { $0.value.isEmpty ? nil : $0.key } })
        let named = naming.first(where: present.contains).map { [$0] } ?? []
        let columns = named + set.filter { $0 != "sys_id" && !named.contains($0) }
        guard rows.count == 1, let cells = rows.first else {
            return table(rows, fields: columns + ["sys_id"], show: show, width: width, naming: naming)
        }
        let renderer = ResultRenderer(format: .table, dates: dates, width: width)
        let fields = bySysID ? columns : columns + ["sys_id"]
        return renderer.recordLines(cells: cells, fields: fields).split(separator: "\n").map(String.init)
    }

    /// An extracted value other than a list of records, unless the step's line shows it whole already: a record
    /// as `field  value` lines, another value as YAML or as its text.
    private func valueLines(_ value: JSONValue, dates: JobDates, width: Int) -> [String] {
        switch value {
        case .array, .object: break
        default: guard value.brief.hasSuffix("...") else { return [] }
        }
        let renderer = ResultRenderer(format: .table, dates: dates, width: width)
        return renderer.render(value).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}
