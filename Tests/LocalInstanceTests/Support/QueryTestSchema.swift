import NowData

@testable import LocalInstance

/// A small dictionary of tables for the encoded-query tests.
struct QueryTestSchema: QuerySchema {
    static let systemFields: [String: FieldType] = [
        "sys_id": .string, "sys_created_on": .dateTime, "sys_created_by": .string, "sys_updated_on": .dateTime,
        "sys_updated_by": .string, "sys_mod_count": .integer, "sys_class_name": .string,
    ]

    static let tables: [String: [String: FieldType]] = [
        "incident": [
            "number": .string, "short_description": .string, "active": .boolean, "priority": .integer,
            "state": .integer, "caller_id": .reference(table: "sys_user"), "opened_at": .dateTime,
            "category": .choice, "due_date": .date, "reassignment_count": .integer, "u_cost": .decimal,
            "assigned_to": .reference(table: "sys_user"),
        ],
        "sys_user": [
            "user_name": .string, "name": .string, "email": .string, "active": .boolean,
            "manager": .reference(table: "sys_user"),
        ],
    ]

    func displayField(of table: String) -> String? {
        ["incident": "number", "sys_user": "name"][table]
    }

    func fieldType(_ field: String, in table: String) -> FieldType? {
        guard let fields = Self.tables[table] else { return nil }
        return fields[field] ?? Self.systemFields[field]
    }
}
