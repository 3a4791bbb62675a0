import Foundation
import NowData

/// The tables and fields of an instance, as its dictionary (`sys_db_object`, `sys_dictionary`) lists them,
/// read through the Table API: what the name check of `validate` and `run` compares a job's names with.
struct InstanceDictionary: Sendable, Codable, Hashable {
    /// One entry of a choice list: the value stored and the label shown.
    struct Choice: Sendable, Codable, Hashable {
        var value: String
        var label: String
    }

    /// Each table's parent (`incident` → `task`).
    private(set) var parents: [String: String] = [:]
    private(set) var tables: Set<String> = []
    /// Each table's own fields, with the table a reference field points to ("" for other fields).
    private(set) var fields: [String: [String: String]] = [:]
    /// The tables whose entries ``loadTables(_:service:)`` asked for, found or not.
    private var read: Set<String> = []
    /// Each table's own fields' types, as `sys_dictionary.internal_type` names them (`integer`, `boolean`,
    /// `glide_date_time`, `reference`, ...).
    private(set) var types: [String: [String: String]] = [:]
    /// Each table's choice lists by field, in the instance's order (`sys_choice`, its active entries), on the table
    /// that lists them.
    private(set) var choices: [String: [String: [Choice]]] = [:]
    /// Each table's own display field (the field whose `sys_dictionary.display` is true on it), where it has one.
    private(set) var displayFields: [String: String] = [:]

    /// The table and the tables it extends, nearest first.
    func lineage(of table: String) -> [String] {
        var chain = [table]
        while let parent = parents[chain[chain.count - 1]], !chain.contains(parent) { chain.append(parent) }
        return chain
    }

    /// The fields of `table`, its parents' included, with what each references.
    func allFields(of table: String) -> [String: String] {
        lineage(of: table).reduce(into: [:]) { all, name in
            for (field, reference) in fields[name] ?? [:] where all[field] == nil { all[field] = reference }
        }
    }

    /// The type of a field of `table` (`internal_type`), from the nearest table that defines it; nil when unknown.
    func type(of table: String, field: String) -> String? {
        lineage(of: table).lazy.compactMap { types[$0]?[field] }.first
    }

    /// A field of a table as the dictionary lists it, on the table or on one it extends.
    struct Field: Sendable, Hashable {
        /// The table a reference field points to ("" for another field).
        var reference: String
    }

    /// The field `name` of `table` (or of a table it extends); nil when the table's fields were not read or it
    /// has no such field.
    func field(_ name: String, of table: String) -> Field? {
        guard fields[table] != nil else { return nil }
        for owner in lineage(of: table) {
            if let reference = fields[owner]?[name] { return Field(reference: reference) }
        }
        return nil
    }

    /// Walks `path` from `table` through the fields read so far.
    func walk(_ path: FieldPath, from table: String) -> FieldPath.Walk<Field> {
        path.walk(from: table, field: field) { $0.reference.isEmpty ? nil : $0.reference }
    }

    /// Walks `path` from `table`, reading the entries and fields of each table the walk reaches that were not read
    /// yet.
    ///
    /// - Throws: when the instance does not answer a read.
    mutating func walk(_ path: FieldPath, from table: String, service: NowTableService) async throws
        -> FieldPath.Walk<Field>
    {
        while true {
            let walked = walk(path, from: table)
            guard case .unknownField(_, let reached)? = walked.failure, fields[reached] == nil else { return walked }
            try await loadTables([reached], service: service)
            try await loadFields(of: [reached], service: service)
            // A table the instance does not have, or whose fields it would not list, stops the walk.
            if fields[reached] == nil { return walked }
        }
    }

    /// The field `path` names on `table` (`caller_id.name` walks the reference), for checking a condition; nil
    /// when a table on the way was not read or the name is unknown.
    func conditionField(_ path: String, of table: String) -> ConditionField? {
        let walked = walk(FieldPath(path), from: table)
        guard let leaf = walked.leaf else { return nil }
        let name = walked.path.last
        return ConditionField(
            name: "\(leaf.table).\(name)", walked: path, type: type(of: leaf.table, field: name),
            reference: leaf.field.reference, choices: choices(of: leaf.table, field: name))
    }

    /// How the values of `field` of `table` (or of a table it extends) compare in a condition; nil when neither
    /// has such a field.
    func fieldType(_ field: String, in table: String) -> FieldType? {
        for name in lineage(of: table) {
            guard let reference = fields[name]?[field] else { continue }
            return FieldType(internalType: types[name]?[field] ?? "", reference: reference)
        }
        return nil
    }

    /// The choices of a field of `table`, from the nearest table (itself, then those it extends) that lists them;
    /// nil when the field has no choice list.
    func choices(of table: String, field: String) -> [Choice]? {
        lineage(of: table).lazy.compactMap { choices[$0]?[field] }.first
    }

    /// The display field of `table`: the field its dictionary marks `display`, on it or on the nearest table it
    /// extends (`incident` → `task`'s `number`); nil when none of them was read or marks one.
    func displayField(of table: String) -> String? {
        lineage(of: table).lazy.compactMap { displayFields[$0] }.first
    }

