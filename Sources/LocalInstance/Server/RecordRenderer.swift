import NowData
import Foundation

/// Renders stored records as the Table API returns them: every value a string, references in their three
/// shapes, display values, dot-walked keys.
struct RecordRenderer {
    var fields: [OutputField]
    var displayValue: DisplayValueMode
    var excludeReferenceLink: Bool
    /// The base of reference links: `http://host:port/api/now/`, with the request's version when it named one
    /// (`.../api/now/v2/`), as the platform's links follow the path a client asked by.
    var linkBase: String
    var resolver: ReferenceResolver

    /// `{"result":{...}}` for one record.
    func body(_ record: StoredRecord) throws -> Data {
        try body(RecordRows(record), row: 0)
    }

    /// `{"result":{...}}` for `row` of `rows`.
    func body(_ rows: RecordRows, row: Int) throws -> Data {
        var writer = JSONWriter(capacity: 2048)
        writer.raw("{\"result\":")
        try write(rows, row, columns(in: rows.layout), to: &writer)
        writer.raw("}")
        return writer.data
    }

    /// `{"result":[...]}` for a list of records.
    func body(_ rows: RecordRows) throws -> Data {
        var writer = JSONWriter(capacity: 64 + rows.count * 1536)
        writer.raw("{\"result\":[")
        let columns = columns(in: rows.layout)
        for row in 0..<rows.count {
            if row > 0 { writer.raw(",") }
            try write(rows, row, columns, to: &writer)
        }
        writer.raw("]}")
        return writer.data
    }

    /// The column each output field is read from: its own, or that of its first hop; nil when the rows do not
    /// have it.
    private func columns(in layout: ColumnLayout) -> [Int?] {
        layout.columns(of: fields.map(\.source))
    }

    private func write(_ rows: RecordRows, _ row: Int, _ columns: [Int?], to writer: inout JSONWriter) throws {
        writer.raw("{")
        for (index, output) in fields.enumerated() {
            if index > 0 { writer.raw(UInt8(ascii: ",")) }
            writer.raw(output.encodedKey)
            let value = columns[index].map { rows.value(row, column: $0) }
            guard output.hops.isEmpty else {
                var sysID = value
                var current: StoredRecord?
                for (position, hop) in output.hops.enumerated() {
                    if position > 0 { sysID = current?[hop.name] }
                    guard case .reference(let target) = hop.type, let sysID, !sysID.isEmpty else {
                        current = nil
                        break
                    }
                    current = try resolver.record(target, sysID)
                }
                try write(output, current?[output.field.name] ?? "", to: &writer)
                continue
            }
            try write(output, value ?? "", to: &writer)
        }
        writer.raw("}")
    }

    /// What a password field is answered as when it is set, as on the platform.
    static let maskedPassword = "********"

    private func write(_ output: OutputField, _ stored: String, to writer: inout JSONWriter) throws {
        let value = output.field.isPassword && !stored.isEmpty ? Self.maskedPassword : stored
        var link: String?
        if let path = output.linkPath, !value.isEmpty, !excludeReferenceLink {
            link = linkBase + path + value
        }
        switch displayValue {
        case .actual:
            guard let link else { return writer.string(value) }
            writer.raw("{\"link\":")
            writer.string(link)
            writer.raw(",\"value\":")
            writer.string(value)
            writer.raw("}")
        case .display:
            let display = try resolver.displayValue(output.field, value)
            guard let link else { return writer.string(display) }
            writer.raw("{\"display_value\":")
            writer.string(display)
            writer.raw(",\"link\":")
            writer.string(link)
            writer.raw("}")
        case .all:
            writer.raw("{\"display_value\":")
            writer.string(try resolver.displayValue(output.field, value))
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
