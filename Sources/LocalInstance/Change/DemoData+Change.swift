extension DemoData {
    /// The standard change templates (`std_change_record_producer`), one per version of
    /// ``standardChangeTemplates``, each published at that version.
    static func seedChange(_ insert: Inserter) throws {
        for (index, template) in standardChangeTemplates.enumerated() {
            try insert.record(
                "std_change_record_producer", template.name, created: date(Double(-2170 + index)),
                [
                    "name": template.name, "short_description": template.name, "description": template.description,
                    "category": "Standard Changes",
                    "current_version": sysID("std_change_producer_version", template.name),
                ])
        }
    }
}
