/// Why an encoded query is refused as a whole (the Table API answers 400). Invalid conditions are not errors:
/// they are ignored with a warning, as on the platform.
package enum EncodedQueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A value starts a `javascript:` expression, which only a real instance can run.
    case javascriptValue(condition: String)
    /// More conditions (joined by `^`, `^OR` or `^NQ`) than ``EncodedQuery/maximumConditions``.
    case tooManyConditions(count: Int)
    /// More `ORDERBY` terms than ``EncodedQuery/maximumOrderings``.
    case tooManyOrderings(count: Int)
    /// More values to compare (one per condition, one per item of an `IN` list) than ``EncodedQuery/maximumValues``.
    case tooManyValues(count: Int)
    /// A field that walks more references than ``EncodedQuery/maximumDotWalkDepth``.
    case dotWalkTooDeep(field: String)
    /// A `LIKE`, `STARTSWITH`, `ENDSWITH` or `CONTAINS` value longer than ``EncodedQuery/maximumPatternLength``.
    case patternTooLong(field: String, length: Int)

    package var description: String {
        switch self {
        case .javascriptValue(let condition):
            "encoded query condition '\(condition)' has a javascript: value; the local instance does not run scripts"
        case .tooManyConditions(let count):
            "the encoded query has \(count) conditions; the local instance takes at most "
                + "\(EncodedQuery.maximumConditions)"
        case .tooManyOrderings(let count):
            "the encoded query has \(count) ORDERBY terms; the local instance takes at most "
                + "\(EncodedQuery.maximumOrderings)"
        case .tooManyValues(let count):
            "the encoded query compares \(count) values; the local instance takes at most \(EncodedQuery.maximumValues)"
        case .dotWalkTooDeep(let field):
            "the field '\(Self.shortened(field))' walks \(FieldPath(field).components.count - 1) references; the "
                + "local instance follows at most \(EncodedQuery.maximumDotWalkDepth)"
        case .patternTooLong(let field, let length):
            "the value compared with \(Self.shortened(field)) is \(length) bytes long; the local instance takes at "
                + "most \(EncodedQuery.maximumPatternLength) for LIKE, STARTSWITH, ENDSWITH and CONTAINS"
        }
    }

    /// `text`, or its first 200 characters and an ellipsis.
    private static func shortened(_ text: String) -> String {
        text.count <= 200 ? text : text.prefix(200) + "..."
    }
}
