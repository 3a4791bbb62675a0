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

    /// The instance's tables, their fields, types and choice lists, as far as they were read: the same schema the
    /// name check of `run` reads, which the session's steps are checked and translated with.
    var schema = InstanceDictionary()
    /// The common tables, and the tables of the records seen.
    var seenTables = Set(commonTables)
    /// The field names of the records seen, by table.
    var seenFields: [String: Set<String>] = [:]
    /// How long a Tab waits for a load it started (``tableLoad``, ``dictionaryLoads``) before offering what is known.
    static let loadWait = 0.4

    /// The request for the instance's table names, started at the first completion of a table name.
    var tableLoad: Task<Void, Never>?
    /// The dictionary loads started by the name checks, by table.
    var dictionaryLoads: [String: Task<Void, Never>] = [:]
    /// The tables whose dictionary was asked for (answered or not), so that it is asked once.
    var dictionaryAsked: Set<String> = []
    /// Whether the instance's table names were asked for and the answer (or refusal) has come.
    var tableListRead = false
    /// The tables whose dictionary was asked for and the answer (or refusal) has come: a Tab on them waits for
    /// nothing, however long a task takes to be scheduled.
    var dictionaryRead: Set<String> = []
    /// What completion has to say once, the first time it could not wait for what it asked the instance (the line
    /// editor shows it); nil once said.
    var notice: String?
    /// Whether ``notice`` was given (it is given once a session).
    var noticeGiven = false
    /// `steps.<id>` results and `vars.<name>` values, for completing paths into them.
    var steps: [String: StepResult] = [:]
    var vars: [String: JSONValue] = [:]

    /// The table names offered: the instance's, the common ones and those seen.
    var tables: Set<String> { seenTables.union(schema.tables) }

    /// Whether ``tables`` holds the instance's own table names (its `sys_db_object` answered).
    var instanceTables: Bool { !schema.tables.isEmpty }

    /// The field names offered for `table`: those of the instance's dictionary (its own and those of the tables it
    /// extends) and those of the records seen.
    func fields(of table: String) -> [String] {
        Array(seenFields[table, default: []].union(schema.allFields(of: table).keys))
    }

    /// Where the dot-walk `word` (`assignment_group.na`, `caller_id.manager.`) reaches from `table`: its reference
    /// fields up to the last dot (`assignment_group.`) and the table they point to (`sys_user_group`); nil when a
    /// part is not a reference field of the dictionary read so far.
    func walk(_ word: String, from table: String) -> (base: String, table: String)? {
        let typed = FieldPath(word)
        guard typed.isDotWalked else { return nil }
        // The names up to the last dot, each a reference: the last one's table is where the word's fields are.
        let base = FieldPath(typed.prefix(through: typed.components.count - 2))
        guard let reference = schema.walk(base, from: table).leaf?.field.reference, !reference.isEmpty else {
            return nil
        }
        return (base.description + ".", reference)
    }

    /// The dot-walked field names that can replace `word` on `table` (`assignment_group.name`, ...): the fields of
    /// the table its references reach.
    func walkedFields(_ word: String, from table: String) -> [String] {
        guard let (base, reached) = walk(word, from: table) else { return [] }
        return fields(of: reached).map { base + $0 }
    }

    /// The field names known for `table` when the instance's dictionary listed its fields, so that a name not among
    /// them is not a field; nil when it did not.
    func checkedFields(of table: String) -> Set<String>? {
        schema.allFields(of: table).isEmpty ? nil : Set(fields(of: table))
    }

    /// The boolean fields of `table`, its own and those of the tables it extends.
    func booleanFields(of table: String) -> Set<String> {
        Set(schema.allFields(of: table).keys.filter { schema.type(of: table, field: $0) == "boolean" })
    }

    /// The values of a choice field of `table`, in the instance's order, then its labels that are not values; nil
    /// when the field has no choice list.
    func choices(of table: String, field: String) -> [String]? {
        guard let choices = schema.choices(of: table, field: field) else { return nil }
        var offered: [String] = []
        for value in choices.map(\.value) where !offered.contains(value) { offered.append(value) }
        for label in choices.map(\.label) where !label.isEmpty && !offered.contains(label) { offered.append(label) }
        return offered
    }

    /// Notes a table and the fields of its records.
    mutating func saw(table: String, records: [NowRecord]) {
        seenTables.insert(table)
        for record in records {
            seenFields[table, default: []].formUnion(record.json.keys)
        }
    }
}
