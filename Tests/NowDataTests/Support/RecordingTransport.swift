import Foundation
import NowData
import Synchronization

/// A transport that records every request and answers with a closure, for request-shape tests.
final class RecordingTransport: NowTransport {
    private struct State {
        var requests: [NowHTTPRequest] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())
    private let handler: @Sendable (NowHTTPRequest, Int) async throws -> NowHTTPResponse

    /// `handler` gets each request and its zero-based index.
    init(_ handler: @escaping @Sendable (NowHTTPRequest, Int) async throws -> NowHTTPResponse) {
        self.handler = handler
    }

    /// A transport that answers every request with `status` and `body`.
    convenience init(status: Int = 200, body: String) {
        self.init { _, _ in NowHTTPResponse(statusCode: status, body: Data(body.utf8)) }
    }

    var recorded: [NowHTTPRequest] { state.withLock { $0.requests } }

    /// Every request as `METHOD /path?query` plus its body, one block per request.
    var rendered: [String] { recorded.map(Self.render) }

    /// Returns once `count` requests have been sent, however long the machine takes to send them.
    func waitUntilRecorded(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if state.requests.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    func send(_ request: NowHTTPRequest) async throws -> NowHTTPResponse {
        let (index, ready) = state.withLock { state in
            state.requests.append(request)
            let count = state.requests.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return (count - 1, ready)
        }
        for continuation in ready { continuation.resume() }
        return try await handler(request, index)
    }

    static func render(_ request: NowHTTPRequest) -> String {
        var line = "\(request.method) \(request.path)"
        if !request.queryItems.isEmpty {
            line += "?" + request.queryItems.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
        }
        if let body = request.body { line += "\n" + String(decoding: body, as: UTF8.self) }
        return line
    }
}

/// A response with a JSON body.
func json(_ status: Int, _ body: String, headers: HTTPHeaders = [:]) -> NowHTTPResponse {
    NowHTTPResponse(statusCode: status, headers: headers, body: Data(body.utf8))
}

/// A service on `transport` with fast retries.
func makeService(
    _ transport: any NowTransport, authentication: NowAuthentication = .none,
    retryPolicy: RetryPolicy = RetryPolicy(
        maxAttempts: 4, baseDelay: .milliseconds(1), maxDelay: .milliseconds(5), totalBudget: .seconds(3600)),
    url: String = "https://example.service-now.com"
) -> NowTableService {
    NowTableService(
        configuration: NowServiceConfiguration(
            instanceURL: URL(string: url)!, authentication: authentication, transport: transport,
            retryPolicy: retryPolicy))
}

/// An incident model, mapped to snake_case by the default coder.
struct Incident: SysIdentifiableModel, Equatable {
    var sysId: String = ""
    var shortDescription: String
    var number: String?
    var sysUpdatedOn: String?
}

/// The sys_id a request's JSON body carries.
func sysID(in request: NowHTTPRequest) -> String? {
    guard let body = request.body else { return nil }
    return (try? JSONValue(json: body))?["sys_id"]?.string
}

/// `text` with every run of 32 lowercase hex digits replaced by `<sys_id>`.
func maskingSysIDs(_ text: String) -> String {
    text.replacingOccurrences(of: "[0-9a-f]{32}", with: "<sys_id>", options: .regularExpression)
}
