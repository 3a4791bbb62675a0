import Foundation
import NowData

/// A job's entry of the JSON report (``RunReport``).
extension RunResult {
    /// The job's entry of the JSON report (``RunReport/jsonValue``): `job`, `file`, `instance`, `status`, `dry_run`,
    /// `duration_ms`, `steps` (every step, those that did not run too), `results`, `vars`, `records`,
    /// `planned_writes`, `outputs`, `ensured`, `error`, `error_location`, `warnings`, `diagnostics` and `shard` (`{"index", "count"}` under `--shard`, else null), all
    /// present; and `unlisted` (``UnlistedOutcomes/jsonValue``) only when a foreach counted items instead of
    /// listing them.
    public var jsonValue: JSONValue {
        var members: JSONObject = [
            "job": .string(job), "file": .string(file), "instance": .string(instance), "status": .string(status.rawValue),
            "dry_run": .bool(dryRun), "duration_ms": .number(JSONNumber(milliseconds)), "steps": .array(steps.map(Self.json)),
            "results": .object(JSONObject(results.map { ($0.key, $0.value) })),
            "vars": .object(JSONObject(vars.map { ($0.key, $0.value) })), "records": .array(records.map(json)),
            "planned_writes": .array(plannedWrites.map(Self.json)), "outputs": .object(outputs),
            "ensured": .object(JSONObject(ensured.sorted { $0.key < $1.key }.map { ($0.key, .number(JSONNumber($0.value))) })),
            "error": error.map(JSONValue.string) ?? .null, "error_location": errorLocation.map(JSONValue.string) ?? .null,
            "warnings": .array(warnings.map(JSONValue.string)), "diagnostics": .array(diagnostics.map(Self.json)),
            "shard": shard.map { ["index": .number(JSONNumber($0.index)), "count": .number(JSONNumber($0.count))] } ?? .null,
        ]
        if !unlisted.isEmpty { members["unlisted"] = unlisted.jsonValue }
        return .object(members)
    }

    /// `{"file", "line", "column", "severity", "message"}`: line and column 0 for a problem of the whole file.
    private static func json(_ diagnostic: Diagnostic) -> JSONValue {
        [
            "file": .string(diagnostic.file), "line": .number(JSONNumber(diagnostic.line)),
            "column": .number(JSONNumber(diagnostic.column)), "severity": .string(diagnostic.isWarning ? "warning" : "error"),
            "message": .string(diagnostic.message),
        ]
    }

    private static func json(_ step: StepOutcome) -> JSONValue {
        [
            "number": .string(step.number), "id": step.id.map(JSONValue.string) ?? .null, "name": .string(step.reportName),
            "kind": .string(step.kind), "file": .string(step.file), "line": .number(JSONNumber(step.line)),
            "status": .string(step.status.rawValue), "continued": .bool(step.continued),
            "duration_ms": .number(JSONNumber(step.milliseconds)), "message": .string(step.message),
        ]
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
