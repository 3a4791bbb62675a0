import Foundation
import NowData

/// Which words complete the word under the cursor: commands, step kinds, table names, the fields of the table
/// the line works on, parameters, and paths into `steps.` and `vars.`.
///
/// The line editor splits words at ``breakCharacters`` (so `active=tr` completes `tr`, `${steps._.rec` completes
/// `steps._.rec`) and completes file names where ``completesPath(_:)`` says; the completer splits the same way.
public enum ReplCompleter {
    /// The characters that end a word, for the line editor too.
    public static let breakCharacters = " \t\n\"'=,{}()[]|&!<>"

    /// The words that can replace the last word of `prefix` (the line up to the cursor), sorted; a word with a space
    /// (a choice value) only after an opening quote.
    static func completions(for prefix: String, catalog: CompletionCatalog) -> [String] {
        let (word, before, beforeWords) = split(prefix)
        let quoted = before.last == "\"" || before.last == "'"
        return candidates(word: word, before: before, beforeWords: beforeWords, catalog: catalog)
            .filter { $0.hasPrefix(word) && (quoted || !$0.contains(where: \.isWhitespace)) }
            .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            .sorted()
    }

    /// The parameters whose value names fields (a comma-separated list, or one field), as ``JobSchema`` declares
    /// them: a completion there is followed by nothing, so that `,` and the next field can follow.
    static let fieldListParameters = JobSchema.stepKeyNames { $0.role == .field || $0.role == .fields }

    /// The boolean values, offered for a boolean field and option.
    static let booleans = ["true", "false"]
    /// The options and parameters that take a boolean, as ``JobSchema`` declares them.
    static let booleanOptions = JobSchema.stepKeyNames(where: \.isBoolean)
    /// The parameters that take `false`, `true` or `all` (`display_value`, where a kind declares it so).
    static let displayValueParameters = JobSchema.stepKeyNames {
        if case .displayValue = $0.type { true } else { false }
    }
    /// The parameters that take a table's name.
    static let tableParameters = JobSchema.stepKeyNames { $0.role == .table }

    private static func candidates(word: String, before: String, beforeWords: [String], catalog: CompletionCatalog) -> [String] {
        let leading = leadingOptions(beforeWords)
        let beforeWords = Array(beforeWords.dropFirst(leading))
        guard let first = beforeWords.first else {
            if before.last == "=", leading > 0 { return valueCandidates(word: word, before: before, table: nil, catalog: catalog) }
            if leading > 0 { return ShortForm.kinds }
            return word.hasPrefix(":") ? SessionCommand.completed : StepKind.names + SessionCommand.completed
        }
        if word.hasPrefix("steps.") || word.hasPrefix("vars.") { return paths(word, catalog: catalog) }
        if first.hasPrefix(":") {
            switch first {
            case ":format": return beforeWords.count == 1 ? OutputFormat.allCases.map(\.rawValue) : []
            case ":tz": return beforeWords.count == 1 ? ["UTC", "local"] + TimeZone.knownTimeZoneIdentifiers : []
            case ":display": return beforeWords.count == 1 ? ["on", "off", "all"] : []
            case ":undo": return beforeWords.count == 1 ? ["all"] : []
            case ":describe": return beforeWords.count == 1 ? Array(catalog.tables) : []
            case ":export": return beforeWords.count == 1 ? ["csv", "json", "yaml"] : []
            case ":help": return beforeWords.count == 1 ? StepKind.names + SessionCommand.completed : []
            case ":show": return ["steps.", "vars."]
            default: return []
            }
        }
        let table = self.table(in: before)
        let fields = table.map(catalog.fields(of:)) ?? []
        let references = ["steps.", "vars."]
        if first.hasSuffix(":") || first.hasPrefix("{") {
            if isTablePosition(before: before, beforeWords: beforeWords) { return Array(catalog.tables) }
            return fields + references
        }
        // The short form: the kind, the table, then name=value words.
        guard ShortForm.kinds.contains(first) else { return [] }
        let unquoted = before.last == "\"" || before.last == "'" ? String(before.dropLast()) : before
        if unquoted.last == "=" || unquoted.last == "," {
            return valueCandidates(word: word, before: unquoted, table: table, catalog: catalog)
        }
        if isTablePosition(before: before, beforeWords: beforeWords) { return Array(catalog.tables) }
        // A condition on a field of a referenced record: `assignment_group.name=`.
        if word.contains("."), let table, !["create", "update"].contains(first) {
            return catalog.walkedFields(word, from: table).map { $0 + "=" }
        }
        let names = (ShortForm.parameters[first] ?? ShortForm.attachmentParameters[first] ?? []) + ShortForm.stepOptions
        return fields.map { $0 + "=" } + names.map { $0 + "=" } + references
    }

