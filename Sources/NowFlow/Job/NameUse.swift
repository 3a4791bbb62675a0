import NowData

/// A table or field name a job file writes literally (`table: incident`, a `where:` key, an item of `fields:`,
/// `order_by:`, a field or `ORDERBY` of an encoded `query:`, an aggregate's `group_by:`, `sum:`, `avg:`, `min:`,
/// `max:`), with where it is written, and the values the job gives the field literally (a `where:` value, a
/// create's or update's field value): what the name check looks up in the instance's dictionary. A name or value
/// given by a `${...}` template is known only at run time and is not checked.
struct NameUse: Sendable, Hashable {
    /// A value written for a field, with its position.
    struct Value: Sendable, Hashable {
        var text: String
        var mark: YAMLMark
        /// The operator of the condition the value is compared by (`=` for a `where:` value, each item of an
        /// `IN` list by `IN`); nil for a value a create or update writes.
        var op: QueryOperator? = nil
    }

    /// A table name, or a field name or dot-walk (`caller_id.department.name`).
    var name: String
    /// The table of a field; nil when the name is a table's.
    var table: String?
    var mark: YAMLMark
    /// The values written for the field, checked against its choice list when it has one, and, for a condition,
    /// against its type.
    var values: [Value] = []
    /// The file the name is written in (an included file's, for the steps of an `include`).
    var file: String?

    /// The names written in the steps and `finally` (foreach bodies included) of a job file's tree.
    static func uses(in root: YAMLNode?) -> [NameUse] {
        var uses: [NameUse] = []
        for pair in root?.pairs ?? [] where stepLists.contains(pair.name) {
            collectSteps(pair.value, into: &uses)
        }
        return uses
    }

    private static func collectSteps(_ node: YAMLNode, into uses: inout [NameUse]) {
        for step in node.items ?? [] {
            guard let pairs = step.pairs else { continue }
            // By index: a pair is copied only for a step kind that names records.
            for index in pairs.indices {
                let name = pairs[index].name
                if stepLists.contains(name) {
                    collectSteps(pairs[index].value, into: &uses)
                } else if let parameters = tableKinds[name] {
                    collectRecordStep(pairs[index].value, parameters: parameters, into: &uses)
                }
            }
        }
    }

    /// The keys whose value is a list of steps: the job's (`steps`, `finally`) and a step's (`foreach`'s `steps`).
    private static let stepLists =
        Set(JobSchema.job.keys.filter(\.isSteps).map(\.name)).union(JobSchema.stepKeyNames(where: \.isSteps))

    /// The names a step of the kind `kind` writes literally in its value `node` (`{table: incident, where: ...}`):
    /// its table first, then its fields in the order they are written; none when the kind names no table or the
    /// table is not written literally.
    static func uses(ofKind kind: String, in node: YAMLNode) -> [NameUse] {
        guard let parameters = tableKinds[kind] else { return [] }
        var uses: [NameUse] = []
        collectRecordStep(node, parameters: parameters, into: &uses)
        return uses
    }

    /// The parameters of each kind of step that names a table (a key whose ``SchemaKey/Role`` is `table` among its
    /// parameters), by the kind's name.
    private static let tableKinds = Dictionary(
        uniqueKeysWithValues: JobSchema.kinds.compactMap { kind in
            kind.parameters.flatMap { parameters in
                parameters.keys.contains { $0.role == .table } ? (kind.name, parameters) : nil
            }
        })

    private static func literal(_ node: YAMLNode) -> String? {
        guard let text = node.scalarText, !Template.marks(text), !text.isEmpty else { return nil }
        return text
    }

