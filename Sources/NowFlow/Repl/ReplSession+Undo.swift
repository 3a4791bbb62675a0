import Foundation
import NowData

/// `:history` and `:undo`: the session's writes to single records (creates, and updates and deletes by sys_id), and
/// taking them back, last first.
///
/// Before an update or a delete the session reads the record (as the dry run's diff does), and after each write it
/// reads the record's version (`sys_mod_count`, `sys_updated_on`). `:undo` deletes what a create made, restores the
/// fields an update wrote to the values read before it, and re-creates what a delete removed with its sys_id and
/// fields; it refuses when the record changed since the session last wrote it (its version moved, or a deleted
/// record is back), saying so. A write by query is not kept.
extension ReplSession {
    /// The record of `table` with `sysID` as the instance has it now (every field); nil when it has none.
    private func currentRecord(_ table: String, _ sysID: String) async throws -> JSONValue? {
        do {
            return try JobExecution.result(try await service.record(with: sysID, from: table))
        } catch let error as NowDataError where error.statusCode == 404 {
            return nil
        }
    }

    /// The table and sys_id an update or delete by sys_id writes, evaluated now; nil for the other steps.
    func singleTarget(of step: Step) -> (kind: SessionWrite.Kind, table: String, sysID: String)? {
        let kind: SessionWrite.Kind
        let table: Template
        let target: RecordTarget
        switch step.kind {
        case .update(let update): (kind, table, target) = (.update, update.table, update.target)
        case .delete(let delete): (kind, table, target) = (.delete, delete.table, delete.target)
        default: return nil
        }
        guard case .sysID(let template) = target, let name = try? table.evaluate(in: scope).text,
            let sysID = try? template.evaluate(in: scope).text
        else { return nil }
        return (kind, name, sysID)
    }

    /// The record an update or delete by sys_id is about to write, read first; nil for the other steps, in a dry
    /// run, or when it cannot be read (the step then fails on its own).
    func recordBefore(_ step: Step) async -> JSONObject? {
        guard dryRun == nil, let target = singleTarget(of: step) else { return nil }
        return (try? await currentRecord(target.table, target.sysID))??.object
    }

    /// Keeps a write that passed, with the record's version after it.
    func keepWrite(_ step: Step, id: String, result: JSONValue, before: JSONObject?, target: (kind: SessionWrite.Kind, table: String, sysID: String)?) async {
        guard dryRun == nil else { return }
        var write: SessionWrite
        if case .create(let create) = step.kind, let table = try? create.table.evaluate(in: scope).text,
            let sysID = result["sys_id"]?.text
        {
            write = SessionWrite(stepID: id, kind: .create, table: table, sysID: sysID, written: create.fields.map(\.name))
        } else if let target, let before {
            var written: [String] = []
            if case .update(let update) = step.kind { written = update.fields.map(\.name) }
            write = SessionWrite(
                stepID: id, kind: target.kind, table: target.table, sysID: target.sysID, before: before, written: written)
        } else {
            return
        }
        if write.kind != .delete, let record = try? await currentRecord(write.table, write.sysID) {
            write.version = SessionWrite.Version(record)
        }
        writes.append(write)
    }

    /// `:history`: the session's writes, numbered, with what `:undo` would do or did.
    func history() -> String {
        guard !writes.isEmpty else { return "no writes in this session yet" }
        return writes.enumerated().map { index, write in
            let fields = write.kind == .update ? " (\(write.written.joined(separator: ", ")))" : ""
            let undo: String
            if write.undone {
                undo = "undone"
            } else {
                switch write.kind {
                case .create: undo = "undo deletes it"
                case .update: undo = "undo restores \(write.written.joined(separator: ", "))"
                case .delete: undo = "undo re-creates it"
                }
            }
            return "\(index + 1). \(write.stepID) \(write.kind.rawValue) \(write.table) \(write.sysID)\(fields)  \(undo)"
        }.joined(separator: "\n")
    }

