/// The short form of a step, turned into the same step mapping a job file holds, so that the job builder reads
/// and checks it:
///
/// ```
/// query incident active=true limit=5          query: { table: incident, where: { active: true }, limit: 5 }
/// get incident 5c1d...                         get: { table: incident, sys_id: 5c1d... }
/// create incident short_description="Printer on fire"
/// update incident 5c1d... state=2              update: { table: incident, sys_id: 5c1d..., fields: { state: 2 } }
/// delete incident 5c1d...
/// set caller=abel.tuter
/// assert steps._.count > 0
/// http GET /api/now/stats/incident sysparm_count=true
///                                              http: { method: GET, path: ..., query: { sysparm_count: true } }
/// attach incident 5c1d... ./notes.txt         (and download, attachments, aggregate: see ShortForm+Attachments)
/// ```
///
/// `name=value` words are the kind's parameters when they name one (`limit`, `fields`, `order_by`, ...), the
/// step's options (`id`, `when`, `continue_on_error`), and otherwise conditions (`query`, `delete`) or field
/// values (`create`, `update`). Values read as YAML plain scalars (`2` is a number, `true` a boolean) unless
/// quoted; `"..."` takes `\"`, `\\`, `\n` and `\t`, `'...'` is taken as written; `${ ... }` may hold spaces.
enum ShortForm {
    /// One word of the line: `value`, or `name=value`, with the columns where they start (1-based).
    struct Word: Sendable, Hashable {
        var name: String?
        var nameColumn: Int
        var value: String
        var valueColumn: Int
        var quoted: Bool
    }

    /// A line of each kind's short form, for `:help KIND`.
    static let examples: [String: String] = [
        "query": "query incident active=true limit=5 fields=number,short_description order_by=number",
        "get": "get incident SYS_ID fields=number,state",
        "create": #"create incident short_description="Printer on fire" urgency=2"#,
        "update": "update incident SYS_ID state=2 (or query=\"...\" max=N)",
        "delete": "delete incident SYS_ID (or conditions, or query=\"...\", with max=N)",
        "set": "set name=value",
        "assert": "assert steps._.count > 0",
        "http": "http GET /api/now/stats/incident sysparm_count=true",
        "attach": "attach incident SYS_ID ./notes.txt",
        "download": "download ATTACHMENT_SYS_ID ./out.txt [overwrite=true]",
        "attachments": "attachments incident SYS_ID",
        "aggregate": "aggregate incident group_by=priority active=true",
    ]

    /// The kinds that have a short form.
    static let kinds = ["query", "get", "create", "update", "delete", "set", "assert", "http"] + JobSchema.kindNames(.attachments)
    /// The step options a word can give: all but `retry`, which is a mapping, and `show`, `tags` and `once`, which
    /// only `nowflow run` reads (so that a field of those names stays a field).
    static let stepOptions = JobSchema.step.names.filter { !["retry", "show", "tags", "once"].contains($0) }
    /// The parameters each kind takes as `name=value`: the keys of the job file's step but those the words
    /// write otherwise (``wordKeys``): the table (the first word), the conditions and the field values. Other
    /// names are conditions or fields.
    static let parameters: [String: [String]] = Dictionary(
        uniqueKeysWithValues: JobSchema.kinds.filter { $0.group == .records }.map { kind in
            let written = kind.parameters?.names(withRoles: wordKeys) ?? []
            return (kind.name, kind.parameterNames.filter { !written.contains($0) })
        })

    /// The roles of the keys a short form writes from its words rather than from `name=value`: the table, and
    /// the mapping the other `name=value` words make (a create's and update's field values, else conditions).
    private static let wordKeys: Set<SchemaKey.Role> = [.table, .conditions, .fieldValues]

    /// The key the `name=value` words that are not parameters go under: the kind's field values (`create`,
    /// `update`), else its conditions (`where`).
    private static func othersKey(of kind: String) -> String {
        let parameters = JobSchema.kind(kind)?.parameters
        return parameters?.names(withRoles: [.fieldValues]).first ?? parameters?.names(withRoles: [.conditions]).first
            ?? "where"
    }

