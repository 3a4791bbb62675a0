import Foundation
import NowData

/// The `change` step, through NowData's `NowChangeService` (the Change Management API).
extension JobExecution {
    /// Result: `sys_id`, `number`, `state` (its value, `-1`) and `record` (each field's value as text). A dry run
    /// reads the template or model, keeps each write (the create, the moves) and answers a stand-in sys_id.
    func perform(_ step: ChangeStep, label: String, scope: Scope) async throws(StepFailure) -> (StepResult, String) {
        let changes = NowChangeService(
            configuration: service.configuration, coreServiceProvider: service.coreServiceProvider)
        let fields = try fieldValues(step.fields, scope: scope)
        var record: NowRecord?
        let sysID: String
        var done: [String] = []
        switch step.target {
        case .template(let template):
            let name = try text(template, "change.template", scope: scope)
            let templateID = try await standardChangeTemplate(name, changes)
            let request = try prepared {
                try NowChangeService.createStandardChangeRequest(template: templateID, fields: fields)
            }
            (record, sysID) = try await write(request, label: label) {
                try await changes.createStandardChange(template: templateID, fields: fields)
            }
            done.append("created from the template '\(name)'")
        case .model(let model):
            let name = try text(model, "change.model", scope: scope)
            let request = NowChangeService.createChangeRequest(model: name, fields: fields)
            (record, sysID) = try await write(request, label: label) {
                try await changes.createChange(model: name, fields: fields)
            }
            done.append("created with the \(name) model")
        case .sysID(let template):
            let given = try text(template, "change.sys_id", scope: scope)
            guard !given.isEmpty else { throw StepFailure("change.sys_id is empty") }
            sysID = given
            if !fields.isEmpty {
                let request = try prepared { try NowChangeService.updateChangeRequest(sysId: given, fields: fields) }
                (record, _) = try await write(request, label: label) {
                    try await changes.updateChange(sysId: given, fields: fields)
                }
                done.append("updated")
            }
        }
        for state in step.states {
            let moved: [FieldName: FieldValue] = ["state": .string(state)]
            let request = try prepared { try NowChangeService.updateChangeRequest(sysId: sysID, fields: moved) }
            (record, _) = try await write(request, label: label) {
                try await changes.updateChange(sysId: sysID, fields: moved)
            }
            done.append("moved to \(state)")
        }
        let values = JSONObject((record?.json ?? [:]).map { name, _ in (name, JSONValue.string(record?[name] ?? "")) })
        let number = record?["number"] ?? ""
        let result: JSONValue = [
            "sys_id": .string(sysID), "number": .string(number),
            "state": .string(record.map { $0["state"] ?? "" } ?? step.states.last.map(ChangeStep.stateValue(named:)) ?? ""),
            "record": .object(values),
        ]
        let change = number.isEmpty ? "change \(sysID)" : number
        return (.value(result), "\(change): " + done.joined(separator: ", ") + (dryRun == nil ? "" : " (dry run)"))
    }

    /// The sys_id of the standard change template `name` (a sys_id is taken as it is).
    private func standardChangeTemplate(_ name: String, _ changes: NowChangeService) async throws(StepFailure)
        -> String
    {
        if name.isSysID { return name }
        let found = try await calling { try await changes.standardChangeTemplates(query: "name=\(name)") }
        guard let template = found.first else {
            throw StepFailure("change.template: no standard change template is named '\(name)'")
        }
        return template.sysId ?? ""
    }

    /// A request NowData prepares, its error as the step's failure.
    private func prepared(_ make: () throws -> NowHTTPRequest) throws(StepFailure) -> NowHTTPRequest {
        do {
            return try make()
        } catch {
            throw StepFailure("change: \(error)")
        }
    }

    /// A write of the Change Management API: sent by `send`, or in a dry run kept as `request` and answered with a
    /// stand-in sys_id. The changed record (nil in a dry run) and its sys_id.
    private func write(
        _ request: NowHTTPRequest, label: String, _ send: () async throws -> NowRecord
    ) async throws(StepFailure) -> (NowRecord?, String) {
        if let dryRun {
            let write = PlannedWrite(step: label, request: request, before: nil, masker: masker)
            planned.append(write)
            return (nil, request.method == "POST" ? dryRun.nextStandInSysID() : "")
        }
        let record = try await calling { try await send() }
        return (record, record.sysId ?? "")
    }
}
