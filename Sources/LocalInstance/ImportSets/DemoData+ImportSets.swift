extension DemoData {
    /// The transform maps (`sys_transform_map`) and their field maps (`sys_transform_entry`), as ``TransformMap``
    /// declares them.
    static func seedImportSets(_ insert: Inserter) throws {
        for (index, map) in TransformMap.all.enumerated() {
            try insert.record(
                "sys_transform_map", map.name, created: date(Double(-2160 + index)),
                ["name": map.name, "source_table": map.sourceTable, "target_table": map.targetTable])
            for (position, entry) in map.fieldMap.enumerated() {
                try insert.record(
                    "sys_transform_entry", "\(map.name):\(entry.target)",
                    created: date(Double(-2160 + index) + Double(position) / 60),
                    [
                        "map": map.sysID, "source_field": entry.source, "target_field": entry.target,
                        "coalesce": entry.coalesce ? "true" : "false",
                    ])
            }
        }
    }
}
