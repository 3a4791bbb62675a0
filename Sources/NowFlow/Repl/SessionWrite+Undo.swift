import NowData

/// What `:undo` says of a write, and what it writes back.
extension SessionWrite {
    /// `deleted it`, `restored urgency`, `re-created 3 records with their sys_ids and fields`.
    func undoDescription(count: Int) -> String {
        let records = "\(count) record\(count == 1 ? "" : "s")"
        switch (kind, byQuery) {
        case (.create, _): return "deleted it"
        case (.update, false): return "restored \(written.joined(separator: ", "))"
        case (.update, true): return "restored \(written.joined(separator: ", ")) of \(records)"
        case (.delete, false): return "re-created it with its sys_id and fields"
        case (.delete, true): return "re-created \(records) with \(count == 1 ? "its sys_id" : "their sys_ids") and fields"
        }
    }

    /// Why `record` cannot be taken back, `current` being it on the instance now: gone (after a create or update),
    /// back (after a delete), or changed since the session last left it; nil when it can.
    func undoRefusal(_ record: Record, current: NowRecord?) -> String? {
        guard kind != .delete else { return current == nil ? nil : "a record with its sys_id is on the instance again" }
        guard let current else { return "the record is gone from the instance" }
        guard let version = record.version, let now = Version(current), now != version else { return nil }
        return "the record changed since (sys_mod_count \(version.modCount) → \(now.modCount), "
            + "sys_updated_on \(version.updatedOn) → \(now.updatedOn)); look at it, then write it back by hand"
    }
}

extension SessionWrite.Record {
    /// A field's value as the record was before the write, to write back: a reference's sys_id, a text as it is,
    /// nothing as empty.
    func valueBefore(_ name: FieldName) -> FieldValue {
        .string(before?.value(name) ?? before?.json[name]?.text ?? "")
    }
}
