/// One table of the dictionary: its fields, display field, numbering and the platform's rules on it.
struct TableDefinition: Sendable, Hashable {
    /// The table name, such as `incident`.
    var name: String
    /// The label, such as `Incident`.
    var label: String
    /// The application menu the platform's navigator lists the table under (`Incident`, `Change`, `System
    /// Definition`); nil: its parent's (``TableDictionary/application(of:)``).
    var application: String?
    /// The field whose value stands for a record (a reference's display value), such as `number`.
    var displayField: String
    /// The prefix of auto-numbers (`INC`), nil when the table is not numbered.
    var numberPrefix: String?
    /// The first auto-number (10001 gives `INC0010001`).
    var numberStart: Int
    /// The table this one extends (`task` for `incident`): its records are also records of the parent, whose
    /// fields it has.
    var parent: String?
    /// The fields in order, system fields included.
    var fields: [FieldDefinition]
    /// The rules this table declares; it takes the others from its parent (``TableDictionary/rules(of:)``).
    var rules: TableRules
    private var index: [String: Int]

    /// The system fields every table has, in the order they are returned.
    static let systemFields: [FieldDefinition] = [
        FieldDefinition("sys_id", label: "Sys ID"),
        FieldDefinition("sys_created_on", .dateTime, label: "Created"),
        FieldDefinition("sys_created_by", label: "Created by"),
        FieldDefinition("sys_updated_on", .dateTime, label: "Updated"),
        FieldDefinition("sys_updated_by", label: "Updated by"),
        FieldDefinition("sys_mod_count", .integer, label: "Updates"),
        FieldDefinition("sys_class_name", label: "Class"),
    ]

    /// The names of the system fields, which only the instance writes (unless `sysparm_suppress_auto_sys_field`).
    static let systemFieldNames: Set<String> = Set(systemFields.map(\.name))

    /// A table; `fields` are the table's own fields, the system fields are added after them. A field declared twice
    /// (an inherited field a child table gives its own choices or default, such as `incident.contact_type`) keeps
    /// its first place and its last declaration.
    init(
        name: String, label: String, application: String? = nil, displayField: String, numberPrefix: String? = nil,
        numberStart: Int = 10001,
        extends parent: String? = nil, fields: [FieldDefinition], rules: TableRules = TableRules()
    ) {
        self.name = name
        self.label = label
        self.application = application
        self.displayField = displayField
        self.numberPrefix = numberPrefix
        self.numberStart = numberStart
        self.parent = parent
        self.rules = rules
        var all: [FieldDefinition] = []
        var places: [String: Int] = [:]
        for field in fields where !Self.systemFieldNames.contains(field.name) {
            if let place = places[field.name] {
                all[place] = field
            } else {
                places[field.name] = all.count
                all.append(field)
            }
        }
        if numberPrefix != nil, !all.contains(where: { $0.name == "number" }) {
            all.insert(FieldDefinition("number"), at: 0)
        }
        self.fields = all + Self.systemFields
        self.index = Dictionary(self.fields.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The field called `name`, if the table has it.
    func field(_ name: String) -> FieldDefinition? {
        index[name].map { fields[$0] }
    }
}
