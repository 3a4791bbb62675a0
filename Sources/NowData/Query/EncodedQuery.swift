/// The syntax tree of an encoded query such as `active=true^priority<=2^ORcategory=network^ORDERBYDESCnumber`.
///
/// `^` joins with AND, `^OR` with OR (binding tighter than AND, as GlideRecord does), `^NQ` starts a new query
/// (the queries are joined with OR), `ORDERBYfield` and `ORDERBYDESCfield` sort. One parser for the package: the
/// local instance translates the tree into SQL, the runner checks its field names against the dictionary.
///
/// ```swift
/// let query = try EncodedQuery.parse("active=true^priority<=2^ORDERBYDESCsys_created_on")
/// ```
package struct EncodedQuery: Sendable, Hashable {
    /// The queries joined by `^NQ`; a record matches when it matches any of them. Empty: every record matches.
    package var groups: [Group]
    /// The sort terms in the order written.
    package var ordering: [Ordering]

    /// The most conditions one query may hold (SQLite's expression trees are at most 1000 deep: the margin is for
    /// dot-walks and the statement around the conditions).
    package static let maximumConditions = 900
    /// The most `ORDERBY` terms one query may hold.
    package static let maximumOrderings = 100
    /// The most values one query may compare: a condition's value, or each item of an `IN` list (SQLite binds at
    /// most 32,766).
    package static let maximumValues = 32_000
    /// The most references a field of a condition or an `ORDERBY` may walk (`caller_id.manager.name` walks 2).
    package static let maximumDotWalkDepth = 8
    /// The longest value, in UTF-8 bytes, of a `LIKE`, `STARTSWITH`, `ENDSWITH` or `CONTAINS` condition (SQLite
    /// takes patterns of at most 50,000 bytes, escapes included).
    package static let maximumPatternLength = 10_000

    /// One query between `^NQ` joins: a record matches when it matches every clause.
    package struct Group: Sendable, Hashable {
        package var clauses: [Clause]
    }

    /// Terms joined by `^OR`: a record matches when it matches any of them.
    package struct Clause: Sendable, Hashable {
        package var terms: [Term]
    }

    /// One condition of a clause, or a part that could not be read as one (ignored with a warning).
    package enum Term: Sendable, Hashable {
        case condition(Condition)
        /// `text` as written and why it is not a condition.
        case invalid(text: String, reason: String)
    }

    /// `field OPERATOR value`, e.g. `caller_id.user_name=abel.tuter` (a dot-separated field walks references).
    package struct Condition: Sendable, Hashable {
        /// The condition as written, for warnings.
        package var text: String
        package var field: String
        package var op: QueryOperator
        /// The value as written (empty for unary operators).
        package var value: String
    }

    /// `ORDERBYfield` (ascending) or `ORDERBYDESCfield`.
    package struct Ordering: Sendable, Hashable {
        package var field: String
        package var descending: Bool
    }
}
