import Foundation
import NowData

/// A Table API answer's body, as the runner reads it.
extension JSONValue {
    /// The `result` of a Table API answer; a ``StepFailure`` when it has none.
    static func tableResult(of data: Data) throws -> JSONValue {
        guard let result = try JSONValue(json: data)["result"] else {
            throw StepFailure("the instance's answer has no result")
        }
        return result
    }

    /// The records of a Table API list answer: its `result`, an array.
    static func tableRecords(of data: Data) throws -> [JSONValue] {
        guard case .array(let items) = try tableResult(of: data) else {
            throw StepFailure("the instance's answer has no array of records")
        }
        return items
    }
}
