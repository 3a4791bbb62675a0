import NowData

/// The business rules of `sys_script` that the local instance runs: an active `before` rule with `abort_action`
/// on the record's table (or a table it extends) refuses an insert or update (as its `action_insert` and
/// `action_update` say) whose record matches the rule's `filter_condition`, with the platform's 403. The
/// condition is checked on the written record inside the write's transaction, which the refusal rolls back.
/// Scripts (`script`, `condition`) are stored, never run.
extension TableAPIHandler {
    func checkAbortRules(
        _ table: TableDefinition, sysID: String, record name: String, insert: Bool, _ db: SQLiteConnection
    ) throws {
        var tables = [table.name]
        while let parent = tables.last.flatMap({ dictionary.table($0)?.parent }) { tables.append(parent) }
        for rule in try store.abortRules(on: tables, insert: insert, db) {
            let translated: TranslatedQuery
            do {
                translated = translator.translate(try EncodedQuery.parse(rule.filterCondition), table: table.name)
            } catch {
                log("local instance: business rule '\(rule.name)' skipped: \(error)")
                continue
            }
            let condition =
                "\"sys_id\" = ?" + (translated.whereClause.isEmpty ? "" : " AND (\(translated.whereClause))")
            guard try store.count(table, where: condition, [.text(sysID)] + translated.parameters, db) > 0 else {
                continue
            }
            let verb = insert ? "insert" : "update"
            log(
                "local instance: \(table.name): business rule '\(rule.name)' aborted the \(verb) of \(name)"
                    + (rule.message.map { ": " + $0 } ?? ""))
            throw TableAPIError(
                status: 403, message: "Operation Failed", detail: "Error during \(verb) of \(table.name) (\(name))")
        }
    }
}
