extension TableDictionary {
    /// `sys_audit`: the field-level history of records, as a PDI keeps it (``AuditLog`` writes it): one record per
    /// field a creation set or an update changed, and one per deletion (`fieldname`, `oldvalue` and `newvalue`
    /// `DELETED`, `record_checkpoint` -1). A record is read by those who may read its `tablename`; no one writes one.
    static let sysAudit = TableDefinition(
        name: "sys_audit", label: "Audit", application: "System Logs", displayField: "documentkey",
        fields: [
            FieldDefinition("tablename", label: "Table name"),
            FieldDefinition("documentkey", label: "Document key"),
            FieldDefinition("fieldname", label: "Field name"),
            FieldDefinition("oldvalue", label: "Old value"),
            FieldDefinition("newvalue", label: "New value"),
            FieldDefinition("user"),
            FieldDefinition("reason"),
            FieldDefinition("record_checkpoint", .integer, label: "Record checkpoint"),
            FieldDefinition("internal_checkpoint", label: "Internal checkpoint"),
        ],
        rules: TableRules(recordTableField: "tablename"))
}
