import Foundation

/// Fills the instance's `incident` table with generated records in one transaction, straight into SQLite
/// (posting 100,000 records one by one would take longer than the benchmark).
///
/// Priorities cycle 1-5, seven in ten are active, creation times are one minute apart.
enum IncidentSeeder {
    /// Inserts `count` incidents; returns their sys_ids.
    static func seed(_ count: Int, into database: RawDatabase) throws -> [String] {
        let existing = try database.prepare(#"PRAGMA table_info("incident")"#)
        let columns = Set(existing.column(1))
        existing.finalize()
        let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01 00:00:00 UTC
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        let row: (Int) -> [String: Any] = { index in
            let created = formatter.string(from: start.addingTimeInterval(Double(index) * 60))
            let active = index % 10 < 7
            return [
                "sys_id": sysID(index), "number": String(format: "INC%07d", 100_001 + index),
                "short_description": "Benchmark incident \(index)", "description": "Generated for the benchmark",
                "active": active ? 1 : 0, "priority": index % 5 + 1, "impact": index % 3 + 1,
                "urgency": (index / 3) % 3 + 1, "state": active ? index % 3 + 1 : 7, "category": "software",
                "opened_at": created, "sys_created_on": created, "sys_updated_on": created,
                "sys_created_by": "admin", "sys_updated_by": "admin", "sys_mod_count": 0, "sys_class_name": "incident",
            ]
        }
        let names = row(0).keys.filter(columns.contains).sorted()
        let sql = "INSERT INTO \"incident\" (\(names.map { "\"\($0)\"" }.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
        try database.execute("BEGIN")
        let insert = try database.prepare(sql)
        var sysIDs: [String] = []
        for index in 0..<count {
            let values = row(index)
            insert.bind(names.map { values[$0] })
            try insert.readAll()
            sysIDs.append(sysID(index))
        }
        insert.finalize()
        try database.execute("COMMIT")
        return sysIDs
    }

    /// A stable 32-hex-digit sys_id for record `index`.
    static func sysID(_ index: Int) -> String {
        let hex = String(index, radix: 16)
        return "be" + String(repeating: "0", count: 30 - hex.count) + hex
    }
}
