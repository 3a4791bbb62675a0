import NowData

/// Builds encoded queries (`active=true^priority<=2`) from job values so that no value can change a query's
/// structure.
///
/// ServiceNow's encoded query syntax has no escape: `^` always starts a new condition (`^OR`, `^NQ`, `^ORDERBY`),
/// and a line break ends the query. A value holding either, a `javascript:` value (which the instance would
/// run), or, in the place of a field name, anything but a field name, is refused with an error that names the
/// value's expression.
enum EncodedQueryBuilder {
    /// Renders a `query:` template, checking every interpolated value against its place in the query.
    static func render(_ template: Template, in scope: Scope) throws(QueryBuildError) -> String {
        var query = ""
        for part in template.parts {
            switch part {
            case .text(let text):
                query += text
            case .expression(let expression, let source, _):
                let value: JSONValue
                do {
                    value = try expression.evaluate(in: scope)
                } catch {
                    throw QueryBuildError(message: "${\(source)}: \(error.message)")
                }
                let term = query.split(separator: "^", omittingEmptySubsequences: false).last ?? ""
                if term.allSatisfy(isFieldNameCharacter) {
                    let text = value.text
                    guard !text.isEmpty, text.allSatisfy(isFieldNameCharacter) else {
                        throw QueryBuildError(
                            message: "the value of ${\(source)} stands where the query expects a field name, and "
                                + "'\(text)' is not one (letters, digits, '_' and '.' only)")
                    }
                    query += text
                } else {
                    query += try checkedText(value, describedAs: "the value of ${\(source)}")
                }
            }
        }
        return query
    }

    /// Builds `field=value` conditions joined with `^` from a `where:` mapping (null or empty: `ISEMPTY`; an array:
    /// `IN`). `source` names where each value came from, for errors.
    static func whereClause(_ conditions: [(field: String, value: JSONValue, source: String)]) throws(QueryBuildError)
        -> String
    {
        var terms: [String] = []
        for condition in conditions {
            guard !condition.field.isEmpty, condition.field.allSatisfy(isFieldNameCharacter) else {
                throw QueryBuildError(
                    message: "where: '\(condition.field)' is not a field name (letters, digits, '_' and '.' only)")
            }
            let described = "the value of \(condition.field) (\(condition.source))"
            switch condition.value {
            case .null:
                terms.append("\(condition.field)ISEMPTY")
            case .string(let text) where text.isEmpty:
                terms.append("\(condition.field)ISEMPTY")
            case .array(let items):
                var texts: [String] = []
                for item in items {
                    let text = try checkedText(item, describedAs: described)
                    guard !text.contains(",") else {
                        throw QueryBuildError(
                            message: "\(described) holds ',' in an array item, which an IN condition reads as a separator"
                        )
                    }
                    texts.append(text)
                }
                terms.append("\(condition.field)IN\(texts.joined(separator: ","))")
            case .object:
                throw QueryBuildError(
                    message:
                        "\(described) is an object; a where: value must be a string, a number, a boolean, null or an array"
                )
            default:
                terms.append("\(condition.field)=\(try checkedText(condition.value, describedAs: described))")
            }
        }
        return terms.joined(separator: "^")
    }

    /// The text of a value placed where the query expects a value.
    private static func checkedText(_ value: JSONValue, describedAs described: String) throws(QueryBuildError) -> String {
        if case .object = value {
            throw QueryBuildError(message: "\(described) is an object, not a value that a query can compare")
        }
        let text = value.text
        if text.contains("^") {
            throw QueryBuildError(
                message: "\(described) holds '^', which an encoded query reads as the start of a new condition; "
                    + "ServiceNow has no escape for '^', so the value is refused")
        }
        if text.contains(where: { $0 == "\n" || $0 == "\r" }) {
            throw QueryBuildError(
                message: "\(described) holds a line break, which would end the encoded query; the value is refused")
        }
        if text.lowercased().contains("javascript:") {
            throw QueryBuildError(
                message:
                    "\(described) holds 'javascript:', which the instance would run as a script; the value is refused")
        }
        return text
    }

    private static func isFieldNameCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "_" || character == ".")
    }
}