    /// The values after `name=` (or after a `,` in a list): field names for `fields` and the orderings (dot-walked
    /// through references too: `assignment_group.name`), table names for `table`, `true` and `false` for a boolean
    /// field or option, a choice field's values, and references.
    private static func valueCandidates(word: String, before: String, table: String?, catalog: CompletionCatalog) -> [String] {
        let name = parameterName(before)
        let references = ["steps.", "vars."]
        if fieldListParameters.contains(name) {
            guard let table else { return [] }
            return word.contains(".") ? catalog.walkedFields(word, from: table) : catalog.fields(of: table)
        }
        if tableParameters.contains(name) { return Array(catalog.tables) }
        if displayValueParameters.contains(name) { return DisplayValueMode.allCases.map(\.rawValue) }
        if booleanOptions.contains(name) { return booleans }
        if let table {
            if catalog.booleanFields(of: table).contains(name) { return booleans + references }
            if let values = catalog.choices(of: table, field: name) { return values + references }
        }
        return references
    }

    /// What follows a completion that is the only one: nothing after `name=`, a path that goes on (`steps._1.`,
    /// `steps._1.records`, whose value holds more, gets a `.`) and a field in a list (`fields=number,short_d`: a `,`
    /// may follow), the quote that opened the word, `}` after a path that ends inside `${`, else a space.
    static func ending(of match: String, prefix: String, catalog: CompletionCatalog) -> String {
        if match.hasSuffix("=") || match.hasSuffix(".") || match.hasSuffix("/") { return "" }
        if match.hasPrefix("steps.") || match.hasPrefix("vars."), !paths(match + ".", catalog: catalog).isEmpty {
            return "."
        }
        let (_, before, _) = split(prefix)
        if before.last == "=" || before.last == ",", fieldListParameters.contains(parameterName(before)) { return "" }
        // A value with a space is offered after an opening quote only, and closed with it.
        if let quote = before.last, quote == "\"" || quote == "'" { return String(quote) }
        if let open = before.range(of: "${", options: .backwards), !before[open.upperBound...].contains("}") {
            return "}"
        }
        return " "
    }

    /// The name of the `name=value` word that `before` (the line up to a value) ends in: `fields` for
    /// `query incident fields=number,`.
    private static func parameterName(_ before: String) -> String {
        let token = before.split(whereSeparator: \.isWhitespace).last.map(String.init) ?? ""
        return String(token.prefix { $0 != "=" })
    }

    /// The table whose fields the dot-walk under the cursor offers (`assignment_group.na` on an incident line:
    /// `sys_user_group`), as far as the dictionary read so far tells; nil when the word is not a dot-walk.
    static func walkedTable(_ prefix: String, catalog: CompletionCatalog) -> String? {
        let (word, before, _) = split(prefix)
        guard word.contains("."), !word.hasPrefix("steps."), !word.hasPrefix("vars."), let table = table(in: before) else {
            return nil
        }
        return catalog.walk(word, from: table)?.table
    }

    /// How many of the words are step options (`id=NAME`, `when=...`, `continue_on_error=...`) written before the
    /// kind.
    static func leadingOptions(_ words: [String]) -> Int {
        words.prefix { word in
            guard let equals = word.firstIndex(of: "=") else { return false }
            return ShortForm.stepOptions.contains(String(word[..<equals]))
        }.count
    }

