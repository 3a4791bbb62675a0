/// A transform map (`sys_transform_map`): how a row of an import set table (the staging table) becomes a record of
/// its target table. Each field map entry copies a staging field to a target field; the coalesce entries find the
/// target record a row updates (one whose coalesce fields hold the row's values), and without them, or when no
/// record matches, the row inserts one. Declared beside the import set tables; the Import Set API transforms
/// through it (``ImportSetAPIHandler``) and the demo data holds it as `sys_transform_map` and
/// `sys_transform_entry` records.
///
/// Values are written as display values (`sysparm_input_display_value`), as the platform's transforms do: a
/// reference takes a record's display value (a user's name), a choice its label or value.
struct TransformMap: Sendable {
    let name: String
    /// The import set table whose rows it transforms.
    let sourceTable: String
    let targetTable: String
    let fieldMap: [Entry]

    /// One field map entry (`sys_transform_entry`).
    struct Entry: Sendable {
        let source: String
        let target: String
        /// Whether the entry finds the record to update.
        let coalesce: Bool

        init(_ source: String, _ target: String, coalesce: Bool = false) {
            self.source = source
            self.target = target
            self.coalesce = coalesce
        }
    }

    /// The sys_id of the map's `sys_transform_map` record.
    var sysID: String { DemoData.sysID("sys_transform_map", name) }

    /// The maps of the demo data.
    static let all = [incidentImport, serverImport]

    /// `u_incident_import` → `incident`, coalescing on the caller's correlation id (an alert's id in a monitoring
    /// tool, as Kibana's connector sends it).
    static let incidentImport = TransformMap(
        name: "Incident import", sourceTable: "u_incident_import", targetTable: "incident",
        fieldMap: [
            Entry("u_correlation_id", "correlation_id", coalesce: true),
            Entry("u_short_description", "short_description"), Entry("u_description", "description"),
            Entry("u_caller", "caller_id"), Entry("u_category", "category"), Entry("u_impact", "impact"),
            Entry("u_urgency", "urgency"), Entry("u_assignment_group", "assignment_group"),
        ])

    /// `u_cmdb_ci_server_import` → `cmdb_ci_server`, coalescing on the server's name.
    static let serverImport = TransformMap(
        name: "Server import", sourceTable: "u_cmdb_ci_server_import", targetTable: "cmdb_ci_server",
        fieldMap: [
            Entry("u_name", "name", coalesce: true), Entry("u_serial_number", "serial_number"),
            Entry("u_ip_address", "ip_address"), Entry("u_os", "os"), Entry("u_os_version", "os_version"),
            Entry("u_cpu_count", "cpu_count"), Entry("u_ram", "ram"), Entry("u_classification", "classification"),
            Entry("u_short_description", "short_description"),
        ])
}
