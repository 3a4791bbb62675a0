import Foundation
import NowData

/// Tab completion, answered without waiting for a running step.
extension ReplSession {
    /// The words that can replace the word under the cursor; `prefix` is the line up to the cursor. Waits a moment
    /// at most: the first completion of a table name asks the instance's `sys_db_object` for its tables, and the
    /// first completion on a line that names a table (or dot-walks to one: `assignment_group.na`) asks for its
    /// fields, in the background; what has come within ``CompletionCatalog/loadWait`` is offered at once (a load
    /// that has ended is not waited for), else what is known (the common tables, the tables and fields of the
    /// records seen) and ``completionNotice()`` says, once, that the rest comes on a later Tab. An instance that
    /// refuses offers what is known.
    public nonisolated func completions(for prefix: String) -> [String] {
        var reading: String?
        let (tablesRead, read) = catalog.withLock { ($0.tableListRead, $0.dictionaryRead) }
        if ReplCompleter.completesTable(prefix) {
            if !tablesRead, !tableLoad().ends(within: CompletionCatalog.loadWait) {
                reading = "the instance's table names"
            }
        } else if let table = ReplCompleter.table(in: prefix) {
            if !read.contains(table), !dictionaryLoad(for: table).ends(within: CompletionCatalog.loadWait) {
                reading = "the fields of \(table)"
            } else if let walked = catalog.withLock({ ReplCompleter.walkedTable(prefix, catalog: $0) }),
                !catalog.withLock({ $0.dictionaryRead.contains(walked) }),
                !dictionaryLoad(for: walked).ends(within: CompletionCatalog.loadWait)
            {
                reading = "the fields of \(walked)"
            }
        }
        return catalog.withLock { catalog in
            if let reading, !catalog.noticeGiven {
                catalog.notice = "(still reading \(reading) from the instance: Tab again in a moment for them)"
                catalog.noticeGiven = true
            }
            return ReplCompleter.completions(for: prefix, catalog: catalog)
        }
    }

    /// What completion has to say, once a session: that it offered what it knew while the instance was still being
    /// asked for the rest; nil otherwise (and once said).
    public nonisolated func completionNotice() -> String? {
        catalog.withLock { catalog in
            defer { catalog.notice = nil }
            return catalog.notice
        }
    }

    /// Starts reading the instance's table names, so that the first Tab on a table name has them.
    public nonisolated func startCompletionLoads() {
        _ = tableLoad()
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
        catalog.withLock {
            $0.tableListRead = true
            if answered { $0.schema.merge(listed) }
        }
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
            $0.dictionaryRead.insert(table)
        }
    }
}
