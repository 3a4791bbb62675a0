import Foundation
import NowData

/// `:history` and `:undo`: the session's writes (creates, and updates and deletes by sys_id or by query), and
/// taking them back, last first.
///
/// Before an update or a delete the session reads the records it will write (as the dry run's diff does): the
/// record of its sys_id, or the records its query matches (every field), and after each write it reads each
/// record's version (`sys_mod_count`, `sys_updated_on`). `:undo` deletes what a create made, restores the fields an
/// update wrote to the values read before it, and re-creates what a delete removed with its sys_id and fields, for
/// each record of a write by query too; it refuses when a record changed since the session last wrote it (its
/// version moved, or a deleted record is back), saying so, and then changes none of the write's records.
extension ReplSession {
    /// The record of `table` with `sysID` as the instance has it now (every field); nil when it has none.
    func currentRecord(_ table: String, _ sysID: String) async throws -> NowRecord? {
        do {
            return try NowRecord(try JSONValue.tableResult(of: try await service.record(with: sysID, from: table)))
        } catch let error as NowDataError where error.statusCode == 404 {
            return nil
        }
    }

    /// The write an update or a delete is about to make, with each record it will write as it is now: the record of
    /// its sys_id, or those its query matches. Nil for the other steps, in a dry run, when the records cannot be
    /// read, and when more than `max` match (the step then fails on its own).
    func writeDraft(_ step: Step, id: String) async -> SessionWrite? {
        guard dryRun == nil else { return nil }
        let kind: SessionWrite.Kind
        let tableTemplate: Template
        let target: RecordTarget
        var written: [String] = []
        switch step.kind {
        case .update(let update):
            (kind, tableTemplate, target) = (.update, update.table, update.target)
            written = update.fields.map(\.name)
        case .delete(let delete): (kind, tableTemplate, target) = (.delete, delete.table, delete.target)
        default: return nil
        }
        guard let table = try? tableTemplate.evaluate(in: scope).text else { return nil }
        switch target {
        case .sysID(let template):
            guard let sysID = try? template.evaluate(in: scope).text, let before = try? await currentRecord(table, sysID)
            else { return nil }
            return SessionWrite(
                stepID: id, kind: kind, table: table, records: [.init(sysID: sysID, before: before)], written: written)
        case .filter(let filter, let maxSetting):
            // The query and max as the step evaluates them.
            let execution = JobExecution(service: service, options: options, masker: masker, dates: dates, dryRun: nil)
            guard let selection = try? execution.selection(filter, scope: scope),
                let max = try? execution.count(maxSetting, scope: scope)
            else { return nil }
            // A filter that selects no record writes none: nothing to read, nothing to undo.
            guard case .query(let selected) = selection else {
                return SessionWrite(stepID: id, kind: kind, table: table, records: [], byQuery: true, written: written)
            }
            let query = selected.text
            let configuration = FetchConfiguration(filter: query.isEmpty ? nil : Filter(query: query), limit: max + 1)
            guard let data = try? await service.records(from: table, configuration: configuration),
                let rows = try? JSONValue.tableRecords(of: data), rows.count <= max
            else { return nil }
            let records = rows.compactMap { row in
                (try? NowRecord(row)).map { SessionWrite.Record(sysID: $0.sysId ?? "", before: $0) }
            }
            return SessionWrite(stepID: id, kind: kind, table: table, records: records, byQuery: true, written: written)
        }
    }

    /// Keeps a write that passed, with each record's version after it: a create from its result, an update or a
    /// delete from its draft (the records its result names). `recordedStep` is the step's index among those
    /// `:save` writes (nil: not saved).
    func keepWrite(_ step: Step, id: String, result: StepResult, draft: SessionWrite?, recordedStep: Int?) async {
        guard dryRun == nil, case .written(let done) = result else { return }
        var write: SessionWrite
        if case .create(let create) = step.kind, let table = try? create.table.evaluate(in: scope).text,
            let sysID = done.sysIDs.first
        {
            write = SessionWrite(
                stepID: id, kind: .create, table: table, records: [.init(sysID: sysID)], written: create.fields.map(\.name))
        } else if var draft {
            if draft.byQuery {
                let written = Set(done.sysIDs)
                draft.records.removeAll { !written.contains($0.sysID) }
            }
            write = draft
        } else {
            return
        }
        guard !write.records.isEmpty else { return }
        write.recordedStep = recordedStep
        if write.kind != .delete {
            for index in write.records.indices {
                let record = try? await currentRecord(write.table, write.records[index].sysID)
                write.records[index].version = record.flatMap { SessionWrite.Version($0) }
            }
        }
        writes.append(write)
    }

