import Foundation
import NowData

/// What a Ctrl-C during a write leaves: a create whose request may have reached the instance is reported with the
/// sys_id chosen for it, kept as a possibly written result, and settled by a get of that sys_id before the next line
/// (again at each line while the instance does not answer).
extension ReplSession {
    /// Keeps the possibly written result of an interrupted create and says so.
    func interrupted(create touched: TouchedRecord, id: String, kind: StepKind, node: YAMLNode?) -> String {
        let result: JSONValue = .object([
            "sys_id": .string(touched.sysID), "table": .string(touched.table), "possibly_written": true,
        ])
        scope.steps[id] = result
        scope.steps["_"] = result
        kinds[id] = kind
        kinds["_"] = kind
        unsettled.append(InterruptedCreate(id: id, table: touched.table, sysID: touched.sysID, node: node))
        return """
            cancelled: \(id) (create) was interrupted (Ctrl-C); the create may have gone through: \(touched.table) \
            sys_id \(touched.sysID); steps.\(id) keeps it as possibly written, and the next line looks it up
            """
    }

    /// Looks up the interrupted creates; what was found, or nil when none was waiting.
    var settled: String? {
        get async {
            guard !unsettled.isEmpty else { return nil }
            var lines: [String] = []
            var waiting: [InterruptedCreate] = []
            for create in unsettled {
                guard !Task.isCancelled else {
                    waiting.append(create)
                    continue
                }
                lines.append(await settle(create, waiting: &waiting))
            }
            unsettled = waiting
            return lines.isEmpty ? nil : lines.joined(separator: "\n")
        }
    }

    private func settle(_ create: InterruptedCreate, waiting: inout [InterruptedCreate]) async -> String {
        let what = "the interrupted create \(create.id)"
        do {
            let data = try await service.record(with: create.sysID, from: create.table)
            let found = try JobExecution.result(data)
            let result: JSONValue = .object(["record": found, "sys_id": .string(create.sysID)])
            if scope.steps[create.id]?["possibly_written"] != nil { scope.steps[create.id] = result }
            if scope.steps["_"]?["possibly_written"] != nil { scope.steps["_"] = result }
            if let node = create.node { record(node, id: create.id, jobStep: nil) }
            writes.append(SessionWrite(
                stepID: create.id, kind: .create, table: create.table, sysID: create.sysID, written: [],
                version: SessionWrite.Version(found)))
            return "\(what) went through: \(create.table) \(create.sysID) exists (steps.\(create.id) is its record)"
        } catch let error as NowDataError where error.statusCode == 404 {
            if scope.steps[create.id]?["possibly_written"] != nil { scope.steps[create.id] = nil }
            if scope.steps["_"]?["possibly_written"] != nil { scope.steps["_"] = nil }
            return "\(what) did not go through: \(create.table) has no record \(create.sysID) (steps.\(create.id) is gone)"
        } catch {
            waiting.append(create)
            return "\(what) is not settled yet (\(masker("\(error)"))); the next line looks again"
        }
    }
}
