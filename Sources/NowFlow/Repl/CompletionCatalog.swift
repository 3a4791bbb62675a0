import NowData

/// What tab completion offers beyond the fixed words: table names (from the instance's `sys_db_object`, or else a
/// fixed list, and the tables used), the fields of each table (from the instance's dictionary, or else from the
/// records seen), and the results and variables of the session.
struct CompletionCatalog: Sendable {
    /// Tables every ServiceNow instance has, offered before the instance's own are known, and when it refuses.
    static let commonTables = [
        "incident", "problem", "change_request", "change_task", "task", "sc_request", "sc_req_item", "sc_task",
        "sys_user", "sys_user_group", "sys_user_grmember", "cmdb_ci", "cmdb_ci_server", "cmdb_ci_computer",
        "kb_knowledge", "sys_choice", "sys_dictionary", "sys_db_object",
    ]

    var tables = Set(commonTables)
    /// Whether `tables` holds the instance's own table names (its `sys_db_object` answered).
    var instanceTables = false
    /// The tables whose fields came from the instance's dictionary, so that a name not among them is not a field.
    var dictionaryTables: Set<String> = []
    /// Field names by table.
    var fields: [String: Set<String>] = [:]
    /// The boolean fields by table (their dictionary's `internal_type`), of the table and those it extends.
    var booleans: [String: Set<String>] = [:]
    /// A choice field's values, then its labels that are not values, by table and field (`sys_choice`), on the
    /// table that lists them.
    var choiceValues: [String: [String: [String]]] = [:]
    /// The table each table extends (`incident` → `task`), from the instance's `sys_db_object`.
    var parents: [String: String] = [:]
    /// The request for the instance's table names, started at the first completion of a table name.
    var tableLoad: Task<Void, Never>?
    /// The dictionary loads started by the name checks, by table.
    var dictionaryLoads: [String: Task<Void, Never>] = [:]
    /// The tables whose dictionary was asked for (answered or not), so that it is asked once.
    var dictionaryAsked: Set<String> = []
    /// `steps.<id>` results and `vars.<name>` values, for completing paths into them.
    var steps: [String: StepResult] = [:]
    var vars: [String: JSONValue] = [:]

    /// `table` and the tables it extends, nearest first.
    func lineage(of table: String) -> [String] {
        var names = [table]
        while let parent = parents[names[names.count - 1]], !names.contains(parent) { names.append(parent) }
        return names
    }

    /// The boolean fields of `table`, its own and those of the tables it extends.
    func booleanFields(of table: String) -> Set<String> {
        lineage(of: table).reduce(into: Set<String>()) { $0.formUnion(booleans[$1] ?? []) }
    }

    /// The values and labels of a choice field of `table`, from the nearest table that lists them; nil when none
    /// does.
    func choices(of table: String, field: String) -> [String]? {
        lineage(of: table).lazy.compactMap { choiceValues[$0]?[field] }.first
    }

    /// Notes a table and the fields of its records.
    mutating func saw(table: String, records: [JSONValue]) {
        tables.insert(table)
        for case .object(let record) in records {
            fields[table, default: []].formUnion(record.keys)
        }
    }
}
