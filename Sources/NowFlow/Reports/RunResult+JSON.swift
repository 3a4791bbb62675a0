import Foundation
import NowData

/// The JSON report, for `--output json` and `--report json:PATH`.
extension RunResult {
    /// The result as JSON text, indented, keys sorted: `job`, `file`, `status`, `dry_run`, `duration_ms`, `steps`,
    /// `results`, `vars`, `records`, `planned_writes`, `outputs`, `error` (when the run failed) and `ensured` (when
    /// an ensure step ran).
    public func jsonText() -> String {
        jsonValue.sortingKeys().jsonText(pretty: true)
    }

    /// Several runs (`nowflow run a.yaml b.yaml`) as JSON text: `{"jobs": [...], "status": ...}`, each job's
    /// report as ``jsonText()`` writes it, and the status of the first job that did not pass (else `passed`).
    public static func jsonText(of results: [RunResult]) -> String {
        let status = results.first { $0.status != .passed }?.status ?? .passed
        let report: JSONValue = ["jobs": .array(results.map(\.jsonValue)), "status": .string(status.rawValue)]
        return report.sortingKeys().jsonText(pretty: true)
    }

    /// The result as a JSON value.
    public var jsonValue: JSONValue {
        var report: JSONObject = [
            "job": .string(job), "file": .string(file), "status": .string(status.rawValue), "dry_run": .bool(dryRun),
            "duration_ms": .number(JSONNumber(milliseconds)), "steps": .array(steps.map(Self.json)),
            "results": .object(JSONObject(results.map { ($0.key, $0.value) })),
            "vars": .object(JSONObject(vars.map { ($0.key, $0.value) })), "records": .array(records.map(json)),
            "planned_writes": .array(plannedWrites.map(Self.json)), "outputs": .object(outputs),
        ]
        report["error"] = error.map(JSONValue.string)
        report["error_location"] = errorLocation.map(JSONValue.string)
        if !warnings.isEmpty { report["warnings"] = .array(warnings.map(JSONValue.string)) }
        if !ensured.isEmpty {
            report["ensured"] = .object(JSONObject(ensured.sorted { $0.key < $1.key }.map { ($0.key, .number(JSONNumber($0.value))) }))
        }
        return .object(report)
    }

    private static func json(_ step: StepOutcome) -> JSONValue {
        var members: JSONObject = [
            "number": .string(step.number), "kind": .string(step.kind), "status": .string(step.status.rawValue),
            "continued": .bool(step.continued), "duration_ms": .number(JSONNumber(step.milliseconds)),
            "message": .string(step.message),
        ]
        members["id"] = step.id.map(JSONValue.string)
        return .object(members)
    }

    private func json(_ record: TouchedRecord) -> JSONValue {
        var members: JSONObject = [
            "action": .string(record.action.rawValue), "table": .string(record.table), "sys_id": .string(record.sysID),
            "step": .string(record.step),
        ]
        members["number"] = recordNumbers[record.sysID].map(JSONValue.string)
        return .object(members)
    }

    /// `{"step", "method", "path", "query": [{"name", "value"}], "body", "records"}`; a delete has no `body`, an
    /// attachment upload a `content` instead (its size, type and hash), a create no `records` (the record an update or delete touches: `sys_id`, `display` and, for an update,
    /// `fields` with each changed field's `from` and `to`).
    private static func json(_ write: PlannedWrite) -> JSONValue {
        var members: JSONObject = [
            "step": .string(write.step), "method": .string(write.method), "path": .string(write.path),
            "query": .array(
                write.queryItems.map { ["name": .string($0.name), "value": $0.value.map(JSONValue.string) ?? .null] }),
        ]
        members["body"] = write.body
        members["content"] = write.content.map(JSONValue.string)
        members["records"] = write.record.map { record in
            [
                [
                    "sys_id": .string(record.sysID), "display": .string(record.display),
                    "fields": .object(
                        JSONObject(record.fields.map { ($0.name, ["from": $0.from, "to": $0.to] as JSONValue) })),
                ]
            ]
        }
        return .object(members)
    }
}