    /// The step mapping of a short-form line whose first word is one of ``kinds``.
    ///
    /// The step's options may come before the kind too, as a job file's step often has them first:
    /// `id=opened create incident short_description=x`.
    static func node(_ line: String) throws(ReplInputError) -> YAMLNode {
        let all = try self.words(line)
        let leading = all.prefix { word in word.name.map(stepOptions.contains) ?? false }
        let words = Array(all.dropFirst(leading.count))
        guard let first = words.first, first.name == nil else {
            throw ReplInputError(message: "a short-form step starts with its kind (\(kinds.alternatives))", column: 1)
        }
        let leadingOptions = leading.map { word in
            YAMLNode.pair(word.name ?? "", word.nameColumn, YAMLNode.scalar(word.value, column: word.valueColumn, quoted: word.quoted))
        }
        let kind = first.value
        let rest = Array(words.dropFirst())
        switch kind {
        case "assert":
            guard let start = rest.first else {
                throw ReplInputError(message: "assert needs a condition, as in: assert steps._.count > 0", column: first.nameColumn)
            }
            let characters = Array(line)
            let text = String(characters[(start.nameColumn - 1)...]).trimmingCharacters(in: .whitespaces)
            return YAMLNode.mapping(
                leadingOptions + [YAMLNode.pair("assert", first.valueColumn, YAMLNode.scalar(text, column: start.nameColumn, quoted: true))],
                column: 1)
        case "set":
            var assignments: [YAMLNode.Pair] = []
            var options = leadingOptions
            for word in rest {
                guard let name = word.name else {
                    throw ReplInputError(message: "set takes name=value words, not '\(word.value)'", column: word.valueColumn)
                }
                let value = YAMLNode.pair(name, word.nameColumn, YAMLNode.scalar(word.value, column: word.valueColumn, quoted: word.quoted))
                if stepOptions.contains(name) { options.append(value) } else { assignments.append(value) }
            }
            guard !assignments.isEmpty else {
                throw ReplInputError(message: "set needs at least one name=value", column: first.nameColumn)
            }
            return YAMLNode.mapping(options + [YAMLNode.pair("set", first.valueColumn, YAMLNode.mapping(assignments, column: rest[0].nameColumn))], column: 1)
        case "http":
            return try httpStep(first, rest, options: leadingOptions)
        case _ where JobSchema.kind(kind)?.group == .attachments:
            return try attachmentStep(kind, first, rest, options: leadingOptions)
        default:
            return try recordStep(kind, first, rest, options: leadingOptions)
        }
    }

    /// The kind of a short-form line: its first word after the step options written before it; nil when the line
    /// does not split into words.
    static func kind(of line: String) -> String? {
        guard let words = try? words(line) else { return nil }
        return words.first { word in !(word.name.map(stepOptions.contains) ?? false) }.flatMap { $0.name == nil ? $0.value : nil }
    }

    /// query, get, create, update and delete: a table, a sys_id for get, update and delete, then `name=value`s.
    private static func recordStep(_ kind: String, _ first: Word, _ rest: [Word], options leading: [YAMLNode.Pair])
        throws(ReplInputError) -> YAMLNode
    {
        let positional = rest.filter { $0.name == nil }
        // The words JobSchema declares: the table, then the sys_id for get, update and delete.
        let takesSysID = JobSchema.kind(kind)?.words.count == 2
        guard let table = positional.first else {
            let example = takesSysID ? "\(kind) TABLE SYS_ID" : "\(kind) TABLE [name=value]..."
            throw ReplInputError(message: "\(kind) needs a table, as in: \(example)", column: first.valueColumn)
        }
        if positional.count > (takesSysID ? 2 : 1) {
            let extra = positional[takesSysID ? 2 : 1]
            let hint = takesSysID ? "a table and a sys_id" : "a table"
            throw ReplInputError(message: "unexpected '\(extra.value)': \(kind) takes \(hint), then name=value words", column: extra.valueColumn)
        }
        let parameterNames = parameters[kind] ?? []
        var options = leading
        var parameters = [YAMLNode.pair("table", table.valueColumn, YAMLNode.scalar(table.value, column: table.valueColumn, quoted: table.quoted))]
        if takesSysID, positional.count == 2 {
            let sysID = positional[1]
            parameters.append(YAMLNode.pair("sys_id", sysID.valueColumn, YAMLNode.scalar(sysID.value, column: sysID.valueColumn, quoted: sysID.quoted)))
        }
        var others: [YAMLNode.Pair] = []
        for word in rest {
            guard let name = word.name else { continue }
            let value = YAMLNode.pair(name, word.nameColumn, YAMLNode.scalar(word.value, column: word.valueColumn, quoted: word.quoted))
            if stepOptions.contains(name) {
                options.append(value)
            } else if parameterNames.contains(name) {
                parameters.append(value)
            } else {
                others.append(value)
            }
        }
        if let firstOther = others.first {
            let key = othersKey(of: kind)
            parameters.append(YAMLNode.pair(key, firstOther.key.mark.column, YAMLNode.mapping(others, column: firstOther.key.mark.column)))
        }
        return YAMLNode.mapping(options + [YAMLNode.pair(kind, first.valueColumn, YAMLNode.mapping(parameters, column: first.valueColumn))], column: 1)
    }

