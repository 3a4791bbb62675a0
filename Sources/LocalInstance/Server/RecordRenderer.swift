import Foundation

/// Renders stored records as the Table API returns them: every value a string, references in their three
/// shapes, display values, dot-walked keys.
struct RecordRenderer {
    var fields: [OutputField]
    var displayValue: TableParameters.DisplayValue
    var excludeReferenceLink: Bool
    /// `http://host:port`, for reference links.
    var baseURL: String
    var resolver: ReferenceResolver

    /// `{"result":{...}}` for one record.
    func body(_ record: StoredRecord) throws -> Data {
        var writer = JSONWriter(capacity: 2048)
        writer.raw("{\"result\":")
        try write(record, to: &writer)
        writer.raw("}")
        return writer.data
    }

    /// `{"result":[...]}` for a list of records.
    func body(_ records: [StoredRecord]) throws -> Data {
        var writer = JSONWriter(capacity: 64 + records.count * 1536)
        writer.raw("{\"result\":[")
        for (index, record) in records.enumerated() {
            if index > 0 { writer.raw(",") }
            try write(record, to: &writer)
        }
        writer.raw("]}")
        return writer.data
    }

    private func write(_ record: StoredRecord, to writer: inout JSONWriter) throws {
        writer.raw("{")
        for (index, output) in fields.enumerated() {
            if index > 0 { writer.raw(",") }
            var current: StoredRecord? = record
            for hop in output.hops {
                guard case .reference(let target) = hop.type, let sysID = current?[hop.name], !sysID.isEmpty else {
                    current = nil
                    break
                }
                current = try resolver.record(target, sysID)
            }
            writer.key(output.key)
            try write(output.field, current?[output.field.name] ?? "", to: &writer)
        }
        writer.raw("}")
    }

    private func write(_ field: FieldDefinition, _ value: String, to writer: inout JSONWriter) throws {
        var link: String?
        if case .reference(let target) = field.type, !value.isEmpty, !excludeReferenceLink {
            link = "\(baseURL)/api/now/table/\(target)/\(value)"
        }
        switch displayValue {
        case .value:
            guard let link else { return writer.string(value) }
            writer.raw("{\"link\":")
            writer.string(link)
            writer.raw(",\"value\":")
            writer.string(value)
            writer.raw("}")
        case .display:
            let display = try resolver.displayValue(field, value)
            guard let link else { return writer.string(display) }
            writer.raw("{\"display_value\":")
            writer.string(display)
            writer.raw(",\"link\":")
            writer.string(link)
            writer.raw("}")
        case .all:
            writer.raw("{\"display_value\":")
            writer.string(try resolver.displayValue(field, value))
            writer.raw(",\"value\":")
            writer.string(value)
            if let link {
                writer.raw(",\"link\":")
                writer.string(link)
            }
            writer.raw("}")
        }
    }
}