    /// `:undo`, `:undo N`, `:undo all`.
    func undo(_ argument: String) async -> String {
        let open = writes.indices.filter { !writes[$0].undone }
        guard let last = open.last else { return Self.errorText("nothing to undo (:history lists the writes)", column: 0) }
        switch argument {
        case "":
            return await undo(at: last)
        case "all":
            var lines: [String] = []
            for index in open.reversed() {
                let line = await undo(at: index)
                lines.append(line)
                if line.hasPrefix("error") { break }
            }
            return lines.joined(separator: "\n")
        default:
            guard let number = Int(argument), writes.indices.contains(number - 1) else {
                return Self.errorText(":undo takes nothing, a number from :history or all, not '\(argument)'", column: 0)
            }
            guard !writes[number - 1].undone else { return Self.errorText("write \(number) is undone already", column: 0) }
            return await undo(at: number - 1)
        }
    }

    private func undo(at index: Int) async -> String {
        let write = writes[index]
        let what = "\(index + 1) (\(write.stepID) \(write.kind.rawValue) \(write.table) \(write.sysID))"
        do {
            let current = try await currentRecord(write.table, write.sysID)
            var newVersion: SessionWrite.Version?
            let done: String
            switch write.kind {
            case .create, .update:
                guard let current else {
                    return Self.errorText("not undone: \(what): the record is gone from the instance", column: 0)
                }
                if let refusal = changed(current, since: write.version) { return Self.errorText("not undone: \(what): \(refusal)", column: 0) }
                if write.kind == .create {
                    try await service.deleteRecord(sysId: write.sysID, from: write.table)
                    done = "deleted it"
                } else {
                    var fields: [FieldName: FieldValue] = [:]
                    for name in write.written { fields[name] = Self.fieldValue(write.before?[name]) }
                    _ = try await service.updateRecord(sysId: write.sysID, in: write.table, with: fields)
                    newVersion = try await currentRecord(write.table, write.sysID).flatMap(SessionWrite.Version.init)
                    done = "restored \(write.written.joined(separator: ", "))"
                }
            case .delete:
                guard current == nil else {
                    return Self.errorText("not undone: \(what): a record with its sys_id is on the instance again", column: 0)
                }
                var fields: [FieldName: FieldValue] = ["sys_id": .string(write.sysID)]
                for (name, value) in write.before ?? [:] where !name.hasPrefix("sys_") { fields[name] = Self.fieldValue(value) }
                _ = try await service.createRecord(with: fields, in: write.table)
                newVersion = try await currentRecord(write.table, write.sysID).flatMap(SessionWrite.Version.init)
                done = "re-created it with its sys_id and fields"
            }
            writes[index].undone = true
            // The write before it on the same record now expects the record as the undo left it.
            if let earlier = writes.indices.last(where: {
                $0 < index && !writes[$0].undone && writes[$0].table == write.table && writes[$0].sysID == write.sysID
            }) {
                writes[earlier].version = newVersion
            }
            return "undid \(what): \(done)"
        } catch {
            return Self.errorText("not undone: \(what): \(masker("\(error)"))", column: 0)
        }
    }

    /// Why the record is not as the session left it; nil when it is.
    private func changed(_ current: JSONValue, since version: SessionWrite.Version?) -> String? {
        guard let version, let now = SessionWrite.Version(current), now != version else { return nil }
        return "the record changed since (sys_mod_count \(version.modCount) → \(now.modCount), "
            + "sys_updated_on \(version.updatedOn) → \(now.updatedOn)); look at it, then write it back by hand"
    }

    /// A field's value as read, to write back: a reference's sys_id, a text as it is, nothing as empty.
    private static func fieldValue(_ value: JSONValue?) -> FieldValue {
        switch value {
        case .object(let members): return .string(members["value"]?.text ?? "")
        case .some(let value): return .string(value.text)
        case .none: return .string("")
        }
    }
}
