import Foundation

extension NowRecord: Codable {
    /// Decodes a record from a JSON object: its members as sent, its field objects checked.
    ///
    /// The object is read as a ``JSONValue``, whose keys no key strategy converts, so the names stay ServiceNow's
    /// (`short_description`) under any coder.
    ///
    /// - Throws: `typeMismatch` when the value is not an object or a field object's member is not a field's,
    ///   `dataCorrupted` when the object holds only metadata (``NowRecords/Skipped/Reason``).
    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer().decode(JSONValue.self)
        do {
            try self.init(reading: value)
        } catch {
            throw error.reason.decodingError(at: decoder.codingPath)
        }
    }

    /// Encodes the record as its JSON object, nested values included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(JSONValue.object(json))
    }
}

extension NowRecord {
    /// The record of a Table API response: the object under `result`, or a bare object.
    ///
    /// For an array of records, this is the first element, which must be a record.
    ///
    /// - Throws: ``NowDataError/cannotParseResponse`` when the data is not JSON or holds no object or array (or
    ///   an empty array); ``NowDataError/cannotDecodeModel(_:)`` when the object is not a record, naming where
    ///   and why: `cannot decode model at result.caller_id.link: expected a string or null, found a number`.
    public init(data: Data) throws(NowDataError) {
        let (value, codingPath) = try RecordsDocument.records(in: data)
        guard case .array(let elements) = value else {
            try self.init(value, codingPath: codingPath)
            return
        }
        guard let first = elements.first else { throw .cannotParseResponse }
        try self.init(first, codingPath: codingPath + [RecordKey.index(0)])
    }

    /// The records of a Table API response: the array under `result`, or a bare array; an object is one record.
    ///
    /// Every element must be a record; ``NowRecords/init(data:)`` reads the ones that are and sets the others
    /// aside (the Change Management API ends its lists with a `{"__meta": {...}}` element).
    ///
    /// - Throws: ``NowDataError/cannotParseResponse`` when the data is not JSON or not records;
    ///   ``NowDataError/cannotDecodeModel(_:)`` for the first element that is not a record, naming its index and,
    ///   for a malformed field, the field: `cannot decode model at result[3]: not a record: it holds only metadata
    ///   ('__meta')`, `cannot decode model at result[0].caller_id.link: expected a string or null, found a number`.
    public static func records(from data: Data) throws(NowDataError) -> [NowRecord] {
        let records = try NowRecords(data: data)
        if let skipped = records.skipped.first { throw skipped.error }
        return records.records
    }

    /// The record a JSON object holds, such as the CMDB Instance API's nested `attributes`.
    ///
    /// ```swift
    /// let ci = try NowRecord(record.value(at: "attributes"))
    /// let manager = ci.displayValue("managed_by")   // "Lynda Caraway"
    /// ```
    ///
    /// - Throws: ``NowDataError/cannotDecodeModel(_:)`` when `value` is not a record.
    public init(_ value: JSONValue) throws(NowDataError) {
        try self.init(value, codingPath: [])
    }

    /// The record `value` holds, or the error at `codingPath`.
    init(_ value: JSONValue, codingPath: [any CodingKey]) throws(NowDataError) {
        do {
            try self.init(reading: value)
        } catch {
            throw .cannotDecodeModel(error.reason.decodingError(at: codingPath))
        }
    }

    /// Reads a record: an object, not made of metadata alone, whose field objects are well formed.
    init(reading value: JSONValue) throws(NotARecord) {
        guard case .object(let object) = value else {
            throw NotARecord(reason: .notAnObject(found: value.kindDescription))
        }
        if !object.isEmpty, object.keys.allSatisfy({ $0.hasPrefix("__") }) {
            throw NotARecord(reason: .metadata(keys: object.keys))
        }
        // The members are checked unordered (no look-up of each name); the first malformed one in order is named.
        let malformed = object.dictionary.values.contains { member in
            guard case .object = member else { return false }
            do {
                _ = try Field.parts(ofMember: member)
                return false
            } catch {
                return true
            }
        }
        if malformed {
            for (name, member) in object {
                do {
                    _ = try Field.parts(ofMember: member)
                } catch {
                    throw NotARecord(reason: .malformedField(name, member: error.member, found: error.found))
                }
            }
        }
        self.init(json: object)
    }

    /// Why a JSON value is not a record.
    struct NotARecord: Error {
        var reason: NowRecords.Skipped.Reason
    }
}
