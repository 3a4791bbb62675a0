import Foundation

extension NowRecord: Codable {
    /// Decodes a record from a JSON object, one field per key.
    ///
    /// The fields are decoded as a dictionary, whose keys `JSONDecoder` does not convert on this toolchain, so the
    /// names stay ServiceNow's (`short_description`) even under ``Coder/default``'s key strategy;
    /// ``Foundation/Data/convertToRecord()`` uses a decoder without a key strategy in any case.
    public init(from decoder: any Decoder) throws {
        try self.init(fields: decoder.singleValueContainer().decode([FieldName: Field].self))
    }

    /// Encodes the record as a JSON object, one field per key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(fields)
    }
}

extension NowRecord {
    /// The record of a Table API response: the object under `result`, or a bare object.
    ///
    /// For an array of records, this is the first one.
    ///
    /// - Throws: ``NowDataError/cannotParseResponse`` when the data is not JSON, holds no record, or a field is
    ///   neither a string nor a field object.
    public init(data: Data) throws(NowDataError) {
        switch try RecordsDocument.decode(data) {
        case .one(let record): self = record
        case .many(let records):
            guard let first = records.first else { throw .cannotParseResponse }
            self = first
        }
    }

    /// The records of a Table API response: the array under `result`, or a bare array; an object is one record.
    ///
    /// - Throws: ``NowDataError/cannotParseResponse`` when the data is not JSON or not records.
    public static func records(from data: Data) throws(NowDataError) -> [NowRecord] {
        switch try RecordsDocument.decode(data) {
        case .one(let record): [record]
        case .many(let records): records
        }
    }
}

/// A Table API response's records: `{"result": {...}}`, `{"result": [...]}`, or a bare object or array.
private enum RecordsDocument: Decodable {
    case one(NowRecord)
    case many([NowRecord])

    private enum EnvelopeKey: String, CodingKey {
        case result
    }

    /// A plain decoder: the field names stay ServiceNow's.
    private static let decoder = JSONDecoder()

    static func decode(_ data: Data) throws(NowDataError) -> RecordsDocument {
        do {
            return try decoder.decode(RecordsDocument.self, from: data)
        } catch {
            throw .cannotParseResponse
        }
    }

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: EnvelopeKey.self), object.contains(.result),
            (try? object.decode(String.self, forKey: .result)) == nil
        {
            self = try Self(records: object.superDecoder(forKey: .result))
        } else {
            self = try Self(records: decoder)
        }
    }

    private init(records decoder: any Decoder) throws {
        if (try? decoder.unkeyedContainer()) != nil {
            self = .many(try [NowRecord](from: decoder))
        } else {
            self = .one(try NowRecord(from: decoder))
        }
    }
}
