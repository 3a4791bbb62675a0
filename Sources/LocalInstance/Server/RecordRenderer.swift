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
        var first = true
        for output in fields {
            if !first { writer.raw(",") }
            first = false
            writer.key(output.key)
            guard output.hops.isEmpty else {
                var current: StoredRecord? = record
                for hop in output.hops {
                    guard case .reference(let target) = hop.type, let sysID = current?[hop.name], !sysID.isEmpty
                    else {
                        current = nil
                        break
                    }
                    current = try resolver.record(target, sysID)
                }
                try write(output, current?[output.name] ?? "", to: &writer)
                continue
            }
            try write(output, record[output.name] ?? "", to: &writer)
        }
        writer.raw("}")
    }

    private func write(_ output: OutputField, _ value: String, to writer: inout JSONWriter) throws {
        var link: String?
        if let path = output.linkPath, !value.isEmpty, !excludeReferenceLink {
            link = baseURL + path + value
        }
        if displayValue == .value, link == nil { return writer.string(value) }
        let field = output.field
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
