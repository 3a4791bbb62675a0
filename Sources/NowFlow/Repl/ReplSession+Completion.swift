import Foundation
import NowData

/// Tab completion, answered without waiting for a running step.
extension ReplSession {
    /// The characters that end a word for completion; the line editor must split words the same way.
    public static let wordBreakCharacters = ReplCompleter.breakCharacters

    /// Whether the word at the end of `prefix` (the line up to the cursor) is a file name, which the line editor
    /// completes from the file system.
    public static func completesPath(_ prefix: String) -> Bool {
        ReplCompleter.completesPath(prefix)
    }

    /// The words that can replace the word under the cursor; `prefix` is the line up to the cursor. Never waits:
    /// the first completion of a table name asks the instance's `sys_db_object` for its tables in the background,
    /// and the first completion after a line names a table whose dictionary was not asked for asks for its fields
    /// in the background (the next Tab offers them); until then, and on an instance that refuses, the common
    /// tables and the tables and fields of the records seen in the session are offered.
    public nonisolated func completions(for prefix: String) -> [String] {
        if ReplCompleter.completesTable(prefix) {
            _ = tableLoad()
        } else if let table = ReplCompleter.table(in: prefix), catalog.withLock({ !$0.dictionaryAsked.contains(table) }) {
            Task { await self.loadDictionary(for: table) }
        }
        return catalog.withLock { ReplCompleter.completions(for: prefix, catalog: $0) }
    }

    /// The dictionary load of `table` (``loadDictionary(for:)``), shared: started on the first call for the table.
    nonisolated func dictionaryLoad(for table: String) -> Task<Void, Never> {
        catalog.withLock { catalog in
            if let load = catalog.dictionaryLoads[table] { return load }
            let load = Task { await self.loadDictionary(for: table) }
            catalog.dictionaryLoads[table] = load
            return load
        }
    }

    /// What the line editor puts after `match` when it is the only completion of the word at the end of `prefix`:
    /// `""`, `"."`, `"}"` or `" "`.
    public nonisolated func completionEnding(of match: String, prefix: String) -> String {
        catalog.withLock { ReplCompleter.ending(of: match, prefix: prefix, catalog: $0) }
    }

    /// The request for the instance's table names (`sys_db_object`: `name` and the parent's), started on the
    /// first call; an instance that refuses is asked no more.
    nonisolated func tableLoad() -> Task<Void, Never> {
        catalog.withLock { catalog in
            if let load = catalog.tableLoad { return load }
            let load = Task { await self.loadTables() }
            catalog.tableLoad = load
            return load
        }
    }

    private nonisolated func loadTables() async {
        var listed = InstanceDictionary()
        let answered = (try? await listed.loadTableList(service: service)) != nil
        if Task.isCancelled {
            // Interrupted (Ctrl-C during a step's name check): asked again next time.
            catalog.withLock { $0.tableLoad = nil }
            return
        }
        guard answered else { return }
        catalog.withLock { $0.schema.merge(listed) }
    }

    /// Asks the instance's dictionary once for the fields of the table and of the tables it extends (their names,
    /// types and references: the table names, asked for first, tell the tables it extends), then their choice lists,
    /// as the name check of `run` does (``InstanceDictionary``); an instance that has none, or refuses, is asked no
    /// more for that table.
    nonisolated func loadDictionary(for table: String) async {
        let first = catalog.withLock { $0.dictionaryAsked.insert(table).inserted }
        guard first else { return }
        // The table names tell which tables this one extends, whose dictionary lists the fields it inherits.
        await tableLoad().value
        var schema = catalog.withLock { $0.schema }
        try? await schema.loadFields(of: [table], service: service)
        if Task.isCancelled {
            catalog.withLock {
                $0.dictionaryAsked.remove(table)
                $0.dictionaryLoads[table] = nil
            }
            return
        }
        catalog.withLock {
            $0.schema.merge(schema)
            if !schema.allFields(of: table).isEmpty { $0.seenTables.insert(table) }
        }
    }
}
