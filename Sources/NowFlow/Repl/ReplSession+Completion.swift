import Foundation
import NowData

/// Tab completion, answered without waiting for a running step.
extension ReplSession {
    /// The characters that end a word for completion; the line editor must split words the same way.
    public static let wordBreakCharacters = ReplCompleter.breakCharacters

    /// The words that can replace the word under the cursor; `prefix` is the line up to the cursor. Never waits:
    /// the first time a line names a table whose dictionary was not asked for, it is asked in the background (the
    /// next Tab offers its fields); until then, and on an instance without a dictionary, the fields of the records
    /// seen in the session are offered.
    public nonisolated func completions(for prefix: String) -> [String] {
        if let table = ReplCompleter.table(in: prefix), catalog.withLock({ !$0.dictionaryAsked.contains(table) }) {
            Task { await self.loadDictionary(for: table) }
        }
        return catalog.withLock { ReplCompleter.completions(for: prefix, catalog: $0) }
    }

    /// Asks the instance's dictionary (`sys_dictionary`) once for the table's field names; an instance that has
    /// none, or refuses, is asked no more for that table.
    nonisolated func loadDictionary(for table: String) async {
        let first = catalog.withLock { $0.dictionaryAsked.insert(table).inserted }
        guard first else { return }
        let configuration = FetchConfiguration(
            filter: Filter(query: "name=\(table)^elementISNOTEMPTY"), limit: 1000,
            readConfiguration: FieldReadConfiguration(includeFields: ["element"]))
        guard let data = try? await service.records(from: "sys_dictionary", configuration: configuration),
            let items = try? JobExecution.resultList(data)
        else { return }
        let found = items.compactMap { item -> String? in
            guard case .map(let fields) = item, let element = fields["element"]?.text, !element.isEmpty else { return nil }
            return element
        }
        guard !found.isEmpty else { return }
        catalog.withLock {
            $0.tables.insert(table)
            $0.fields[table, default: []].formUnion(found)
        }
    }
}
