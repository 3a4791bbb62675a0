import Foundation
import NowData

extension LocalInstance {
    /// The fault chosen for one request, with the latency of its answer.
    enum ChosenFault {
        case none(Duration)
        case drop(Duration)
        case status(Int, retryAfterSeconds: Int, Duration)
        case lostResponse(Duration)
    }

    /// The next scripted fault, or a random one by the configured rates.
    func nextFault() -> ChosenFault {
        faults.withLock { faults in
            let latency = faults.latency
            if !faults.scripted.isEmpty {
                switch faults.scripted.removeFirst() {
                case .drop: return .drop(latency)
                case .lostResponse: return .lostResponse(latency)
                case .latency(let delay): return .none(delay)
                case .status(let status, let retryAfter):
                    return .status(status, retryAfterSeconds: retryAfter ?? faults.retryAfterSeconds, latency)
                }
            }
            if faults.dropRate > 0, Double.random(in: 0..<1) < faults.dropRate { return .drop(latency) }
            if faults.statusRate > 0, Double.random(in: 0..<1) < faults.statusRate {
                return .status(faults.status, retryAfterSeconds: faults.retryAfterSeconds, latency)
            }
            if faults.lostResponseRate > 0, Double.random(in: 0..<1) < faults.lostResponseRate {
                return .lostResponse(latency)
            }
            return .none(latency)
        }
    }

    /// The answer of an injected status, with the platform's body for it.
    static func faultResponse(_ status: Int, retryAfterSeconds: Int) -> NowHTTPResponse {
        let error: TableAPIError
        switch status {
        case 429:
            error = TableAPIError(
                status: 429, message: "Rate limit exceeded",
                detail: "Rate limit of 100 requests per hour for Table API exceeded",
                headers: ["Retry-After": String(retryAfterSeconds), "X-RateLimit-Limit": "100"])
        case 500:
            error = .executionTimeExceeded
        case 503:
            error = TableAPIError(
                status: 503, message: "Service Unavailable",
                detail: "The instance is temporarily unable to service the request")
        default:
            error = TableAPIError(status: status, message: "Injected fault", detail: "HTTP status \(status)")
        }
        return error.response
    }
}