    /// A step's parameters as short-form words, for `:list`: the table and sys_id, then `name=value` for the rest,
    /// with `where:` and the written `fields:` as the conditions and values they are (`active=true`), lists as
    /// `a,b`; the step options (`id`, `when`, ...) are left out.
    static func summary(of node: YAMLNode) -> String {
        guard let pair = node.pairs?.first(where: { StepKind.names.contains($0.name) }) else { return "" }
        if let text = pair.value.scalarText { return pair.name == "assert" ? text : word(text) }
        var words: [String] = []
        var named: [String] = []
        for inner in pair.value.pairs ?? [] {
            if summaryWords.contains(inner.name), let text = inner.value.scalarText {
                words.append(word(text))
            } else if mappedKeys.contains(inner.name), let members = inner.value.pairs {
                named += members.map { "\($0.name)=\(flat($0.value))" }
            } else {
                named.append("\(inner.name)=\(flat(inner.value))")
            }
        }
        return (words + named).joined(separator: " ")
    }

    /// The keys whose values ``summary(of:)`` shows as bare words, as the short forms of the record kinds write
    /// them (``StepSchema/words``: `table`, `sys_id`).
    private static let summaryWords = Set(JobSchema.kinds.filter { $0.group == .records }.flatMap(\.words))

    /// The keys whose mapping ``summary(of:)`` shows as `name=value` words, as the short forms of the record
    /// kinds write them: their conditions and field values (`where`, `fields`).
    private static let mappedKeys = Set(
        JobSchema.kinds.filter { $0.group == .records }.flatMap {
            $0.parameters?.names(withRoles: [.conditions, .fieldValues]) ?? []
        })

    /// A value as one word: a scalar (quoted when it holds a space), a list as `a,b`, a mapping as `{ k: v }`.
    private static func flat(_ node: YAMLNode) -> String {
        switch node.content {
        case .scalar(let text, _): return word(text)
        case .sequence(let items): return items.map(flat).joined(separator: ",")
        case .mapping(let pairs): return "{ " + pairs.map { "\($0.name): \(flat($0.value))" }.joined(separator: ", ") + " }"
        }
    }

    private static func word(_ text: String) -> String {
        guard text.contains(where: { $0.isWhitespace || $0 == "\"" }), !(text.hasPrefix("${") && text.hasSuffix("}")) else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Splits a line into words, keeping quoted parts and `${ ... }` together.
    static func words(_ line: String) throws(ReplInputError) -> [Word] {
        let characters = Array(line)
        var words: [Word] = []
        var index = 0
        while index < characters.count {
            if characters[index].isWhitespace {
                index += 1
                continue
            }
            let start = index
            var text = ""
            var quoted = false
            var name: String?
            var valueStart = start
            while index < characters.count, !characters[index].isWhitespace {
                let character = characters[index]
                if character == "\"" || character == "'" {
                    quoted = true
                    let open = index
                    index += 1
                    var closed = false
                    while index < characters.count {
                        let inner = characters[index]
                        if inner == character {
                            closed = true
                            index += 1
                            break
                        }
                        if character == "\"", inner == "\\", index + 1 < characters.count {
                            let escaped = characters[index + 1]
                            switch escaped {
                            case "n": text.append("\n")
                            case "t": text.append("\t")
                            default: text.append(escaped)
                            }
                            index += 2
                            continue
                        }
                        text.append(inner)
                        index += 1
                    }
                    guard closed else {
                        throw ReplInputError(message: "the quote opened here is not closed", column: open + 1)
                    }
                } else if character == "$", index + 1 < characters.count, characters[index + 1] == "{" {
                    let close = closingBrace(characters, from: index + 2) ?? characters.count - 1
                    text += String(characters[index...close])
                    index = close + 1
                } else if character == "=", name == nil, !quoted, NameUse.isFieldName(text) {
                    name = text
                    text = ""
                    valueStart = index + 1
                    index += 1
                } else {
                    text.append(character)
                    index += 1
                }
            }
            words.append(Word(name: name, nameColumn: start + 1, value: text, valueColumn: valueStart + 1, quoted: quoted))
        }
        return words
    }

    private static func closingBrace(_ characters: [Character], from start: Int) -> Int? {
        var quote: Character?
        for index in start..<characters.count {
            let character = characters[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "}" {
                return index
            }
        }
        return nil
    }
}
