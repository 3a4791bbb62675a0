import Foundation
import NowData

/// Which words complete the word under the cursor: commands, step kinds, table names, the fields of the table
/// the line works on, parameters, and paths into `steps.` and `vars.`.
///
/// The line editor splits words at ``breakCharacters`` (so `active=tr` completes `tr`, `${steps._.rec` completes
/// `steps._.rec`); the completer splits the same way.
enum ReplCompleter {
    /// The characters that end a word, for the line editor too.
    static let breakCharacters = " \t\n\"'=,{}()[]|&!<>"
    static let commands = [":next", ":run", ":list", ":vars", ":show", ":format", ":tz", ":save", ":help", ":quit"]

    /// The words that can replace the last word of `prefix` (the line up to the cursor), sorted.
    static func completions(for prefix: String, catalog: CompletionCatalog) -> [String] {
        let (word, before, beforeWords) = split(prefix)
        return candidates(word: word, before: before, beforeWords: beforeWords, catalog: catalog)
            .filter { $0.hasPrefix(word) }
            .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            .sorted()
    }

    private static func candidates(word: String, before: String, beforeWords: [String], catalog: CompletionCatalog) -> [String] {
        guard let first = beforeWords.first else {
            return word.hasPrefix(":") ? commands : StepKind.names + commands
        }
        if word.hasPrefix("steps.") || word.hasPrefix("vars.") { return paths(word, catalog: catalog) }
        if first.hasPrefix(":") {
            switch first {
            case ":format": return beforeWords.count == 1 ? OutputFormat.allCases.map(\.rawValue) : []
            case ":tz": return beforeWords.count == 1 ? ["UTC", "local"] + TimeZone.knownTimeZoneIdentifiers : []
            case ":show": return ["steps.", "vars."]
            default: return []
            }
        }
        let table = self.table(in: before)
        let fields = table.map { catalog.fields[$0].map(Array.init) ?? [] } ?? []
        let references = ["steps.", "vars."]
        if first.hasSuffix(":") || first.hasPrefix("{") {
            if isTablePosition(before: before, beforeWords: beforeWords) { return Array(catalog.tables) }
            return fields + references
        }
        // The short form: the kind, the table, then name=value words.
        guard ShortForm.kinds.contains(first) else { return [] }
        if before.last == "=" || before.last == "," {
            let token = before.split(whereSeparator: \.isWhitespace).last.map(String.init) ?? ""
            let name = token.prefix { $0 != "=" }
            return ["fields", "order_by", "order_by_desc"].contains(String(name)) ? fields : references
        }
        if isTablePosition(before: before, beforeWords: beforeWords) { return Array(catalog.tables) }
        let names = (ShortForm.parameters[first] ?? []) + ShortForm.stepOptions
        return fields.map { $0 + "=" } + names.map { $0 + "=" } + references
    }

    /// Whether the word under the cursor at the end of `prefix` is a table name: the value of `table:`, or the
    /// second word of a short form of a record step.
    static func completesTable(_ prefix: String) -> Bool {
        let (_, before, beforeWords) = split(prefix)
        return isTablePosition(before: before, beforeWords: beforeWords)
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
            && ShortForm.kinds.contains(first) && JobBuilder.recordStepKeys[first] != nil
    }

    /// `steps.<id>.<path>` and `vars.<name>.<path>`: the names under the last complete part.
    private static func paths(_ word: String, catalog: CompletionCatalog) -> [String] {
        var parts = word.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        parts.removeLast()
        let root = parts.removeFirst()
        let names = root == "steps" ? catalog.steps : catalog.vars
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
        let words = line.split(whereSeparator: \.isWhitespace)
        guard words.count >= 2, ShortForm.kinds.contains(String(words[0])), JobBuilder.isTableName(String(words[1])) else {
            return nil
        }
        return String(words[1])
    }
}
