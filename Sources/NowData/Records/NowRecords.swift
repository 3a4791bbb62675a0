import Foundation

/// The records of a response, and the elements of its array that are not records, each with the reason.
///
/// Where ``NowRecord/records(from:)`` throws for the first element that is not a record, this reads every element
/// that is one and keeps the others aside: the Change Management API (`/api/sn_chg_rest/change`) ends its list
/// with `{"__meta": {...}}`, which is skipped as ``Skipped/Reason/metadata(keys:)``.
/// ``Foundation/Data/convertToRecords()`` gives the ``records`` of this reading.
///
/// ```swift
/// let page = try NowRecords(data: data)
/// for change in page.records { print(change["number"] ?? "") }
/// for element in page.skipped {
///     if case .metadata = element.reason { continue }
///     print(element)  // result[2].caller_id.link: expected a string or null, found a number
/// }
/// ```
public struct NowRecords: Sendable, Equatable {
    /// The records, in the response's order.
    public var records: [NowRecord]
    /// The elements that are not records, in the response's order.
    public var skipped: [Skipped]

    /// The records of a response: the array under `result`, or a bare array; an object (under `result` or bare)
    /// is one record.
    ///
    /// - Throws: ``NowDataError/cannotParseResponse`` when the data is not JSON or holds no object or array, and
    ///   ``NowDataError/cannotDecodeModel(_:)`` when the response's one object is not a record.
    public init(data: Data) throws(NowDataError) {
        let (value, codingPath) = try RecordsDocument.records(in: data)
        try self.init(value, codingPath: codingPath)
    }

    /// The records of a JSON array (every element that is one), or of an object (one record), such as a record's
    /// nested `outbound_relations`.
    ///
    /// - Throws: ``NowDataError/cannotDecodeModel(_:)`` when `value` is neither, or is an object that is not a
    ///   record.
    public init(_ value: JSONValue) throws(NowDataError) {
        try self.init(value, codingPath: [])
    }

    /// The records of `value`, whose elements' coding paths start with `codingPath`.
    init(_ value: JSONValue, codingPath: [RecordKey]) throws(NowDataError) {
        switch value {
        case .array(let elements):
            records = []
            skipped = []
            for (index, element) in elements.enumerated() {
                do {
                    records.append(try NowRecord(reading: element))
                } catch {
                    skipped.append(
                        Skipped(index: index, element: element, reason: error.reason, codingPath: codingPath + [.index(index)]))
                }
            }
        case .object:
            records = [try NowRecord(value, codingPath: codingPath)]
            skipped = []
        default:
            throw .cannotDecodeModel(
                .typeMismatch(
                    [NowRecord].self,
                    DecodingError.Context(
                        codingPath: codingPath,
                        debugDescription: "expected records (an array or an object), found \(value.kindDescription)")))
        }
    }
}

/// A response's records: `{"result": [...]}` or `{"result": {...}}`, or a bare array or object.
enum RecordsDocument {
    /// The value that holds the records (`result`'s when it is an array or an object, else the document), and its
    /// coding path.
    ///
    /// - Throws: ``NowDataError/cannotParseResponse`` when the data is not JSON, or that value is neither an
    ///   array nor an object.
    static func records(in data: Data) throws(NowDataError) -> (JSONValue, [RecordKey]) {
        guard let document = try? JSONValue(json: data) else { throw .cannotParseResponse }
        if let result = document["result"], result.array != nil || result.object != nil {
            return (result, [.member("result")])
        }
        guard document.array != nil || document.object != nil else { throw .cannotParseResponse }
        return (document, [])
    }
}
