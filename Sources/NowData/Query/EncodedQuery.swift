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

    /// A query of `groups` sorted by `ordering`.
    package init(groups: [Group], ordering: [Ordering] = []) {
        self.groups = groups
        self.ordering = ordering
    }

    /// One query whose `conditions` a record must all match (none: every record), sorted by `ordering`.
    package init(matchingAll conditions: [Condition], ordering: [Ordering] = []) {
        let clauses = conditions.map { Clause(terms: [.condition($0)]) }
        self.init(groups: clauses.isEmpty ? [] : [Group(clauses: clauses)], ordering: ordering)
    }

    /// The most conditions one query may hold, those inside `JOIN` and `RLQUERY` subqueries included (the
    /// translator joins them in balanced trees, so SQLite's expression depth of 1000 is far away; the platform
    /// takes queries of thousands of conditions, such as PySNC's test of a 23,000-character query).
    package static let maximumConditions = 10_000
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
    /// Why an `RLQUERY` whose header is malformed is an invalid term (closed by its `ENDRLQUERY`, which the printed
    /// text keeps).
    package static let malformedRelatedList = "an RLQUERY is written RLQUERYtable.field,>0[,m2m]^conditions^ENDRLQUERY"
    /// Why an `RLQUERY` that no `ENDRLQUERY` closes is an invalid term (it holds every term after it).
    package static let unclosedRelatedList = "RLQUERY without ENDRLQUERY"

    /// One query between `^NQ` joins: a record matches when it matches every clause.
    package struct Group: Sendable, Hashable {
        package var clauses: [Clause]

        package init(clauses: [Clause]) {
            self.clauses = clauses
        }
    }

    /// Terms joined by `^OR`: a record matches when it matches any of them.
    package struct Clause: Sendable, Hashable {
        package var terms: [Term]

        package init(terms: [Term]) {
            self.terms = terms
        }
    }

    /// One condition of a clause, or a part that could not be read as one (ignored with a warning).
    package enum Term: Sendable, Hashable {
        case condition(Condition)
        /// `JOINtable.field=other.otherField!query`: a record matches when a record of `other` whose `otherField`
        /// equals the record's `field` matches `query`.
        case join(Join)
        /// `RLQUERYother.field,>0[,m2m]^query^ENDRLQUERY`: a record matches when the number of records of `other`
        /// whose `field` references it and that match `query` passes the count comparison.
        case relatedList(RelatedList)
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

        package init(text: String, field: String, op: QueryOperator, value: String) {
            self.text = text
            self.field = field
            self.op = op
            self.value = value
        }

        /// A condition built rather than read: its text is what the parser keeps for it once printed.
        package init(field: String, op: QueryOperator, value: String = "") {
            self.init(text: field + op.rawValue + value, field: field, op: op, value: value)
        }
    }

    /// `JOINsys_user.sys_id=sys_user_group.manager!active=true`, as PySNC's `add_join_query` and the platform's
    /// list filters write it. The subquery holds the conditions after `!` up to the next `^`.
    package struct Join: Sendable, Hashable {
        /// The join as written, for warnings.
        package var text: String
        /// The table named before the first `.` (the queried table).
        package var table: String
        /// The field of the queried record compared (`sys_id`).
        package var field: String
        /// The joined table (`sys_user_group`).
        package var joinTable: String
        /// The field of the joined record compared (`manager`).
        package var joinField: String
        /// The conditions the joined record must match; no groups for none.
        package var query: EncodedQuery
    }

    /// `RLQUERYsys_group_has_role.group,>0,m2m^role.nameLIKEadmin^ENDRLQUERY`: a related-list condition, as PySNC's
    /// `add_rl_query` writes it.
    package struct RelatedList: Sendable, Hashable {
        /// The header as written (`RLQUERYsys_group_has_role.group,>0,m2m`), for warnings.
        package var text: String
        /// The related table (`sys_group_has_role`).
        package var table: String
        /// Its field that references the queried record (`group`).
        package var field: String
        /// How the count of related records is compared (`>`, `>=`, `<`, `<=`, `=`, `!=`).
        package var comparison: QueryOperator
        /// The count compared with.
        package var count: Int
        /// `m2m`: the platform stops dot-walks at the relationship; the local instance's count is the same.
        package var stopsAtRelationship: Bool
        /// The conditions the related records must match; no groups for none.
        package var query: EncodedQuery
    }

    /// `ORDERBYfield` (ascending) or `ORDERBYDESCfield`.
    package struct Ordering: Sendable, Hashable {
        package var field: String
        package var descending: Bool

        package init(field: String, descending: Bool) {
            self.field = field
            self.descending = descending
        }
    }
}
