/// A value bound to a parameter of an SQL statement (values are never concatenated into SQL).
public enum SQLValue: Sendable, Hashable {
    case text(String)
    case integer(Int64)
    case real(Double)
    case null
}
