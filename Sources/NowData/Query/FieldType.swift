/// The type of a field in an instance's dictionary (`sys_dictionary.internal_type`): how its values are stored and
/// how a condition compares them. One notion for the package: the local instance's tables are declared with it and
/// store and translate queries by it, and the runner's second opinion (``RecordPredicate``) evaluates conditions
/// on records by it, from the types the instance's dictionary lists.
///
/// The stored forms are those of the Table API's actual values: integers and decimals as numbers, booleans as
/// `true`/`false`, date-times as UTC `yyyy-MM-dd HH:mm:ss`, dates as `yyyy-MM-dd`, a reference as the target's
/// sys_id; an empty value is empty whatever the type. (The local instance stores integers and booleans in INTEGER
/// columns, booleans as 0/1, decimals in REAL columns and every other type as text.)
package enum FieldType: Sendable, Hashable {
    /// Text compared without regard to ASCII case (the platform's default collation), but for a field named
    /// `sys_id`, compared as written.
    case string
    /// A choice field whose values are text (compared as ``string``).
    case choice
    case integer
    case decimal
    case boolean
    /// `glide_date_time`: UTC `yyyy-MM-dd HH:mm:ss`, compared as text.
    case dateTime
    /// `glide_date`: `yyyy-MM-dd`, compared as text.
    case date
    /// A reference to a record of the named table: its sys_id, compared as written; dot-walks go through it.
    case reference(table: String)
    /// A type whose comparisons the evaluator does not know (`journal`, `glide_duration`, a custom type): a
    /// condition on it is refused. (The local instance's tables have none: a dictionary file names only the
    /// types above.)
    case other(String)

    /// The type of a dictionary entry (`sys_dictionary`'s `internal_type`, and `reference` for a reference field):
    /// `string`, `GUID`, `sys_class_name` and `choice` are text; `integer`, `decimal`, `boolean`,
    /// `glide_date_time`, `glide_date` and `reference` are themselves; `domain_id` (`sys_domain`, whose reference
    /// is `sys_user_group` and whose value is `global` without domain separation) is a reference compared as
    /// written; any other type is ``other(_:)``.
    package init(internalType: String, reference: String) {
        switch internalType {
        case "string", "GUID", "sys_class_name": self = .string
        case "choice": self = .choice
        case "integer": self = .integer
        case "decimal": self = .decimal
        case "boolean": self = .boolean
        case "glide_date_time": self = .dateTime
        case "glide_date": self = .date
        case "reference" where !reference.isEmpty, "domain_id" where !reference.isEmpty:
            self = .reference(table: reference)
        default: self = .other(internalType)
        }
    }

    /// The type's `internal_type` in `sys_dictionary` (`glide_date_time`, `reference`), as the local instance lists
    /// its own fields.
    package var internalType: String {
        switch self {
        case .string: "string"
        case .choice: "choice"
        case .integer: "integer"
        case .decimal: "decimal"
        case .boolean: "boolean"
        case .dateTime: "glide_date_time"
        case .date: "glide_date"
        case .reference: "reference"
        case .other(let name): name
        }
    }

    /// The platform's name of the type, for messages (`integer`, `glide_date_time`, `reference to sys_user`).
    package var name: String {
        if case .reference(let table) = self { return "reference to \(table)" }
        return internalType
    }
}
