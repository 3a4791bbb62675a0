internal import CurlHTTP
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default HTTP(S) transport: libcurl's multi interface on a thread of its own, as fast as the `curl`
/// command on the same requests.
///
/// Reads (`GET`, `HEAD`) reuse kept-alive connections; every other request (a create, an update, a delete, a token
/// request) goes on a fresh connection that is closed after it, so that a write whose response was lost fails at
/// once instead of being sent again by libcurl on a new connection, and the service's retry logic decides what
/// to do. Each request may take at most `timeout`; cancelling the calling task cancels the request
/// (``NetworkServiceError/operationCancelled``). Responses come back as they are: a 401 at once, whatever
/// `WWW-Authenticate` says, and redirects are not followed. A refused, dropped or timed-out connection is
/// ``NetworkServiceError/systemError(_:)`` with the `URLError` URLSession would give. Certificates are checked
/// against the system's authorities, or as ``NowTLSSettings`` say (a CA file, a client certificate, no check);
/// compressed responses are accepted; the proxy environment variables (`https_proxy`, `no_proxy`, ...) apply. It
/// never logs.
///
/// ```swift
/// let transport = CurlTransport(instanceURL: URL(string: "https://example.service-now.com")!)
/// ```
public final class CurlTransport: NowTransport {
    private let instanceURL: URL
    private let timeout: Duration
    private let tls: NowTLSSettings
    let client: Result<CurlClient, CurlError>

    /// A transport to the instance at `instanceURL` (its path, if any, prefixes every request's path), checking
    /// its certificate and presenting the client's as `tls` says.
    public init(instanceURL: URL, timeout: Duration = .seconds(60), tls: NowTLSSettings = NowTLSSettings()) {
        self.instanceURL = instanceURL
        self.timeout = timeout
        self.tls = tls
        client = Result { () throws(CurlError) in try CurlClient() }
    }

    deinit {
        try? client.get().shutDown()
    }

    public func send(_ request: NowHTTPRequest) async throws -> NowHTTPResponse {
        let url = try request.url(on: instanceURL)
        var curlRequest = CurlRequest(
            method: request.method, url: url,
            headers: request.headers.map { ($0.name, $0.value) }, body: request.body, timeout: timeout,
            reusesConnection: request.isRead)
        curlRequest.caFile = tls.caFile
        curlRequest.verifiesPeer = !tls.insecure
        curlRequest.clientCertificateFile = tls.clientCertificateFile
        curlRequest.clientKeyFile = tls.clientKeyFile
        curlRequest.bodyFile = request.bodyFile
        curlRequest.responseFile = request.responseBodyFile
        let digest = request.responseBodyFile.map { _ in BodyDigest() }
        if let digest { curlRequest.responseFileObserver = { digest.update($0) } }
        do throws(CurlError) {
            let response = try await client.get().send(curlRequest)
            var answer = NowHTTPResponse(
                statusCode: response.statusCode, headers: HTTPHeaders(response.headers), body: response.body)
            answer.bodyFile = response.bodyFile
            if response.bodyFile != nil { answer.bodyFileSHA256 = digest?.finalizeHex() }
            return answer
        } catch {
            throw Self.error(error, url: url)
        }
    }

    /// True: a request's ``NowHTTPRequest/bodyFile`` is read a chunk at a time as libcurl sends it, and a 2xx
    /// answer's body is written to ``NowHTTPRequest/responseBodyFile`` as it arrives, hashed on the way
    /// (``NowHTTPResponse/bodyFileSHA256``).
    public var streamsFiles: Bool { true }

    /// The error NowData reports for a failed transfer to `url`: URLSession's where it has an equivalent, with the
    /// URL (without its user and password) and the system's reason.
    private static func error(_ error: CurlError, url: URL) -> NetworkServiceError {
        switch error {
        case .network(let code, let reason):
            var details: [String: Any] = [:]
            if let redacted = URL(string: url.redactingUserInfo) { details[NSURLErrorFailingURLErrorKey] = redacted }
            if let reason { details[NSLocalizedFailureReasonErrorKey] = reason }
            return .systemError(URLError(code, userInfo: details))
        case .failed(let message): return .genericError(message)
        case .cancelled: return .operationCancelled
        }
    }
}

extension CurlTransport: CustomReflectable {
    /// The instance and the timeout, without any user or password the instance URL carries, for `dump`.
    public var customMirror: Mirror {
        Mirror(self, children: ["instanceURL": instanceURL.redactingUserInfo, "timeout": timeout], displayStyle: .class)
    }
}