    /// The names of a step whose parameters are `parameters`, each read as its key's ``SchemaKey/Role`` says.
    private static func collectRecordStep(_ node: YAMLNode, parameters: SchemaMapping, into uses: inout [NameUse]) {
        guard let pairs = node.pairs,
            let tableNode = pairs.first(where: { parameters.key($0.name)?.role == .table })?.value,
            let table = literal(tableNode)
        else { return }
        uses.append(NameUse(name: table, table: nil, mark: tableNode.mark))
        func field(_ name: String, _ mark: YAMLMark, values: [YAMLNode] = []) {
            let written = values.compactMap { node in literal(node).map { Value(text: $0, mark: node.mark) } }
            uses.append(NameUse(name: name, table: table, mark: mark, values: written))
        }
        /// The conditions of a `where:` (`or:` alternatives included) or a `match:`.
        func conditions(_ node: YAMLNode) {
            for condition in node.pairs ?? [] {
                if condition.hasName("or") {
                    for alternative in condition.value.items ?? [] { conditions(alternative) }
                    continue
                }
                var use = NameUse(name: condition.name, table: table, mark: condition.key.mark)
                let written = condition.value.pairs.map { members in
                    members.compactMap { member in
                        WhereCondition.operators.first { member.hasName($0.key) }.map { ($0.op, member.value) }
                    }
                } ?? [(QueryOperator.equals, condition.value)]
                for (op, node) in written where op != .isEmpty {
                    if let items = node.items {
                        let itemOp: QueryOperator = op == .equals ? .isIn : op == .notEquals ? .notIn : op
                        use.values += items.compactMap { conditionValue($0, op: itemOp) }
                    } else if let value = conditionValue(node, op: op) {
                        use.values.append(value)
                    }
                }
                uses.append(use)
            }
        }
        for pair in pairs {
            switch parameters.key(pair.name)?.role {
            case .conditions:
                conditions(pair.value)
            case .encodedQuery:
                guard let text = literal(pair.value) else { break }
                for written in queryFields(text) {
                    var use = NameUse(
                        name: written.name, table: table, mark: queryMark(pair.value, text: text, offset: written.offset))
                    if let condition = written.condition {
                        let mark = queryMark(
                            pair.value, text: text,
                            offset: written.offset + condition.field.count + condition.op.rawValue.count)
                        use.values = condition.comparedValues.map { Value(text: $0, mark: mark, op: condition.op) }
                    }
                    uses.append(use)
                }
            case .fields, .fieldValues:
                // Either form is read whichever the kind declares: the builder reports the wrong one.
                if let items = pair.value.items {
                    for item in items { if let name = literal(item) { field(name, item.mark) } }
                } else if let members = pair.value.pairs {
                    for member in members where member.name != "sys_id" {
                        field(member.name, member.key.mark, values: [member.value])
                    }
                } else if let text = literal(pair.value) {
                    for name in text.split(separator: ",") {
                        field(name.trimmingCharacters(in: .whitespaces), pair.value.mark)
                    }
                }
            case .field:
                if let name = literal(pair.value) { field(name, pair.value.mark) }
            case .table, nil:
                break
            }
        }
    }

    /// A literal value of a `where:` condition compared by `op`: its text (`true` for a boolean), nil for null,
    /// an empty text or a template.
    private static func conditionValue(_ node: YAMLNode, op: QueryOperator) -> Value? {
        if case .null = node.resolvedScalar { return nil }
        return literal(node).map { Value(text: $0, mark: node.mark, op: op) }
    }

    /// The fields of an encoded query's conditions (with the condition) and orderings, with their offsets in the
    /// text; none when the query cannot be read (the run says why).
    private static func queryFields(_ text: String) -> [(name: String, offset: Int, condition: EncodedQuery.Condition?)] {
        guard let query = try? EncodedQuery.parse(text) else { return [] }
        var names: [(String, EncodedQuery.Condition?)] = []
        for group in query.groups {
            for clause in group.clauses {
                for case .condition(let condition) in clause.terms where !pseudoFields.contains(condition.field) {
                    names.append((condition.field, condition))
                }
            }
        }
        names += query.ordering.map { ($0.field, nil) }
        // Each name at the first place after the one before it where it is written.
        var searchFrom = text.startIndex
        return names.map { name, condition in
            guard let range = text.range(of: name, range: searchFrom..<text.endIndex) else { return (name, 0, condition) }
            searchFrom = range.upperBound
            return (name, text.distance(from: text.startIndex, to: range.lowerBound), condition)
        }
    }

    /// The condition "fields" of an encoded query that are not fields (a keyword search).
    private static let pseudoFields: Set<String> = ["123TEXTQUERY321", "IR_AND_OR_QUERY"]

    /// Where the part of a `query:` scalar at `offset` is written: past the opening quote of a one-line quoted
    /// scalar; at the scalar for a text over several lines.
    private static func queryMark(_ node: YAMLNode, text: String, offset: Int) -> YAMLMark {
        guard !text.contains("\n"), case .scalar(_, let style) = node.content else { return node.mark }
        return node.mark.advanced(by: offset + (style == .quoted ? 1 : 0))
    }

    /// Whether `name` can be a table's name: lowercase letters, digits and `_`.
    static func isTableName(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }
    }

    /// Whether `name` can be a field's name or a dot-walk: letters, digits, `_` and `.`.
    static func isFieldName(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }
    }
}
