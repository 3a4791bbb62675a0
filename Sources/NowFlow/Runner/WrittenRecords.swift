import Foundation
import NowData
import Synchronization

/// The records a write's answers hold, each the `result` of a Table API answer with its dates in the job's format
/// (``JobDates/incoming(_:)``), read from the answers the first time they are asked for.
final class WrittenRecords: Sendable {
    private enum State {
        case answers([Data], JobDates)
        case read([NowRecord?])
    }

    private let state: Mutex<State>

    /// Records already read.
    init(_ records: [NowRecord?]) {
        state = Mutex(.read(records))
    }

    /// The records of `answers` (Table API bodies whose `result` is the record), read when first asked for.
    init(answers: [Data], dates: JobDates) {
        state = Mutex(.answers(answers, dates))
    }

    /// The records, as the job sees them; nil for an answer that does not hold one.
    var values: [NowRecord?] {
        state.withLock { state in
            switch state {
            case .read(let records):
                return records
            case .answers(let answers, let dates):
                let records = answers.map { data in
                    (try? JSONValue(json: data)["result"]).flatMap { $0 }.flatMap { try? NowRecord($0) }.map(dates.incoming)
                }
                state = .read(records)
                return records
            }
        }
    }
}