    /// The dictionary kept at `url` when it was written less than `maximumAge` ago; nil otherwise.
    static func cached(at url: URL, maximumAge: TimeInterval) -> InstanceDictionary? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            let modified = attributes[.modificationDate] as? Date, Date().timeIntervalSince(modified) < maximumAge,
            let data = try? Data(contentsOf: url)
        else { return nil }
        return try? JSONDecoder().decode(InstanceDictionary.self, from: data)
    }

    /// Keeps the dictionary at `url` (its directory created), readable by its owner alone (0600 in a 0700
    /// directory, whatever the umask); a failure to write only loses the cache.
    func save(at url: URL) {
        guard let data = try? JSONEncoder().encode(self) else { return }
        try? FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        try? data.write(to: url, options: .atomic)
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }

    /// Reads the table list, then the fields of `tables` and of the tables they extend.
    static func load(tables needed: Set<String>, service: NowTableService) async throws -> InstanceDictionary {
        var dictionary = InstanceDictionary()
        try await dictionary.loadTableList(service: service)
        try await dictionary.loadFields(of: needed, service: service)
        return dictionary
    }

    /// Reads the instance's table list (`sys_db_object`): each table's name and the table it extends.
    mutating func loadTableList(service: NowTableService) async throws {
        let tableList = try await Self.records(
            service, "sys_db_object", query: nil, fields: ["name", "super_class.name"])
        for case .object(let row) in tableList {
            guard let name = row["name"]?.string, !name.isEmpty else { continue }
            tables.insert(name)
            if let parent = row["super_class.name"]?.string, !parent.isEmpty { parents[name] = parent }
        }
    }

    /// Adds what `other` read: tables, fields, types and choice lists, table by table.
    mutating func merge(_ other: InstanceDictionary) {
        tables.formUnion(other.tables)
        read.formUnion(other.read)
        parents.merge(other.parents) { _, new in new }
        fields.merge(other.fields) { old, new in old.merging(new) { _, new in new } }
        types.merge(other.types) { old, new in old.merging(new) { _, new in new } }
        choices.merge(other.choices) { old, new in old.merging(new) { _, new in new } }
        displayFields.merge(other.displayFields) { _, new in new }
    }

    /// Reads the entries (`sys_db_object`) of `tables` and of the tables they extend, those not read yet: the
    /// dictionary then knows them without reading the whole table list.
    mutating func loadTables(_ tables: Set<String>, service: NowTableService) async throws {
        var wanted = tables.subtracting(self.tables).subtracting(read)
        while !wanted.isEmpty {
            read.formUnion(wanted)
            let rows = try await Self.records(
                service, "sys_db_object",
                query: EncodedQuery(matchingAll: [
                    EncodedQuery.Condition(field: "name", op: .isIn, value: wanted.sorted().joined(separator: ","))
                ]),
                fields: ["name", "super_class.name"])
            wanted = []
            for case .object(let row) in rows {
                guard let name = row["name"]?.string, !name.isEmpty else { continue }
                self.tables.insert(name)
                if let parent = row["super_class.name"]?.string, !parent.isEmpty {
                    parents[name] = parent
                    if !self.tables.contains(parent), !read.contains(parent) { wanted.insert(parent) }
                }
            }
        }
    }

    /// Reads the fields of `tables` (and their parents) not read yet, and their choice lists. A table the table
    /// list does not name is not read, unless no table list was read (an instance that refuses it).
    mutating func loadFields(of tables: Set<String>, service: NowTableService) async throws {
        let listed = self.tables.isEmpty && read.isEmpty ? tables : tables.filter(self.tables.contains)
        let missing = Set(listed.flatMap(lineage(of:))).subtracting(fields.keys).sorted()
        guard !missing.isEmpty else { return }
        for table in missing { fields[table] = [:] }
        let names = EncodedQuery.Condition(field: "name", op: .isIn, value: missing.joined(separator: ","))
        let rows = try await Self.records(
            service, "sys_dictionary",
            query: EncodedQuery(matchingAll: [names, EncodedQuery.Condition(field: "element", op: .isNotEmpty)]),
            fields: ["name", "element", "reference", "reference.name", "internal_type", "display"])
        for case .object(let row) in rows {
            guard let table = row["name"]?.string, let element = row["element"]?.string, !element.isEmpty else {
                continue
            }
            let reference = row["reference.name"]?.string.flatMap { $0.isEmpty ? nil : $0 } ?? row["reference"]?.string
            fields[table, default: [:]][element] = reference ?? ""
            if let type = row["internal_type"]?.string, !type.isEmpty { types[table, default: [:]][element] = type }
            if row["display"]?.string == "true" { displayFields[table] = element }
        }
        // The choice lists only add warnings: an instance that refuses them is checked without.
        let entries = try? await Self.records(
            service, "sys_choice",
            query: EncodedQuery(
                matchingAll: [names, EncodedQuery.Condition(field: "inactive", op: .equals, value: "false")],
                ordering: [EncodedQuery.Ordering(field: "sequence", descending: false)]),
            fields: ["name", "element", "value", "label"])
        for case .object(let row) in entries ?? [] {
            guard let table = row["name"]?.string, let element = row["element"]?.string,
                let value = row["value"]?.string, !value.isEmpty
            else { continue }
            let choice = Choice(value: value, label: row["label"]?.string ?? value)
            if choices[table]?[element]?.contains(choice) == true { continue }
            choices[table, default: [:]][element, default: []].append(choice)
        }
    }

    private static func records(_ service: NowTableService, _ table: String, query: EncodedQuery?, fields: [String])
        async throws -> [JSONValue]
    {
        let configuration = FetchConfiguration(
            filter: query.map { Filter(query: $0.text) }, limit: 10000,
            readConfiguration: FieldReadConfiguration(includeFields: fields))
        return try JSONValue.tableRecords(of: try await service.records(from: table, configuration: configuration))
    }
}
