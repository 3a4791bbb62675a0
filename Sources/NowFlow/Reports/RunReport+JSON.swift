import NowData

/// The JSON report, for `--output json` and `--report json:PATH`: its shape is `docs/report.schema.json`.
extension RunReport {
    /// `{"schema_version", "nowflow_version", "status", "jobs": [...]}`, one entry per job file (``RunResult/jsonValue``),
    /// indented, keys sorted.
    public func jsonText() -> String {
        jsonValue.sortingKeys().jsonText(pretty: true)
    }

    /// The report as a JSON value.
    public var jsonValue: JSONValue {
        [
            "schema_version": .number(JSONNumber(Self.schemaVersion)), "nowflow_version": .string(nowflowVersion),
            "status": .string(status.rawValue), "jobs": .array(results.map(\.jsonValue)),
        ]
    }
}
