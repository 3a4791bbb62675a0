import Foundation

extension Data {
    /// The record of a Table API response, as the SDK's examples call it: `data.convertToRecord()`.
    ///
    /// Bad data (not JSON, no record) gives an empty record (``NowRecord/isEmpty``); use ``NowRecord/init(data:)``
    /// to get the error instead.
    public func convertToRecord() -> NowRecord {
        (try? NowRecord(data: self)) ?? NowRecord()
    }

    /// The records of a Table API response, as the SDK's examples call it: `data.convertToRecords()`.
    ///
    /// An element that is not a record (the Change Management API's trailing `{"__meta": {...}}`) is left out and
    /// the others are kept; ``NowRecords/init(data:)`` gives the elements left out with their reasons, and
    /// ``NowRecord/records(from:)`` throws for the first one. Bad data (not JSON, no records) gives no record.
    public func convertToRecords() -> [NowRecord] {
        (try? NowRecords(data: self))?.records ?? []
    }
}
