import NowData
import Synchronization

/// The result of a query whose records were streamed rather than kept (`steps.<id>` gives `count` and
/// `streamed: true`, and `to`, the file written, when it had one): how many it read, counted on as a `foreach`
/// reads the rest of its pages, so that the report made at the end has the whole count.
final class StreamedRecords: Sendable {
    private let counted = Mutex(0)
    /// The path of the file the records were written to, if any.
    let path: String?

    init(path: String?) {
        self.path = path
    }

    /// How many records the query has read so far.
    var count: Int {
        get { counted.withLock { $0 } }
        set { counted.withLock { $0 = newValue } }
    }

    var json: JSONValue {
        var result: JSONObject = ["count": .number(JSONNumber(count)), "streamed": true]
        if let path { result["to"] = .string(path) }
        return .object(result)
    }
}
