import NowData
import Synchronization

/// A transport that notes every answer NowData retries (429, a 5xx, a failed connection), so that a step's
/// progress line can say that it was retried and why: `retried 2x after 503`.
final class RetryTally: NowTransport {
    private let base: any NowTransport
    private let reasons = Mutex<[String]>([])

    init(wrapping base: any NowTransport) {
        self.base = base
    }

    func send(_ request: NowHTTPRequest) async throws -> NowHTTPResponse {
        do {
            let response = try await base.send(request)
            if response.statusCode == 429 || response.statusCode >= 500 {
                reasons.withLock { $0.append("\(response.statusCode)") }
            }
            return response
        } catch is CancellationError {
            throw CancellationError()
        } catch NetworkServiceError.operationCancelled {
            // A request cancelled (by a signal) is not retried; its answer may come after the next step started.
            throw NetworkServiceError.operationCancelled
        } catch {
            reasons.withLock { $0.append("a network error") }
            throw error
        }
    }

    /// `retried 2x after 503` (`after 503, 429` when they differ) for the failed answers since the last call, or
    /// nil when there was none; starts a new count.
    func takeNote() -> String? {
        let taken = reasons.withLock { reasons in
            defer { reasons = [] }
            return reasons
        }
        guard !taken.isEmpty else { return nil }
        var distinct: [String] = []
        for reason in taken where !distinct.contains(reason) { distinct.append(reason) }
        return "retried \(taken.count)x after \(distinct.joined(separator: ", "))"
    }
}
