/// A `where:` (or an ensure's `match:`): conditions a record satisfies all of, and `or:` alternatives it satisfies
/// one of.
///
/// ```yaml
/// where:
///   active: true
///   priority: { in: [1, 2] }
///   or:
///     - { category: network }
///     - { opened_at: { ">=": "2026-11-27 00:00:00" } }
/// ```
struct WhereClause: Sendable, Hashable {
    var conditions: [WhereCondition]
    /// The `or:` alternatives; none when the clause has no `or:`.
    var alternatives: [WhereClause] = []
}
