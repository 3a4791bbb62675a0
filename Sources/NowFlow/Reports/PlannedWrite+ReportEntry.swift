import Foundation
import NowData

extension PlannedWrite {
    /// The planned write of a JSON report's entry (already masked when it was written).
    init(reportEntry write: ReportValue) throws(ReportMergeError) {
        step = try write.text("step")
        method = try write.text("method")
        path = try write.text("path")
        queryItems = []
        for item in try write.elements("query") {
            queryItems.append(URLQueryItem(name: try item.text("name"), value: try item.optionalText("value")))
        }
        let members = write.json.object ?? JSONObject()
        body = members["body"]
        content = members["content"]?.string
        record = nil
        if members["records"] != nil, let changed = try write.elements("records").first {
            var fields: [PlannedRecord.FieldChange] = []
            for (name, change) in try changed.object("fields") {
                fields.append(PlannedRecord.FieldChange(name: name, from: change["from"] ?? .null, to: change["to"] ?? .null))
            }
            record = PlannedRecord(
                reportEntry: try changed.text("sys_id"), display: try changed.text("display"), fields: fields)
        }
    }
}

extension PlannedRecord {
    /// The record of a planned write of a JSON report's entry, as it was written.
    fileprivate init(reportEntry sysID: String, display: String, fields: [FieldChange]) {
        self.sysID = sysID
        self.display = display
        self.fields = fields
    }
}
