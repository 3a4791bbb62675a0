extension TableDictionary {
    /// `sys_attachment`: the metadata of the files attached to records (the Attachment API's records). The bytes
    /// are kept outside the rows, by ``AttachmentContent``.
    static let sysAttachment = TableDefinition(
        name: "sys_attachment", label: "Attachment", application: "System Definition", displayField: "file_name",
        fields: [
            FieldDefinition("file_name"),
            FieldDefinition("content_type"),
            FieldDefinition("size_bytes", .integer, label: "Size bytes"),
            FieldDefinition("size_compressed", .integer, label: "Compressed size"),
            FieldDefinition("compressed", .boolean, defaultValue: "false"),
            FieldDefinition("hash"),
            FieldDefinition("table_name"),
            FieldDefinition("table_sys_id", label: "Table sys ID"),
            FieldDefinition("encryption_context"),
            FieldDefinition("state"),
            FieldDefinition("chunk_size_bytes"),
            FieldDefinition("average_image_color"),
            FieldDefinition("image_width", .integer),
            FieldDefinition("image_height", .integer),
        ],
        rules: TableRules(recordTableField: "table_name"))
}