    /// `:history`: the session's writes, numbered, with what `:undo` would do or did.
    func history() -> String {
        guard !writes.isEmpty else { return "no writes in this session yet" }
        return writes.enumerated().map { index, write in
            let fields = write.kind == .update ? " (\(write.written.joined(separator: ", ")))" : ""
            let each = write.byQuery ? " of each" : ""
            let undo: String
            if write.undone {
                undo = "undone"
            } else {
                switch write.kind {
                case .create: undo = "undo deletes it"
                case .update: undo = "undo restores \(write.written.joined(separator: ", "))\(each)"
                case .delete: undo = write.records.count > 1 ? "undo re-creates them" : "undo re-creates it"
                }
            }
            return "\(index + 1). \(write.summary)\(fields)  \(undo)"
        }.joined(separator: "\n")
    }

    /// `:undo`, `:undo N`, `:undo all`.
    func undo(_ argument: String) async -> ReplReply {
        let open = writes.indices.filter { !writes[$0].undone }
        guard let last = open.last else { return ReplReply(ReplReply.errorText("nothing to undo (:history lists the writes)", column: 0)) }
        if argument.isEmpty { return ReplReply(await undo(at: last)) }
        if argument == "all" {
            var lines: [String] = []
            for index in open.reversed() {
                let line = await undo(at: index)
                lines.append(line)
                if line.hasPrefix("error") { break }
            }
            return ReplReply(lines.joined(separator: "\n"))
        }
        guard let number = Int(argument), writes.indices.contains(number - 1) else {
            return .rejection(":undo takes nothing, a number from :history or all, not '\(argument)'", column: 0)
        }
        guard !writes[number - 1].undone else { return ReplReply(ReplReply.errorText("write \(number) is undone already", column: 0)) }
        return ReplReply(await undo(at: number - 1))
    }

    private func undo(at index: Int) async -> String {
        let write = writes[index]
        let what = "\(index + 1) (\(write.summary))"
        // Every record is looked at first: a write is taken back whole, or not at all.
        var currents: [NowRecord?] = []
        for record in write.records {
            let current: NowRecord?
            do {
                current = try await currentRecord(write.table, record.sysID)
            } catch {
                return ReplReply.errorText("not undone: \(what): \(masker("\(error)"))", column: 0)
            }
            let which = write.byQuery ? "\(write.table) \(record.sysID): " : ""
            if let refusal = write.undoRefusal(record, current: current) {
                return ReplReply.errorText("not undone: \(what): \(which)\(refusal)", column: 0)
            }
            currents.append(current)
        }
        var done = 0
        for (position, record) in write.records.enumerated() {
            do {
                let version = try await takeBack(write, record)
                done += 1
                // The write before it on the same record now expects the record as the undo left it.
                if let earlier = writes.indices.last(where: {
                    $0 < index && !writes[$0].undone && writes[$0].table == write.table
                        && writes[$0].records.contains { $0.sysID == record.sysID }
                }), let slot = writes[earlier].records.firstIndex(where: { $0.sysID == record.sysID }) {
                    writes[earlier].records[slot].version = version
                }
            } catch {
                // The records taken back leave the write; the others stay for another :undo.
                writes[index].records.removeFirst(position)
                let undone = position == 0 ? "" : "took back \(position) of its records, then "
                return ReplReply.errorText(
                    "not undone: \(what): \(undone)\(write.table) \(record.sysID): \(masker("\(error)"))", column: 0)
            }
        }
        writes[index].undone = true
        // Taken back, the write is no longer part of what the session did: :save leaves its step out.
        if let step = write.recordedStep { recorded[step].undone = true }
        return "undid \(what): \(write.undoDescription(count: done))"
    }

    /// Takes one record of `write` back; gives its version afterwards (nil once deleted).
    private func takeBack(_ write: SessionWrite, _ record: SessionWrite.Record) async throws -> SessionWrite.Version? {
        switch write.kind {
        case .create:
            try await service.deleteRecord(sysId: record.sysID, from: write.table)
            return nil
        case .update:
            var fields: [FieldName: FieldValue] = [:]
            for name in write.written { fields[name] = record.valueBefore(name) }
            _ = try await service.updateRecord(sysId: record.sysID, in: write.table, with: fields)
        case .delete:
            var fields: [FieldName: FieldValue] = ["sys_id": .string(record.sysID)]
            for name in record.before?.json.keys ?? [] where !name.hasPrefix("sys_") {
                fields[name] = record.valueBefore(name)
            }
            _ = try await service.createRecord(with: fields, in: write.table)
        }
        return try await currentRecord(write.table, record.sysID).flatMap { SessionWrite.Version($0) }
    }
}
