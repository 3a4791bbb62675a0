import Foundation
import NowData

/// Tab completion, answered without waiting for a running step.
extension ReplSession {
    /// The characters that end a word for completion; the line editor must split words the same way.
    public static let wordBreakCharacters = ReplCompleter.breakCharacters

    /// Whether the word at the end of `prefix` (the line up to the cursor) is a file name, which the line editor
    /// completes from the file system.
    public static func completesPath(_ prefix: String) -> Bool {
        ReplCompleter.completesPath(prefix)
    }

    /// The words that can replace the word under the cursor; `prefix` is the line up to the cursor. Never waits:
    /// the first completion of a table name asks the instance's `sys_db_object` for its tables in the background,
    /// and the first completion after a line names a table whose dictionary was not asked for asks for its fields
    /// in the background (the next Tab offers them); until then, and on an instance that refuses, the common
    /// tables and the tables and fields of the records seen in the session are offered.
    public nonisolated func completions(for prefix: String) -> [String] {
        if ReplCompleter.completesTable(prefix) {
            _ = tableLoad()
        } else if let table = ReplCompleter.table(in: prefix), catalog.withLock({ !$0.dictionaryAsked.contains(table) }) {
            Task { await self.loadDictionary(for: table) }
        }
        return catalog.withLock { ReplCompleter.completions(for: prefix, catalog: $0) }
    }

    /// The dictionary load of `table` (``loadDictionary(for:)``), shared: started on the first call for the table.
    nonisolated func dictionaryLoad(for table: String) -> Task<Void, Never> {
        catalog.withLock { catalog in
            if let load = catalog.dictionaryLoads[table] { return load }
            let load = Task { await self.loadDictionary(for: table) }
            catalog.dictionaryLoads[table] = load
            return load
        }
    }

    /// What the line editor puts after `match` when it is the only completion of the word at the end of `prefix`:
    /// `""`, `"."`, `"}"` or `" "`.
    public nonisolated func completionEnding(of match: String, prefix: String) -> String {
        catalog.withLock { ReplCompleter.ending(of: match, prefix: prefix, catalog: $0) }
    }

    /// The request for the instance's table names (`sys_db_object`: `name` and the parent's), started on the
    /// first call; an instance that refuses is asked no more.
    nonisolated func tableLoad() -> Task<Void, Never> {
        catalog.withLock { catalog in
            if let load = catalog.tableLoad { return load }
            let load = Task { await self.loadTables() }
            catalog.tableLoad = load
            return load
        }
    }

    private nonisolated func loadTables() async {
        let configuration = FetchConfiguration(
            limit: 10000, readConfiguration: FieldReadConfiguration(includeFields: ["name", "super_class.name"]))
        let data = try? await service.records(from: "sys_db_object", configuration: configuration)
        if Task.isCancelled {
            // Interrupted (Ctrl-C during a step's name check): asked again next time.
            catalog.withLock { $0.tableLoad = nil }
            return
        }
        guard let data, let items = try? JobExecution.resultList(data) else { return }
        var names: [String] = []
        var parents: [String: String] = [:]
        for case .object(let fields) in items {
            guard let name = fields["name"]?.text, NameUse.isTableName(name) else { continue }
            names.append(name)
            if let parent = fields["super_class.name"]?.text, NameUse.isTableName(parent) { parents[name] = parent }
        }
        catalog.withLock {
            $0.tables.formUnion(names)
            $0.parents.merge(parents) { _, new in new }
            if !names.isEmpty { $0.instanceTables = true }
        }
    }

    /// Asks the instance's dictionary (`sys_dictionary`) once for the table's field names and types, and for those
    /// of the tables it extends (the platform lists a field on the table that defines it; the table names, asked
    /// for first, tell the tables it extends), then its choice lists (`sys_choice`); an instance that has none, or
    /// refuses, is asked no more for that table.
    nonisolated func loadDictionary(for table: String) async {
        let first = catalog.withLock { $0.dictionaryAsked.insert(table).inserted }
        guard first else { return }
        // The table names tell which tables this one extends, whose dictionary lists the fields it inherits.
        await tableLoad().value
        let lineage = catalog.withLock { $0.lineage(of: table) }
        let tables = EncodedQuery.Condition(
            field: "name", op: lineage.count == 1 ? .equals : .isIn, value: lineage.joined(separator: ","))
        let query = EncodedQuery(matchingAll: [tables, EncodedQuery.Condition(field: "element", op: .isNotEmpty)])
        let configuration = FetchConfiguration(
            filter: Filter(query: query.text), limit: 1000,
            readConfiguration: FieldReadConfiguration(includeFields: ["name", "element", "internal_type"]))
        let data = try? await service.records(from: "sys_dictionary", configuration: configuration)
        if Task.isCancelled {
            catalog.withLock {
                $0.dictionaryAsked.remove(table)
                $0.dictionaryLoads[table] = nil
            }
            return
        }
        guard let data, let items = try? JobExecution.resultList(data) else { return }
        var found: [String] = []
        var booleans: [String: Set<String>] = [:]
        for item in items {
            guard let element = item["element"]?.text, !element.isEmpty else { continue }
            found.append(element)
            if item["internal_type"]?.text == "boolean" {
                booleans[item["name"]?.text ?? table, default: []].insert(element)
            }
        }
        guard !found.isEmpty else { return }
        catalog.withLock {
            $0.tables.insert(table)
            $0.fields[table, default: []].formUnion(found)
            $0.dictionaryTables.insert(table)
            $0.booleans.merge(booleans) { old, new in old.union(new) }
        }
        await loadChoices(tables)
    }

    /// The choice lists of the tables the condition `tables` names, by table and field: the values in the
    /// instance's order, then the labels that are not values (a label with a space is offered after a quote).
    private nonisolated func loadChoices(_ tables: EncodedQuery.Condition) async {
        let query = EncodedQuery(matchingAll: [tables], ordering: [EncodedQuery.Ordering(field: "sequence", descending: false)])
        let configuration = FetchConfiguration(
            filter: Filter(query: query.text), limit: 10000,
            readConfiguration: FieldReadConfiguration(includeFields: ["name", "element", "value", "label"]))
        guard let data = try? await service.records(from: "sys_choice", configuration: configuration),
            let items = try? JobExecution.resultList(data)
        else { return }
        var values: [String: [String: [String]]] = [:]
        var labels: [String: [String: [String]]] = [:]
        for item in items {
            guard let table = item["name"]?.text, let element = item["element"]?.text, let value = item["value"]?.text,
                !value.isEmpty
            else { continue }
            if !values[table, default: [:]][element, default: []].contains(value) {
                values[table, default: [:]][element, default: []].append(value)
            }
            if let label = item["label"]?.text, !label.isEmpty, !labels[table, default: [:]][element, default: []].contains(label) {
                labels[table, default: [:]][element, default: []].append(label)
            }
        }
        for (table, fields) in labels {
            for (field, named) in fields {
                let known = values[table]?[field] ?? []
                values[table, default: [:]][field] = known + named.filter { !known.contains($0) }
            }
        }
        catalog.withLock { $0.choiceValues.merge(values) { _, new in new } }
    }
}
