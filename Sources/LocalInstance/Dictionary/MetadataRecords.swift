import NowData

/// The records of the read-only dictionary tables (`sys_db_object`, `sys_dictionary`, `sys_documentation`,
/// `sys_choice`), generated
/// from a ``TableDictionary`` so that they always describe the tables the instance serves.
///
/// As on the platform, a field is listed in `sys_dictionary` on the table that defines it (`short_description` on
/// `task`, not on `incident`; the system fields on each base table), and a choice list in `sys_choice` on the table
/// that defines the field, or on the extending table that changes it (`incident.state`). Every sys_id is derived
/// from what the record describes, so it is the same on every start.
struct MetadataRecords {
    /// The records of `sys_db_object`, `sys_dictionary`, `sys_documentation` and `sys_choice`, in that order, with
    /// their table. A field's label is in `sys_documentation` on the table that lists it in `sys_dictionary`.
    let records: [(table: TableDefinition, record: StoredRecord)]

    /// The records describing every table of `dictionary`, with `timestamp` as their creation and update time.
    init(dictionary: TableDictionary, timestamp: String) {
        let tables = dictionary.tableNames.compactMap(dictionary.table)
        var records: [(TableDefinition, StoredRecord)] = []
        func add(_ table: TableDefinition, _ values: StoredRecord) {
            var record = values
            // The fields a record does not set hold their defaults, as an inserted record's do.
            for field in table.fields where record[field.name] == nil {
                if let value = field.defaultValue { record[field.name] = value }
            }
            records.append((table, .system(record, of: table, at: timestamp)))
        }
        for table in tables {
            add(
                TableDictionary.sysDBObject,
                [
                    "sys_id": Self.tableSysID(table.name), "name": table.name, "label": table.label,
                    "super_class": table.parent.map(Self.tableSysID) ?? "", "sys_name": table.name,
                    "sys_update_name": "sys_db_object_\(table.name)", "access": "public",
                    "is_extendable": String(!dictionary.descendants(of: table.name).isEmpty),
                ])
        }
        for table in tables {
            add(
                TableDictionary.sysDictionary,
                [
                    "sys_id": Self.sysID("sys_dictionary", table.name), "name": table.name, "element": "",
                    "column_label": table.label, "internal_type": "collection", "reference": "", "max_length": "",
                    "mandatory": "false", "display": "false", "default_value": "", "active": "true",
                    "sys_name": table.label, "sys_update_name": "sys_dictionary_\(table.name)_null",
                ])
            let rules = dictionary.rules(of: table.name)
            for field in table.fields where Self.definingTable(of: field.name, in: table, dictionary) == table.name {
                add(TableDictionary.sysDictionary, Self.entry(field, of: table, rules: rules))
            }
        }
        for table in tables {
            add(TableDictionary.sysDocumentation, Self.documentation(table.name, "", table.label, plural: true))
            for field in table.fields where Self.definingTable(of: field.name, in: table, dictionary) == table.name {
                add(TableDictionary.sysDocumentation, Self.documentation(table.name, field.name, field.label))
            }
        }
        for table in tables {
            for field in table.fields where Self.listsChoices(of: field, in: table, dictionary) {
                for (index, choice) in field.choices.enumerated() {
                    add(
                        TableDictionary.sysChoice,
                        [
                            "sys_id": Self.sysID("sys_choice", table.name, field.name, choice.value),
                            "name": table.name, "element": field.name, "value": choice.value, "label": choice.label,
                            "sequence": String(index + 1), "inactive": "false", "language": "en",
                        ])
                }
            }
        }
        self.records = records
    }

    /// The sys_id of a table's `sys_db_object` record.
    private static func tableSysID(_ name: String) -> String {
        sysID("sys_db_object", name)
    }

    /// 32 hex digits derived from the parts.
    private static func sysID(_ parts: String...) -> String {
        String(SHA256.hex(parts.joined(separator: "\u{1F}")).prefix(32))
    }

    /// The `sys_documentation` record of a table (empty `element`, with a plural) or of a field.
    private static func documentation(_ table: String, _ element: String, _ label: String, plural: Bool = false)
        -> StoredRecord
    {
        [
            "sys_id": sysID("sys_documentation", table, element), "name": table, "element": element, "label": label,
            "plural": plural ? Self.plural(of: label) : "", "hint": "", "language": "en",
        ]
    }

    /// `Incident` → `Incidents`, `Dictionary Entry` → `Dictionary Entries`.
    private static func plural(of label: String) -> String {
        guard label.hasSuffix("y"), let before = label.dropLast().last, !"aeiou".contains(before) else {
            return label + "s"
        }
        return label.dropLast() + "ies"
    }

    /// The `sys_dictionary` record of a field; its `default_value` is the field's default, or the scripted default
    /// the table's `rules` carry out (`javascript:gs.getUserID()` for `kb_knowledge.author`), as a PDI's reads.
    private static func entry(_ field: FieldDefinition, of table: TableDefinition, rules: TableRules) -> StoredRecord {
        var reference = ""
        if case .reference(let target) = field.type { reference = target }
        return [
            "sys_id": sysID("sys_dictionary", table.name, field.name), "name": table.name, "element": field.name,
            "column_label": field.label, "internal_type": internalType(field), "reference": reference,
            "max_length": maxLength(field), "mandatory": "false", "display": String(field.name == table.displayField),
            "default_value": field.defaultValue ?? rules.scriptedDefault(of: field.name) ?? "", "active": "true",
            "sys_name": field.label,
            "sys_update_name": "sys_dictionary_\(table.name)_\(field.name)",
        ]
    }

    /// The platform's type name of a field (`glide_date_time`, `reference`, `GUID` for sys_id, `domain_id` for
    /// sys_domain, ...).
    static func internalType(_ field: FieldDefinition) -> String {
        if field.isPassword { return "password2" }
        switch field.name {
        case "sys_id": return "GUID"
        case "sys_class_name": return "sys_class_name"
        case FieldDefinition.domain.name where field.type == FieldDefinition.domain.type: return "domain_id"
        default: break
        }
        return field.type.internalType
    }

    /// The length the platform gives a sys_id, a reference (a sys_id) and `sys_class_name`; `""` for the others,
    /// whose length the local instance does not limit.
    static func maxLength(_ field: FieldDefinition) -> String {
        if field.name == "sys_class_name" { return "80" }
        if field.name == "sys_id" { return "32" }
        if case .reference = field.type { return "32" }
        return ""
    }

    /// The highest table of `table`'s line of ancestors that has the field `name` (without a gap).
    private static func definingTable(of name: String, in table: TableDefinition, _ dictionary: TableDictionary)
        -> String
    {
        var owner = table
        while let parentName = owner.parent, let parent = dictionary.table(parentName), parent.field(name) != nil {
            owner = parent
        }
        return owner.name
    }

    /// Whether `table` lists the field's choices: it has some, and the parent table does not have the same list.
    private static func listsChoices(of field: FieldDefinition, in table: TableDefinition, _ dictionary: TableDictionary)
        -> Bool
    {
        guard !field.choices.isEmpty else { return false }
        guard let parentName = table.parent, let inherited = dictionary.table(parentName)?.field(field.name) else {
            return true
        }
        return inherited.choices != field.choices
    }
}
