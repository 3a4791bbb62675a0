/// The type of a field in the local instance's table dictionary; it decides the SQLite column type,
/// how a value is validated and stored, and which encoded-query operators apply.
///
/// Storage convention (shared by the store and the query translator): `integer` and `boolean` are INTEGER
/// columns (booleans as 0/1), `decimal` is REAL, every other type is TEXT; date-times are stored as UTC
/// `yyyy-MM-dd HH:mm:ss` and dates as `yyyy-MM-dd`, so that text comparison orders them; a reference holds the
/// target's sys_id; an empty value is stored as NULL and returned as `""`.
public enum FieldType: Sendable, Hashable {
    case string
    case integer
    case decimal
    case boolean
    /// `glide_date_time`: UTC `yyyy-MM-dd HH:mm:ss`.
    case dateTime
    /// `glide_date`: `yyyy-MM-dd`.
    case date
    /// A reference to a record of the named table.
    case reference(table: String)
    /// A choice field: stored values with display labels.
    case choice
}
