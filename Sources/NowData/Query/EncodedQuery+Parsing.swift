extension EncodedQuery {
    /// Parses an encoded query in one pass over its UTF-8 bytes.
    ///
    /// A part that is not a valid condition (no known operator, an operator the local instance does not run,
    /// a missing value) becomes an ``Term/invalid(text:reason:)`` term, which the translator ignores with a
    /// warning, as the platform does. `^^` stands for a literal `^` in a value; a trailing `^EQ` (added by the
    /// platform's list filters) is ignored.
    ///
    /// `JOIN` and `RLQUERY ... ENDRLQUERY` conditions become ``Term/join(_:)`` and ``Term/relatedList(_:)`` terms.
    /// A `javascript:` value is kept only when it is one of the platform's date helpers (``QueryDateHelper``).
    ///
    /// - Throws: ``EncodedQueryError/javascriptValue(condition:)`` when a condition has any other `javascript:` value.
    package static func parse(_ text: String) throws(EncodedQueryError) -> EncodedQuery {
        var builder = Builder()
        var segment: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        var pending = utf8.next()
        while let byte = pending {
            pending = utf8.next()
            guard byte == caret else {
                segment.append(byte)
                continue
            }
            if pending == caret {
                segment.append(caret)
                pending = utf8.next()
                continue
            }
            try builder.add(segment)
            segment.removeAll(keepingCapacity: true)
        }
        try builder.add(segment)
        return builder.finish()
    }
}

private let caret = UInt8(ascii: "^")
private let javascriptScheme = Array("javascript:".utf8)

/// Collects the parts of an encoded query into groups, clauses and sort terms; an `RLQUERY` opens a subquery that
/// `ENDRLQUERY` closes (they nest).
private struct Builder {
    /// The groups and clauses of one query: the whole one, or an `RLQUERY`'s.
    private struct Collector {
        var groups: [EncodedQuery.Group] = []
        var clauses: [EncodedQuery.Clause] = []

        mutating func closeGroup() {
            if clauses.isEmpty { return }
            groups.append(.init(clauses: clauses))
            clauses = []
        }

        mutating func append(_ term: EncodedQuery.Term, joinedByOR: Bool) {
            if joinedByOR, !clauses.isEmpty {
                clauses[clauses.count - 1].terms.append(term)
            } else {
                clauses.append(.init(terms: [term]))
            }
        }

        mutating func finish() -> [EncodedQuery.Group] {
            closeGroup()
            return groups
        }
    }

    /// An `RLQUERY` being read: the query around it, its header and how it joins that query.
    private struct OpenRelatedList {
        var outer: Collector
        var header: ArraySlice<UInt8>
        var joinedByOR: Bool
    }

    private var current = Collector()
    private var open: [OpenRelatedList] = []
    private var ordering: [EncodedQuery.Ordering] = []
    private var conditions = 0
    private var values = 0

    mutating func add(_ part: [UInt8]) throws(EncodedQueryError) {
        if part.isEmpty || part.elementsEqual("EQ".utf8) { return }
        if part.elementsEqual("ENDRLQUERY".utf8), let related = open.popLast() {
            let query = EncodedQuery(groups: current.finish(), ordering: [])
            current = related.outer
            current.append(EncodedQuery.Term(relatedList: related.header, query: query), joinedByOR: related.joinedByOR)
            return
        }
        if let field = part.dropping(prefix: "ORDERBYDESC") {
            try addOrdering(.init(field: String(decoding: field, as: UTF8.self), descending: true))
        } else if let field = part.dropping(prefix: "ORDERBY") {
            try addOrdering(.init(field: String(decoding: field, as: UTF8.self), descending: false))
        } else if let condition = part.dropping(prefix: "NQ") {
            current.closeGroup()
            try addTerm(condition, joinedByOR: false)
        } else if let condition = part.dropping(prefix: "OR") {
            try addTerm(condition, joinedByOR: true)
        } else {
            try addTerm(part[...], joinedByOR: false)
        }
    }

    mutating func finish() -> EncodedQuery {
        while let related = open.popLast() {
            current = related.outer
            let text = String(decoding: related.header, as: UTF8.self)
            current.append(
                .invalid(text: text, reason: EncodedQuery.unclosedRelatedList), joinedByOR: related.joinedByOR)
        }
        return EncodedQuery(groups: current.finish(), ordering: ordering)
    }

    private mutating func addOrdering(_ term: EncodedQuery.Ordering) throws(EncodedQueryError) {
        guard open.isEmpty else { return }
        guard ordering.count < EncodedQuery.maximumOrderings else { throw .tooManyOrderings(count: ordering.count + 1) }
        try Self.checkDepth(term.field)
        ordering.append(term)
    }

