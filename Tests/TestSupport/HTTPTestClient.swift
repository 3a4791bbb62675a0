import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A URLSession client for tests against a listener on 127.0.0.1.
///
/// On this toolchain URLSession hangs on a 401 carrying `WWW-Authenticate` unless a session delegate cancels the
/// challenge; this client's delegate does, records the 401 response, and `send` returns it as a normal reply
/// (its body is lost, as URLSession drops it).
public final class HTTPTestClient: Sendable {
    /// One answer: status, headers (lower-cased names) and body.
    public struct Reply: Sendable {
        /// The HTTP status code.
        public let status: Int
        /// The header fields, names lower-cased.
        public let headers: [String: String]
        /// The body as received.
        public let body: Data

        /// The body as UTF-8 text.
        public var text: String { String(decoding: body, as: UTF8.self) }

        /// The value of header `name`, in any letter case.
        public func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    /// `http://127.0.0.1:<port>`.
    public let baseURL: URL
    private let delegate = ChallengeCancellingDelegate()
    private let session: URLSession

    /// A client of the listener on 127.0.0.1 at `port`.
    public init(port: UInt16) {
        baseURL = URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
        let configuration = URLSessionConfiguration.ephemeral
        // A guard against a hang, not a measure of speed: a loaded machine may take over a minute to answer.
        configuration.timeoutIntervalForRequest = 300
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Sends `method` to `pathAndQuery` (already percent-encoded) with `headers` and `body`.
    public func send(
        _ method: String, _ pathAndQuery: String, headers: [String: String] = [:], body: Data? = nil
    ) async throws -> Reply {
        guard let url = URL(string: baseURL.absoluteString + pathAndQuery) else { throw URLError(.badURL) }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        let tag = UUID().uuidString
        request.setValue(tag, forHTTPHeaderField: ChallengeCancellingDelegate.tagHeader)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
            return Reply(status: http.statusCode, headers: Self.headers(of: http), body: data)
        } catch let error as URLError where error.code == .cancelled {
            guard let challenged = delegate.challengedResponse(tag: tag) else { throw error }
            return Reply(status: challenged.statusCode, headers: Self.headers(of: challenged), body: Data())
        }
    }

    private static func headers(of response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in response.allHeaderFields {
            headers[name.lowercased()] = value
        }
        return headers
    }
}
