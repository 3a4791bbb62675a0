extension DemoData {
    /// The standard change templates (`std_change_record_producer`), one per version of
    /// ``standardChangeTemplates``, each published at that version; and the change schedules: a blackout schedule
    /// for every configuration item over the year's end, and a maintenance schedule for the mail server on
    /// Saturday nights.
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
        for (index, schedule) in changeSchedules.enumerated() {
            try insert.record(
                "cmn_schedule_\(schedule.type)", schedule.name, created: date(Double(-2160 + index)),
                [
                    "name": schedule.name, "description": schedule.description, "type": schedule.type,
                    "time_zone": "UTC", "applies_to": "cmdb_ci", "condition": schedule.condition,
                ])
            try insert.record(
                "cmn_schedule_span", schedule.name, created: date(Double(-2160 + index)),
                [
                    "name": schedule.name, "schedule": sysID("cmn_schedule_\(schedule.type)", schedule.name),
                    "start_date_time": schedule.start, "end_date_time": schedule.end, "repeat_type": schedule.repeats,
                ])
        }
    }

    /// The blackout and maintenance schedules, each with one entry (UTC).
    static let changeSchedules:
        [(
            name: String, type: String, description: String, condition: String, start: String, end: String,
            repeats: String
        )] = [
            (
                "Year-end change freeze", "blackout", "No changes over the year's end", "", "2026-12-21 00:00:00",
                "2027-01-04 00:00:00", ""
            ),
            (
                "Mail server maintenance", "maintenance", "Changes to the mail server on Saturday nights",
                "name=mail-01", "2026-01-03 22:00:00", "2026-01-04 04:00:00", "weekly"
            ),
        ]
}
