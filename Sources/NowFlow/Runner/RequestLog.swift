import Foundation
import NowData

/// A transport that reports every request it passes on, with its status and time, as
/// ``RunEvent/request(_:)``: what `nowflow run --verbose` lists.
struct RequestLog: NowTransport {
    let base: any NowTransport
    let masker: SecretMasker
    let onEvent: @Sendable (RunEvent) -> Void

    func send(_ request: NowHTTPRequest) async throws -> NowHTTPResponse {
        let start = ContinuousClock.now
        do {
            let response = try await base.send(request)
            report(request, status: response.statusCode, failure: nil, since: start)
            return response
        } catch is CancellationError {
            report(request, status: nil, failure: "cancelled", since: start)
            throw CancellationError()
        } catch {
            report(request, status: nil, failure: "\(error)", since: start)
            throw error
        }
    }

    private func report(_ request: NowHTTPRequest, status: Int?, failure: String?, since start: ContinuousClock.Instant) {
        let sent = SentRequest(
            method: request.method, path: masker(SentRequest.path(of: request)), status: status,
            failure: failure.map { masker($0) }, milliseconds: JobRunner.milliseconds(since: start))
        onEvent(.request(sent))
    }
}
