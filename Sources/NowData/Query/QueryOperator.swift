/// An operator of an encoded-query condition (`field OPERATOR value`) that the local instance runs.
/// The raw value is the operator as written in the query.
package enum QueryOperator: String, Sendable, Hashable, CaseIterable {
    case equals = "="
    case notEquals = "!="
    case lessThan = "<"
    case lessThanOrEquals = "<="
    case greaterThan = ">"
    case greaterThanOrEquals = ">="
    case like = "LIKE"
    case notLike = "NOT LIKE"
    /// `NOTLIKE`: the spelling of `NOT LIKE` used by the ServiceNow SDK's encoded-query guide.
    case notLikeAlias = "NOTLIKE"
    case startsWith = "STARTSWITH"
    case endsWith = "ENDSWITH"
    /// `%`: an alias of `ENDSWITH`.
    case endsWithAlias = "%"
    /// `*`: contains, as `LIKE`.
    case contains = "*"
    /// `!*`: does not contain, as `NOT LIKE`.
    case doesNotContain = "!*"
    case isEmpty = "ISEMPTY"
    case isNotEmpty = "ISNOTEMPTY"
    case emptyString = "EMPTYSTRING"
    case anything = "ANYTHING"
    case isIn = "IN"
    case notIn = "NOT IN"
    case between = "BETWEEN"
    case sameAs = "SAMEAS"
    case notSameAs = "NSAMEAS"
    case greaterThanField = "GT_FIELD"
    case lessThanField = "LT_FIELD"
    case greaterThanOrEqualsField = "GT_OR_EQUALS_FIELD"
    case lessThanOrEqualsField = "LT_OR_EQUALS_FIELD"
    case on = "ON"
    case notOn = "NOTON"

    /// Operators of the platform that the local instance recognises but does not run (they need scripts,
    /// relative dates, change history or the class hierarchy); a condition using one is invalid.
    package static let unsupported: [String] = [
        "DYNAMIC", "RELATIVEGT", "RELATIVELT", "RELATIVEGE", "RELATIVELE", "RELATIVEEE", "DATEPART", "MORETHAN",
        "LESSTHAN", "VALCHANGES", "CHANGESFROM", "CHANGESTO", "IN_HIERARCHY", "INSTANCEOF", "SINCE",
    ]

    /// Whether the operator takes no value (`activeISEMPTY`).
    package var isUnary: Bool {
        switch self {
        case .isEmpty, .isNotEmpty, .emptyString, .anything: true
        default: false
        }
    }

    /// Whether the value becomes a `LIKE` pattern.
    package var isPattern: Bool {
        switch self {
        case .like, .notLike, .notLikeAlias, .startsWith, .endsWith, .endsWithAlias, .contains, .doesNotContain: true
        default: false
        }
    }

    /// Whether the value names another field of the same table rather than a value.
    package var comparesFields: Bool {
        switch self {
        case .sameAs, .notSameAs, .greaterThanField, .lessThanField, .greaterThanOrEqualsField,
            .lessThanOrEqualsField:
            true
        default: false
        }
    }
}
