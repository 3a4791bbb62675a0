import Foundation
import NowData

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// NowData's transport on a local instance, in process: a request goes straight to ``LocalInstance/reply(to:)``;
/// injected latency is awaited and a dropped connection is thrown as the network would.
struct LocalInstanceTransport: NowTransport {
    let instance: LocalInstance

    func send(_ request: NowHTTPRequest) async throws -> NowHTTPResponse {
        guard !Task.isCancelled else { throw NetworkServiceError.operationCancelled }
        switch instance.reply(to: request) {
        case .respond(let response, let delay):
            try await wait(delay)
            return response
        case .dropConnection(let delay):
            try await wait(delay)
            throw NetworkServiceError.systemError(URLError(.networkConnectionLost))
        }
    }

    private func wait(_ delay: Duration) async throws {
        do {
            if delay > .zero { try await Task.sleep(for: delay) }
        } catch {
            throw NetworkServiceError.operationCancelled
        }
        guard !Task.isCancelled else { throw NetworkServiceError.operationCancelled }
    }
}
