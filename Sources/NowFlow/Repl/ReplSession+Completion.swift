import Foundation
import NowData
import Synchronization

/// Tab completion, answered without waiting for a running step.
extension ReplSession {
    /// The characters that end a word for completion; the line editor must split words the same way.
    public static let wordBreakCharacters = ReplCompleter.breakCharacters

    /// The words that can replace the word under the cursor; `prefix` is the line up to the cursor. The first time
    /// a line names a table, its fields are asked of the instance's dictionary (`sys_dictionary`); when the
    /// instance has none, the fields of the records seen in the session are offered.
    public nonisolated func completions(for prefix: String) -> [String] {
        if let table = ReplCompleter.table(in: prefix) { askDictionary(for: table) }
        return catalog.withLock { ReplCompleter.completions(for: prefix, catalog: $0) }
    }

    /// Asks `sys_dictionary` once for the table's field names, waiting at most two seconds.
    private nonisolated func askDictionary(for table: String) {
        let first = catalog.withLock { $0.dictionaryAsked.insert(table).inserted }
        guard first else { return }
        let names = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let service = self.service
        Task {
            let configuration = FetchConfiguration(
                filter: Filter(query: "name=\(table)^elementISNOTEMPTY"), limit: 1000,
                readConfiguration: FieldReadConfiguration(includeFields: ["element"]))
            if let data = try? await service.records(from: "sys_dictionary", configuration: configuration),
                let items = try? JobExecution.resultList(data)
            {
                let found = items.compactMap { item -> String? in
                    guard case .map(let fields) = item, let element = fields["element"]?.text, !element.isEmpty else { return nil }
                    return element
                }
                names.withLock { $0 = found }
            }
            done.signal()
        }
        guard done.wait(timeout: .now() + 2) == .success else { return }
        let found = names.withLock { $0 }
        guard !found.isEmpty else { return }
        catalog.withLock {
            $0.tables.insert(table)
            $0.fields[table, default: []].formUnion(found)
        }
    }
}
