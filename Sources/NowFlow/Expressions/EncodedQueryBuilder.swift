import Foundation
import NowData

/// Builds encoded queries (`active=true^priority<=2`) from job values so that no value can change a query's
/// structure.
///
/// ServiceNow's encoded query syntax has no escape: `^` always starts a new condition (`^OR`, `^NQ`, `^ORDERBY`;
/// only the local instance reads NowData's `^^`), and a line break ends the query. A value holding either, a
/// `javascript:` value (which the instance would run), or, in the place of a field name, anything but a field
/// name, is refused with an error that names the value's expression.
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
                if isFieldPlace(query) {
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

    /// The records a rendered `query:` selects: its conditions read by NowData's parser, with an `IN` over an
    /// empty list (which an instance reads as no condition) taken as true of no record.
    static func selection(_ template: Template, in scope: Scope) throws(QueryBuildError) -> RecordSelection {
        let text = try render(template, in: scope)
        var query: EncodedQuery
        do {
            query = try EncodedQuery.parse(text)
        } catch {
            throw QueryBuildError(message: "\(error)")
        }
        var emptied: String?
        query.groups = query.groups.compactMap { group in
            var group = group
            for index in group.clauses.indices {
                group.clauses[index].terms.removeAll { term in
                    guard case .condition(let condition) = term, condition.op == .isIn, condition.value.isEmpty else {
                        return false
                    }
                    if emptied == nil { emptied = condition.text }
                    return true
                }
                if group.clauses[index].terms.isEmpty { return nil }
            }
            return group
        }
        if let emptied, query.groups.isEmpty {
            return .nothing(reason: "'\(emptied)' compares with an empty list: no record matches")
        }
        return .query(query)
    }

    /// The query of a `where:`, built as an ``EncodedQuery`` (printed by its one printer): the conditions of a
    /// clause are ANDed, and its `or:` alternatives become `^OR` terms when each is one condition, `^NQ` groups
    /// otherwise. `value` gives each condition's value and where it came from, for errors.
    ///
    /// `field: value` is `=`, a list `IN`, null or `""` `ISEMPTY`; `!=` the opposites. A condition over an empty
    /// list selects no record (`IN`) or every record (`NOT IN`); a query none of whose alternatives can match is
    /// ``RecordSelection/nothing(reason:)``.
    static func query(
        _ clause: WhereClause, value: (WhereCondition) throws(QueryBuildError) -> (JSONValue, source: String)
    ) throws(QueryBuildError) -> RecordSelection {
        var reason: String?
        let groups = try alternatives(clause, value: value, reason: &reason)
        guard !groups.isEmpty else {
            return .nothing(reason: "\(reason ?? "no condition can match"): no record matches")
        }
        if groups.contains(where: \.isEmpty) { return .query(EncodedQuery(groups: [])) }
        return .query(EncodedQuery(groups: groups.map(EncodedQuery.Group.init(clauses:))))
    }

    /// The clause as groups of ANDed clauses of which a record matches one: none when it matches nothing, one
    /// empty group when it matches everything.
    private static func alternatives(
        _ clause: WhereClause, value: (WhereCondition) throws(QueryBuildError) -> (JSONValue, source: String),
        reason: inout String?
    ) throws(QueryBuildError) -> [[EncodedQuery.Clause]] {
        var base: [EncodedQuery.Clause] = []
        for condition in clause.conditions {
            let (evaluated, source) = try value(condition)
            switch try term(condition, evaluated, source: source) {
            case .term(let term): base.append(EncodedQuery.Clause(terms: [term]))
            case .always: continue
            case .never(let why):
                if reason == nil { reason = why }
                return []
            }
        }
        guard !clause.alternatives.isEmpty else { return [base] }
        var groups: [[EncodedQuery.Clause]] = []
        for alternative in clause.alternatives {
            groups += try alternatives(alternative, value: value, reason: &reason)
        }
        if groups.contains(where: \.isEmpty) { return [base] }
        if groups.count > 1, groups.allSatisfy({ $0.count == 1 }) {
            return [base + [EncodedQuery.Clause(terms: groups.flatMap { $0[0].terms })]]
        }
        return groups.map { base + $0 }
    }

    /// What one condition of a `where:` is, once its value is known.
    private enum Outcome {
        case term(EncodedQuery.Term)
        /// True of every record (`NOT IN` an empty list).
        case always
        /// True of no record (`IN` an empty list), and why.
        case never(String)
    }

    private static func term(_ condition: WhereCondition, _ value: JSONValue, source: String) throws(QueryBuildError)
        -> Outcome
    {
        let field = condition.field
        guard !field.isEmpty, field.allSatisfy(isFieldNameCharacter) else {
            throw QueryBuildError(message: "where: '\(field)' is not a field name (letters, digits, '_' and '.' only)")
        }
        let described = "the value of \(field) (\(source))"
        func make(_ op: QueryOperator, _ text: String = "") -> Outcome {
            .term(.condition(EncodedQuery.Condition(field: field, op: op, value: text)))
        }
        var op = condition.op
        // A record stands for its sys_id (a reference compares sys_ids), in a list too.
        let value = value.array.map { .array($0.map(sysIDOfRecord)) } ?? sysIDOfRecord(value)
        switch (op, value) {
        case (.isEmpty, _), (.isNotEmpty, _):
            return make(op)
        case (.equals, .null), (.equals, .string("")):
            return make(.isEmpty)
        case (.notEquals, .null), (.notEquals, .string("")):
            return make(.isNotEmpty)
        case (.equals, .array), (.notEquals, .array):
            op = op == .equals ? .isIn : .notIn
        default:
            break
        }
        if case .object = value {
            throw QueryBuildError(
                message:
                    "\(described) is an object; a where: value must be a string, a number, a boolean, null, an array or a record (its sys_id)")
        }
        switch op {
        case .isIn, .notIn:
            let items = value.array ?? [value]
            guard !items.isEmpty else {
                return op == .isIn ? .never("\(emptied(source, field: field)) is empty") : .always
            }
            var texts: [String] = []
            for item in items {
                let text = try checkedText(item, describedAs: described)
                guard !holds(text, ",") else {
                    throw QueryBuildError(
                        message: "\(described) holds ',' in an array item, which an IN condition reads as a separator")
                }
                texts.append(text)
            }
            return make(op, texts.joined(separator: ","))
        case .between:
            guard let items = value.array, items.count == 2 else {
                throw QueryBuildError(message: "\(described) must be a list of two values, the lowest and the highest")
            }
            let low = try checkedText(items[0], describedAs: described)
            let high = try checkedText(items[1], describedAs: described)
            guard !holds(low + high, "@") else {
                throw QueryBuildError(message: "\(described) holds '@', which a BETWEEN condition reads as a separator")
            }
            return make(op, low + "@" + high)
        default:
            if case .array = value {
                throw QueryBuildError(message: "\(described) is a list; \(op.rawValue) compares one value")
            }
            if case .null = value {
                throw QueryBuildError(message: "\(described) is null; \(op.rawValue) compares a value")
            }
            return make(op, try checkedText(value, describedAs: described))
        }
    }

    /// The sys_id of a record (an object with a `sys_id`, plain or `{value, display_value}`); any other value as
    /// it is.
    private static func sysIDOfRecord(_ value: JSONValue) -> JSONValue {
        guard case .object(let members) = value, let sysID = members["sys_id"] else { return value }
        guard case .object = sysID, let field = NowRecord.Field(member: sysID) else { return sysID }
        return .string(field.value)
    }

    /// How a message names an emptied list: `vars.stale_ids` for `${vars.stale_ids}`, else the field's list.
    private static func emptied(_ source: String, field: String) -> String {
        if source.hasPrefix("${"), source.hasSuffix("}"), source.components(separatedBy: "${").count == 2 {
            return String(source.dropFirst(2).dropLast()).trimmingCharacters(in: .whitespaces)
        }
        return "the list of \(field)"
    }

    /// The text of a value placed where the query expects a value.
    ///
    /// Each check reads the text's bytes, as the instance's parser does, not its `Character`s: a `^` with a
    /// combining mark after it (or a prepended one before it), or a CRLF, is one `Character` equal to neither `^`,
    /// `\n` nor `\r`.
    static func checkedText(_ value: JSONValue, describedAs described: String) throws(QueryBuildError) -> String {
        if case .object = value {
            throw QueryBuildError(message: "\(described) is an object, not a value that a query can compare")
        }
        let text = value.text
        if holds(text, "^") {
            throw QueryBuildError(
                message: "\(described) holds '^', which an encoded query reads as the start of a new condition; "
                    + "ServiceNow has no escape for '^', so the value is refused")
        }
        if holds(text, "\n") || holds(text, "\r") {
            throw QueryBuildError(
                message: "\(described) holds a line break, which would end the encoded query; the value is refused")
        }
        if holdsScriptScheme(text) {
            throw QueryBuildError(
                message:
                    "\(described) holds 'javascript:', which the instance would run as a script; the value is refused")
        }
        return text
    }

    /// Whether `text` holds the ASCII character `character` (a byte of its UTF-8, whatever follows or precedes it).
    private static func holds(_ text: String, _ character: Unicode.Scalar) -> Bool {
        text.utf8.contains(UInt8(ascii: character))
    }

    /// Whether `text` holds `javascript:` in any letter case, byte by byte.
    private static func holdsScriptScheme(_ text: String) -> Bool {
        let scheme = Array("javascript:".utf8)
        let bytes = text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        guard bytes.count >= scheme.count else { return false }
        return (0...bytes.count - scheme.count).contains { bytes[$0..<$0 + scheme.count].elementsEqual(scheme) }
    }

    /// Whether a value placed after `query` stands for a field name: the last part holds nothing but a field
    /// name's start (lower case letters, digits, `_`, `.`) after `OR`, `NQ`, `ORDERBY` or `ORDERBYDESC`; an
    /// operator (upper case, or a symbol) starts the value's place. The parts are split at each `^` byte, as the
    /// parser splits them (a `^` that a prepended mark precedes is one `Character` with it).
    private static func isFieldPlace(_ query: String) -> Bool {
        let last = query.utf8.split(separator: UInt8(ascii: "^"), omittingEmptySubsequences: false).last
        var term = Substring(String(decoding: last ?? Substring().utf8, as: UTF8.self))
        for prefix in ["ORDERBYDESC", "ORDERBY", "OR", "NQ"] where term.hasPrefix(prefix) {
            term = term.dropFirst(prefix.count)
            break
        }
        return term.allSatisfy { isFieldNameCharacter($0) && !$0.isUppercase }
    }

    private static func isFieldNameCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "_" || character == ".")
    }
}
