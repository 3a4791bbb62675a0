import Foundation
import NowData

/// Table and field names checked before a typed step is sent: a name the instance does not have is answered with
/// the closest one it has, from its `sys_db_object` and `sys_dictionary` (the same lists completion offers), rather
/// than with the instance's 400 or an empty result. An instance that refuses those tables is not checked.
extension ReplSession {
    /// The error for the first table or field of the step (a record step whose table is written out) that the
    /// instance does not have; nil when all are known, or cannot be checked.
    func unknownName(in node: YAMLNode) async -> String? {
        guard
            let pair = node.pairs?.first(where: {
                [.records, .attachments].contains(JobSchema.kind($0.name)?.group)
            }),
            case let uses = NameUse.uses(ofKind: pair.name, in: pair.value),
            let tableUse = uses.first, NameUse.isTableName(tableUse.name)
        else { return nil }
        let table = tableUse.name
        await CancellableWait.value(of: tableLoad())
        guard !Task.isCancelled else { return nil }
        let (known, tables) = catalog.withLock { ($0.instanceTables, $0.tables) }
        if known, !tables.contains(table) {
            let hint = table.closest(among: tables).map { "; did you mean '\($0)'?" } ?? ""
            return ReplReply.errorText("the instance has no table '\(table)'\(hint)", column: tableUse.mark.column)
        }
        await CancellableWait.value(of: dictionaryLoad(for: table))
        guard !Task.isCancelled, let fields = catalog.withLock({ $0.checkedFields(of: table) }) else {
            return nil
        }
        for use in uses.dropFirst() {
            // A dot-walked name (`caller_id.name`) is checked up to its first part.
            let field = FieldPath(use.name).first
            guard NameUse.isFieldName(field), !fields.contains(field) else { continue }
            let hint = field.closest(among: fields).map { "; did you mean '\($0)'?" } ?? ""
            return ReplReply.errorText("\(table) has no field '\(field)'\(hint)", column: use.mark.column)
        }
        return nil
    }
}