    /// Whether the word under the cursor at the end of `prefix` is a table name: the value of `table:`, or the
    /// second word of a short form of a record step.
    static func completesTable(_ prefix: String) -> Bool {
        let (_, before, beforeWords) = split(prefix)
        if beforeWords == [":describe"] { return true }
        return isTablePosition(before: before, beforeWords: Array(beforeWords.dropFirst(leadingOptions(beforeWords))))
    }

    /// Whether the word at the end of `prefix` (the line up to the cursor) is a file name, which the line editor
    /// completes from the file system: the argument of `:save` and `:save!`, the file of `:export`, the file of
    /// `attach TABLE SYS_ID FILE`, the path of `download SYS_ID PATH`, and the value of `file:` and `to:`.
    public static func completesPath(_ prefix: String) -> Bool {
        let (_, before, all) = split(prefix)
        if all.count == 1 && [":save", ":save!"].contains(all[0]) { return true }
        if all.count == 2 && all[0] == ":export" { return true }
        let trimmed = before.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix("file:") || trimmed.hasSuffix("to:") { return true }
        let words = all.dropFirst(leadingOptions(all)).filter { !$0.contains("=") }
        guard let kind = words.first, before.last?.isWhitespace ?? false, !before.hasSuffix("=") else { return false }
        return (kind == "attach" && words.count == 3) || (kind == "download" && words.count == 2)
    }

    /// The word under the cursor, the text before it and the words of that text.
    private static func split(_ prefix: String) -> (word: String, before: String, beforeWords: [String]) {
        let characters = Array(prefix)
        var wordStart = characters.count
        while wordStart > 0, !breakCharacters.contains(characters[wordStart - 1]) { wordStart -= 1 }
        let before = String(characters[..<wordStart])
        return (String(characters[wordStart...]), before, before.split(whereSeparator: \.isWhitespace).map(String.init))
    }

    /// Whether the word after `before` is a table name.
    private static func isTablePosition(before: String, beforeWords: [String]) -> Bool {
        guard let first = beforeWords.first, !first.hasPrefix(":") else { return false }
        if first.hasSuffix(":") || first.hasPrefix("{") {
            return before.trimmingCharacters(in: .whitespaces).hasSuffix("table:")
        }
        return beforeWords.count == 1 && before.last != "=" && before.last != ","
            && ShortForm.kinds.contains(first)
            && JobSchema.kind(first).map { kind in kind.words.first.flatMap { kind.parameters?.key($0) }?.role == .table }
                == true
    }

    /// `steps.<id>.<path>` and `vars.<name>.<path>`: the names under the last complete part.
    private static func paths(_ word: String, catalog: CompletionCatalog) -> [String] {
        var parts = word.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        parts.removeLast()
        let root = parts.removeFirst()
        let names = root == "steps" ? catalog.steps.mapValues(\.json) : catalog.vars
        let start = JSONValue.object(JSONObject(names.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        guard let path = try? DotPath(parts.joined(separator: ".")), let value = try? start.value(at: path) else {
            return []
        }
        let base = ([root] + parts).joined(separator: ".") + "."
        switch value {
        case .object(let members): return members.keys.map { base + $0 }
        case .array(let items): return items.indices.prefix(100).map { base + String($0) }
        default: return []
        }
    }

    /// The table a line works on: the value of `table:`, or the second word of a short form.
    static func table(in line: String) -> String? {
        if let range = line.range(of: #"table:\s*[a-z0-9_]+"#, options: .regularExpression) {
            return String(line[range].dropFirst("table:".count)).trimmingCharacters(in: .whitespaces)
        }
        let all = line.split(whereSeparator: \.isWhitespace).map(String.init)
        let words = all.dropFirst(leadingOptions(all)).map { $0 }
        guard words.count >= 2, ShortForm.kinds.contains(String(words[0])), NameUse.isTableName(String(words[1])) else {
            return nil
        }
        return String(words[1])
    }
}