    private mutating func addTerm(_ bytes: ArraySlice<UInt8>, joinedByOR: Bool) throws(EncodedQueryError) {
        if bytes.isEmpty { return }
        conditions += 1
        guard conditions <= EncodedQuery.maximumConditions else { throw .tooManyConditions(count: conditions) }
        if bytes.starts(with: "RLQUERY".utf8) {
            open.append(OpenRelatedList(outer: current, header: bytes, joinedByOR: joinedByOR))
            current = Collector()
            return
        }
        if let join = bytes.dropping(prefix: "JOIN") {
            let term = try EncodedQuery.Term(join: join, text: String(decoding: bytes, as: UTF8.self))
            if case .join(let parsed) = term { conditions += parsed.query.conditionCount }
            guard conditions <= EncodedQuery.maximumConditions else { throw .tooManyConditions(count: conditions) }
            current.append(term, joinedByOR: joinedByOR)
            return
        }
        let term = try EncodedQuery.Term(parsing: bytes)
        if case .condition(let condition) = term {
            try Self.checkDepth(condition.field)
            if condition.op.isPattern, condition.value.utf8.count > EncodedQuery.maximumPatternLength {
                throw .patternTooLong(field: condition.field, length: condition.value.utf8.count)
            }
            values += condition.op == .isIn || condition.op == .notIn
                ? condition.value.utf8.reduce(1) { $1 == UInt8(ascii: ",") ? $0 + 1 : $0 } : 1
            guard values <= EncodedQuery.maximumValues else { throw .tooManyValues(count: values) }
        }
        current.append(term, joinedByOR: joinedByOR)
    }

    /// Throws when `field` walks more references than the local instance follows.
    private static func checkDepth(_ field: String) throws(EncodedQueryError) {
        let dots = field.utf8.reduce(0) { $1 == UInt8(ascii: ".") ? $0 + 1 : $0 }
        if dots > EncodedQuery.maximumDotWalkDepth { throw .dotWalkTooDeep(field: field) }
    }
}

extension EncodedQuery {
    /// The number of conditions, those of `JOIN` and `RLQUERY` subqueries included.
    package var conditionCount: Int {
        groups.reduce(0) { total, group in
            group.clauses.reduce(total) { total, clause in
                clause.terms.reduce(total) { total, term in
                    switch term {
                    case .join(let join): total + 1 + join.query.conditionCount
                    case .relatedList(let related): total + 1 + related.query.conditionCount
                    case .condition, .invalid: total + 1
                    }
                }
            }
        }
    }
}

extension EncodedQuery.Term {
    /// `table.field=joinTable.joinField!query` (after `JOIN`); a malformed join is an invalid term.
    fileprivate init(join bytes: ArraySlice<UInt8>, text: String) throws(EncodedQueryError) {
        let body = String(decoding: bytes, as: UTF8.self)
        let parts = body.split(separator: "!", maxSplits: 1, omittingEmptySubsequences: false)
        let sides = parts[0].split(separator: "=", omittingEmptySubsequences: false)
        let left = sides.first?.split(separator: ".", omittingEmptySubsequences: false) ?? []
        let right = sides.count == 2 ? sides[1].split(separator: ".", omittingEmptySubsequences: false) : []
        guard parts.count == 2, left.count == 2, right.count == 2, !(left + right).contains(where: \.isEmpty) else {
            self = .invalid(text: text, reason: "a JOIN is written JOINtable.field=other.field!conditions")
            return
        }
        let query = try EncodedQuery.parse(EncodedQuery.escaped(String(parts[1])))
        self = .join(
            .init(
                text: text, table: String(left[0]), field: String(left[1]), joinTable: String(right[0]),
                joinField: String(right[1]), query: query))
    }

    /// An `RLQUERY` from its header (`RLQUERYtable.field,>0[,m2m]`) and its subquery; a malformed header is an
    /// invalid term.
    fileprivate init(relatedList header: ArraySlice<UInt8>, query: EncodedQuery) {
        let text = String(decoding: header, as: UTF8.self)
        let parts = text.dropFirst("RLQUERY".count).split(separator: ",", omittingEmptySubsequences: false)
        let target = parts.first?.split(separator: ".", omittingEmptySubsequences: false) ?? []
        let comparisons: [QueryOperator] = [.greaterThanOrEquals, .lessThanOrEquals, .notEquals, .greaterThan, .lessThan, .equals]
        let written = parts.count > 1 ? String(parts[1]) : ""
        let comparison = comparisons.first { written.hasPrefix($0.rawValue) }
        let count = comparison.flatMap { Int(written.dropFirst($0.rawValue.count)) }
        let flags = parts.dropFirst(2)
        guard target.count == 2, !target.contains(where: \.isEmpty), let comparison, let count, count >= 0,
            flags.allSatisfy({ $0 == "m2m" })
        else {
            self = .invalid(text: text, reason: EncodedQuery.malformedRelatedList)
            return
        }
        self = .relatedList(
            .init(
                text: text, table: String(target[0]), field: String(target[1]), comparison: comparison, count: count,
                stopsAtRelationship: !flags.isEmpty, query: query))
    }
}

