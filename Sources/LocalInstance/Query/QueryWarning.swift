/// A part of an encoded query that the translator did not apply, and why: a line of the instance's log.
///
/// A condition on a password field (of the table, or of one a dot-walk reaches) is logged without its text, which
/// would repeat the value compared: `ignored a condition on the password field 'user_password'`. An ignored
/// `ORDERBY` has no value to hide.
struct QueryWarning: Sendable, Hashable, CustomStringConvertible {
    /// What was done with the part.
    enum Kind: Sendable, Hashable {
        /// A condition that does not fit the schema, ignored.
        case ignoredCondition
        /// A condition that does not fit the schema, which makes the whole query match nothing
        /// (`invalidQueryReturnsNoRows`).
        case conditionMatchesNoRows
        /// An `ORDERBY` on a field the table does not have, ignored.
        case ignoredOrder
    }

    var kind: Kind
    /// The part as written: `foo=bar`, `ORDERBYDESCnope`.
    var text: String
    /// Why it does not fit: `incident has no field 'foo'`.
    var reason: String
    /// The password field the condition names; nil when it names none.
    var passwordField: String?

    /// The log line: `ignored invalid condition 'foo=bar': incident has no field 'foo'`, `invalid condition 'foo=bar'
    /// makes the query match no rows: ...`, `ignored invalid order 'ORDERBYnope': ...`, or for a password field
    /// `ignored a condition on the password field 'user_password'`.
    var description: String {
        switch (kind, passwordField) {
        case (.ignoredCondition, let field?): "ignored a condition on the password field '\(field)'"
        case (.conditionMatchesNoRows, let field?): "a condition on the password field '\(field)' makes the query match no rows"
        case (.ignoredCondition, nil): "ignored invalid condition '\(text)': \(reason)"
        case (.conditionMatchesNoRows, nil): "invalid condition '\(text)' makes the query match no rows: \(reason)"
        case (.ignoredOrder, _): "ignored invalid order '\(text)': \(reason)"
        }
    }
}
