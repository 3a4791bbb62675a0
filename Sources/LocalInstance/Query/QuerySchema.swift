import NowData

/// What the encoded-query translator needs to know about the tables: each field's type.
///
/// Every table also has the system fields `sys_id`, `sys_created_on`, `sys_created_by`, `sys_updated_on`,
/// `sys_updated_by`, `sys_mod_count` and `sys_class_name`, which the schema reports like any other field.
protocol QuerySchema: Sendable {
    /// The type of `field` in `table`, or nil when the table has no such field (or there is no such table).
    /// Field names are case-sensitive.
    func fieldType(_ field: String, in table: String) -> FieldType?

    /// The field that names a record of `table` (`name` for `sys_user`, `number` for `incident`), by which an
    /// `ORDERBY` on a reference to `table` sorts; nil sorts references by sys_id.
    func displayField(of table: String) -> String?

    /// The password fields of `table`, which cannot be queried (``fieldType(_:in:)`` is nil for them) and whose
    /// conditions are logged without their text.
    func passwordFields(of table: String) -> [String]
}

extension QuerySchema {
    /// No display fields: references sort by sys_id.
    func displayField(of table: String) -> String? { nil }

    /// No password fields.
    func passwordFields(of table: String) -> [String] { [] }

    /// Walks `path` from `table` through the fields' types: each name but the last must be a reference.
    func walk(_ path: FieldPath, from table: String) -> FieldPath.Walk<FieldType> {
        path.walk(from: table, field: { fieldType($0, in: $1) }) { type in
            if case .reference(let target) = type { target } else { nil }
        }
    }
}