extension EncodedQuery.Term {
    /// Reads `field OPERATOR value`: the operator is the first one found after at least one character of field
    /// name, the longest one where several start at the same place (operators are upper case or symbols, field
    /// names lower case, so a value never decides where the operator is).
    fileprivate init(parsing bytes: ArraySlice<UInt8>) throws(EncodedQueryError) {
        let text = String(decoding: bytes, as: UTF8.self)
        let scripted = bytes.containsJavaScriptScheme
        var index = bytes.index(after: bytes.startIndex)
        while index < bytes.endIndex {
            if let token = OperatorTable.shared.longestMatch(in: bytes, at: index) {
                let field = String(decoding: bytes[..<index], as: UTF8.self)
                let value = String(decoding: bytes[(index + token.bytes.count)...], as: UTF8.self)
                if scripted, bytes[..<index].containsJavaScriptScheme || !Self.onlyDateHelpers(value) {
                    throw .javascriptValue(condition: text)
                }
                self = Self.make(text: text, field: field, token: token, value: value)
                return
            }
            index += 1
        }
        if scripted { throw .javascriptValue(condition: text) }
        self = .invalid(text: text, reason: "no known operator")
    }

    /// Whether every `javascript:` part of `value` (parts are separated by `@`) is a ``QueryDateHelper``.
    private static func onlyDateHelpers(_ value: String) -> Bool {
        value.split(separator: "@", omittingEmptySubsequences: false).allSatisfy { part in
            !ArraySlice(part.utf8).containsJavaScriptScheme || QueryDateHelper(String(part)) != nil
        }
    }

    private static func make(
        text: String, field: String, token: OperatorTable.Token, value: String
    ) -> EncodedQuery.Term {
        guard let op = token.op else {
            return .invalid(text: text, reason: "the operator \(token.name) is not supported by the local instance")
        }
        if op.isUnary, !value.isEmpty {
            return .invalid(text: text, reason: "\(op.rawValue) takes no value")
        }
        return .condition(.init(text: text, field: field, op: op, value: value))
    }
}

/// Every operator token, supported or not, indexed by its first byte with the longest first.
private struct OperatorTable: Sendable {
    struct Token: Sendable {
        var name: String
        var bytes: [UInt8]
        /// nil for an operator of the platform that the local instance does not run.
        var op: QueryOperator?
    }

    static let shared = OperatorTable()

    private let byFirstByte: [[Token]]

    private init() {
        var table = [[Token]](repeating: [], count: 128)
        let tokens =
            QueryOperator.allCases.map { Token(name: $0.rawValue, bytes: Array($0.rawValue.utf8), op: $0) }
            + QueryOperator.unsupported.map { Token(name: $0, bytes: Array($0.utf8), op: nil) }
        for token in tokens {
            if let first = token.bytes.first { table[Int(first)].append(token) }
        }
        byFirstByte = table.map { $0.sorted { $0.bytes.count > $1.bytes.count } }
    }

    func longestMatch(in bytes: ArraySlice<UInt8>, at index: Int) -> Token? {
        let first = bytes[index]
        guard first < 128 else { return nil }
        let rest = bytes[index...]
        return byFirstByte[Int(first)].first { rest.starts(with: $0.bytes) }
    }
}

extension Array where Element == UInt8 {
    /// The bytes after `prefix`, or nil when they do not start with it.
    fileprivate func dropping(prefix: StaticString) -> ArraySlice<UInt8>? {
        prefix.withUTF8Buffer { prefixBytes in starts(with: prefixBytes) ? self[prefixBytes.count...] : nil }
    }
}

extension ArraySlice where Element == UInt8 {
    /// The bytes after `prefix`, or nil when they do not start with it.
    fileprivate func dropping(prefix: StaticString) -> ArraySlice<UInt8>? {
        prefix.withUTF8Buffer { prefixBytes in
            starts(with: prefixBytes) ? self[(startIndex + prefixBytes.count)...] : nil
        }
    }

    /// Whether the bytes contain `javascript:` in any letter case.
    fileprivate var containsJavaScriptScheme: Bool {
        let pattern = javascriptScheme
        guard count >= pattern.count else { return false }
        var index = startIndex
        while index <= endIndex - pattern.count {
            var matched = true
            for offset in 0..<pattern.count {
                let byte = self[index + offset]
                let lower = byte >= 65 && byte <= 90 ? byte + 32 : byte
                if lower != pattern[offset] {
                    matched = false
                    break
                }
            }
            if matched { return true }
            index += 1
        }
        return false
    }
}
