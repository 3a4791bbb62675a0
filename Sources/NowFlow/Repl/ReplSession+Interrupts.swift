import Foundation
import NowData

/// What a Ctrl-C during a write leaves: the request may have reached the instance, so the REPL says so, keeps a
/// possibly written result (`steps.<id>`: `sys_id` or `sys_ids`, `table`, `possibly_written: true`), and before the
/// next line looks at each record (again at each line while the instance does not answer): a create's record by
/// the sys_id chosen for it, an update's by its version (`sys_mod_count`, `sys_updated_on`) against the one read
/// before it, a delete's by whether it is still there. What went through is kept for `:undo`.
extension ReplSession {
    /// Keeps the possibly written result of an interrupted write and says so.
    func interrupted(_ write: SessionWrite, id: String, kind: StepKind, node: YAMLNode?) -> String {
        let sysIDs = write.byQuery ? write.records.map(\.sysID) : [write.records.first?.sysID ?? ""]
        let result = StepResult.possiblyWritten(table: write.table, sysIDs: sysIDs, byQuery: write.byQuery)
        scope.steps[id] = result
        scope.steps["_"] = result
        kinds[id] = kind
        kinds["_"] = kind
        unsettled.append(InterruptedWrite(id: id, write: write, node: node))
        let verb = write.kind.rawValue
        let target = write.byQuery
            ? "for some of the \(write.records.count) \(write.table) record\(write.records.count == 1 ? "" : "s") it matched; steps.\(id) keeps them"
            : "\(write.table) sys_id \(write.records.first?.sysID ?? ""); steps.\(id) keeps it"
        return """
            cancelled: \(id) (\(verb)) was interrupted (Ctrl-C); the \(verb) may have gone through: \(target) as \
            possibly written, and the next line looks \(write.byQuery ? "them" : "it") up
            """
    }

    /// Looks up the interrupted writes; what was found, or nil when none was waiting.
    var settled: String? {
        get async {
            guard !unsettled.isEmpty else { return nil }
            var lines: [String] = []
            var waiting: [InterruptedWrite] = []
            for interrupted in unsettled {
                guard !Task.isCancelled else {
                    waiting.append(interrupted)
                    continue
                }
                do {
                    lines.append(try await settle(interrupted))
                } catch {
                    waiting.append(interrupted)
                    lines.append(
                        "the interrupted \(interrupted.write.kind.rawValue) \(interrupted.id) is not settled yet (\(masker("\(error)"))); the next line looks again")
                }
            }
            unsettled = waiting
            return lines.isEmpty ? nil : lines.joined(separator: "\n")
        }
    }

    /// Looks at each record of the interrupted write, keeps what went through for `:undo`, and replaces the possibly
    /// written result with what the instance has; throws when the instance does not answer.
    private func settle(_ interrupted: InterruptedWrite) async throws -> String {
        var write = interrupted.write
        let id = interrupted.id
        var found: [String: NowRecord] = [:]
        var wentThrough: [SessionWrite.Record] = []
        for record in write.records {
            let current = try await currentRecord(write.table, record.sysID)
            var kept = record
            switch write.kind {
            case .create, .update:
                guard let current else { continue }
                let version = SessionWrite.Version(current)
                if write.kind == .update, version == SessionWrite.Version(record.before) { continue }
                kept.version = version
                found[record.sysID] = current
            case .delete:
                guard current == nil else { continue }
            }
            wentThrough.append(kept)
        }
        write.records = wentThrough
        let what = "the interrupted \(write.kind.rawValue) \(id)"
        let total = interrupted.write.records.count
        let stillPossible = scope.steps[id]?.isPossiblyWritten == true
        func replace(with value: RecordWrite?) {
            if stillPossible { scope.steps[id] = value.map(StepResult.written) }
            if scope.steps["_"]?.isPossiblyWritten == true { scope.steps["_"] = value.map(StepResult.written) }
        }
        /// The write settled; `records` nil for a write that leaves none (a delete, a write by query).
        func settled(_ action: TouchedRecord.Action, _ sysIDs: [String], records: [NowRecord?]?) -> RecordWrite {
            RecordWrite(
                action: action, sysIDs: sysIDs, byQuery: interrupted.write.byQuery, records: records.map(WrittenRecords.init))
        }
        guard !wentThrough.isEmpty else {
            replace(with: nil)
            let table = write.table
            let none: String
            switch (write.kind, write.byQuery) {
            case (.create, _): none = "\(table) has no record \(interrupted.write.records.first?.sysID ?? "")"
            case (.update, false): none = "\(table) \(interrupted.write.records.first?.sysID ?? "") is as it was before it"
            case (.delete, false): none = "\(table) \(interrupted.write.records.first?.sysID ?? "") is still there"
            case (_, true): none = "none of the \(total) \(table) records it matched changed"
            }
            return "\(what) did not go through: \(none) (steps.\(id) is gone)"
        }
        writes.append(write)
        let sysIDs = wentThrough.map(\.sysID)
        switch (write.kind, write.byQuery) {
        case (.create, _):
            let sysID = sysIDs[0]
            replace(with: settled(.created, [sysID], records: [found[sysID]]))
            if let node = interrupted.node { record(node, id: id, jobStep: nil) }
            return "\(what) went through: \(write.table) \(sysID) exists (steps.\(id) is its record)"
        case (.update, false):
            let sysID = sysIDs[0]
            replace(with: settled(.updated, [sysID], records: [found[sysID]]))
            return "\(what) went through: \(write.table) \(sysID) changed (steps.\(id) is its record; :undo restores \(write.written.joined(separator: ", ")))"
        case (.delete, false):
            replace(with: settled(.deleted, [sysIDs[0]], records: nil))
            return "\(what) went through: \(write.table) \(sysIDs[0]) is gone (:undo re-creates it)"
        case (_, true):
            replace(with: settled(write.kind == .update ? .updated : .deleted, sysIDs, records: nil))
            let verb = write.kind == .update ? "changed" : "deleted"
            return "\(what) went through for \(sysIDs.count) of the \(total) \(write.table) records it matched: "
                + "\(sysIDs.joined(separator: ", ")) \(verb) (steps.\(id) lists them; :undo takes them back)"
        }
    }
}
