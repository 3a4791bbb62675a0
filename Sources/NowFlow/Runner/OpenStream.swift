import NowData

/// A query streamed to a `foreach` (``QueryStep/Delivery/foreach``) between the two steps: its first page, read
/// when the query ran, and the stream that reads the rest when the foreach asks for its items.
struct OpenStream {
    /// Reads the pages after the first.
    var stream: RecordStream
    /// The records of the first page, read when the query ran.
    var firstPage: [NowRecord]
    /// The query's result, whose count grows as the foreach reads.
    var streamed: StreamedRecords
}
