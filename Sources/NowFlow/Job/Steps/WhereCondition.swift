import NowData

/// One condition of a `where:`: `field: value` (equality; a list for any of its items, null or `""` for empty) or
/// `field: { operator: value }`.
struct WhereCondition: Sendable, Hashable {
    var field: String
    /// The operator: `=` for `field: value`; `ISEMPTY` or `ISNOTEMPTY` for `empty: true` or `false`.
    var op: QueryOperator
    /// The value compared with; nil for `empty:`.
    var value: TemplateValue?
    /// Where the value is written (the key's position for `empty:`).
    var mark: YAMLMark

    /// The operator keys of `field: { operator: value }`, as written in a job file.
    static let operators: [(key: String, op: QueryOperator)] = [
        ("=", .equals), ("!=", .notEquals), (">", .greaterThan), (">=", .greaterThanOrEquals), ("<", .lessThan),
        ("<=", .lessThanOrEquals), ("in", .isIn), ("not_in", .notIn), ("like", .like), ("not_like", .notLike),
        ("starts_with", .startsWith), ("ends_with", .endsWith), ("between", .between), ("empty", .isEmpty),
    ]
}
