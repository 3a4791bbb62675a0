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
    /// Bad data gives no record; use ``NowRecord/records(from:)`` to get the error instead.
    public func convertToRecords() -> [NowRecord] {
        (try? NowRecord.records(from: self)) ?? []
    }
}
