import Foundation

/// A transport made of a closure, for tests and adapters.
public struct ClosureTransport: NowTransport {
    private let handler: @Sendable (NowHTTPRequest) async throws -> NowHTTPResponse

    /// Wraps `handler` as a transport.
    public init(_ handler: @escaping @Sendable (NowHTTPRequest) async throws -> NowHTTPResponse) {
        self.handler = handler
    }

    public func send(_ request: NowHTTPRequest) async throws -> NowHTTPResponse {
        try await handler(request)
    }
}
