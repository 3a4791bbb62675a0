/// The tables the local instance knows: the built-in ones and those of a dictionary file.
struct TableDictionary: Sendable {
    /// The tables by name.
    private(set) var tables: [String: TableDefinition]
    /// The table names in the order they were defined.
    private(set) var tableNames: [String]

    /// A dictionary of `tables`; a later table of the same name replaces an earlier one.
    init(_ tables: [TableDefinition]) {
        self.tables = [:]
        self.tableNames = []
        for table in tables { add(table) }
    }

    /// The table called `name`, if it exists.
    func table(_ name: String) -> TableDefinition? {
        tables[name]
    }

    /// The tables that extend `name`, directly or not (`incident`, `problem`, `change_request` for `task`).
    func descendants(of name: String) -> [TableDefinition] {
        tableNames.compactMap { tables[$0] }.filter { table in
            var parent = table.parent
            while let current = parent {
                if current == name { return true }
                parent = tables[current]?.parent
            }
            return false
        }
    }

    /// Whether `name` is `ancestor` or extends it.
    func table(_ name: String, extends ancestor: String) -> Bool {
        name == ancestor || descendants(of: ancestor).contains { $0.name == name }
    }

    /// The rules in force on `name`: those it declares, and for the others its parent's, and so on up (see
    /// ``TableRules``); no rules for an unknown table.
    func rules(of name: String) -> TableRules {
        var rules = TableRules()
        var current: String? = name
        var seen: Set<String> = []
        while let table = current.flatMap({ tables[$0] }), seen.insert(table.name).inserted {
            rules = rules.inheriting(table.rules)
            current = table.parent
        }
        return rules
    }

    /// The application menu the navigator lists `name` under: the one the table or the nearest table it extends
    /// declares, else `Custom tables` (a table of a dictionary file that extends no built-in one).
    func application(of name: String) -> String {
        var current: String? = name
        var seen: Set<String> = []
        while let table = current.flatMap({ tables[$0] }), seen.insert(table.name).inserted {
            if let application = table.application { return application }
            current = table.parent
        }
        return "Custom tables"
    }

    /// Adds or replaces a table.
    mutating func add(_ table: TableDefinition) {
        if tables[table.name] == nil { tableNames.append(table.name) }
        tables[table.name] = table
    }
}
