import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP(S) transport: FoundationNetworking's URLSession, with a session of its own.
///
/// Connections are kept alive between reads (`GET`, `HEAD`); each request may take at most `timeout`.
/// Every other request (a create, an update, a delete, a token request) goes on a fresh connection that is
/// closed after it, for two reasons: when a kept-alive connection dies without an answer, libcurl silently
/// sends the request again on a new one, so a delete whose response was lost would come back as the second
/// attempt's 404 with nothing telling the service the first one may have succeeded; and on a kept-alive
/// connection the server had closed, a request with a body waits for the whole timeout instead of failing. On
/// a fresh connection a lost response fails at once and the service's retry logic takes over. A 401 that asks
/// for credentials (`WWW-Authenticate`) comes back at once as a 401 response (the challenge is declined
/// instead of waited on). Cookies are neither stored nor sent, so every request is authenticated by its own
/// headers. Cancelling the calling task cancels the request (``NetworkServiceError/operationCancelled``); a
/// refused, dropped or timed out connection is ``NetworkServiceError/systemError(_:)`` with its `URLError`.
/// It never logs.
public final class URLSessionTransport: NowTransport {
    private let instanceURL: URL
    private let timeout: Duration
    private let readSession: URLSession
    private let writeSession: URLSession
    private let delegate: SessionDelegate

    /// A transport to the instance at `instanceURL` (its path, if any, prefixes every request's path).
    public init(instanceURL: URL, timeout: Duration = .seconds(60)) {
        self.instanceURL = instanceURL
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpMaximumConnectionsPerHost = 8
        configuration.timeoutIntervalForRequest = Self.seconds(timeout)
        delegate = SessionDelegate()
        readSession = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        writeSession = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        readSession.finishTasksAndInvalidate()
        writeSession.finishTasksAndInvalidate()
    }

    public func send(_ request: NowHTTPRequest) async throws -> NowHTTPResponse {
        let urlRequest = try makeURLRequest(request)
        let box = TaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<NowHTTPResponse, any Error>) in
                let delegate = delegate
                let session = request.isRead ? readSession : writeSession
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    continuation.resume(
                        with: Self.outcome(data, response, error, challenged: box.challengedResponse(delegate)))
                }
                box.set(task)
                if Task.isCancelled { task.cancel() }
                task.resume()
            }
        } onCancel: {
            box.cancel()
        }
    }

    private func makeURLRequest(_ request: NowHTTPRequest) throws -> URLRequest {
        var urlRequest = URLRequest(
            url: try request.url(on: instanceURL), cachePolicy: .reloadIgnoringLocalCacheData,
            timeoutInterval: Self.seconds(timeout))
        urlRequest.httpMethod = request.method
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        urlRequest.httpBody = request.body
        if !request.isRead { urlRequest.setValue("close", forHTTPHeaderField: "Connection") }
        return urlRequest
    }

    private static func outcome(
        _ data: Data?, _ response: URLResponse?, _ error: (any Error)?, challenged: HTTPURLResponse?
    )
        -> Result<NowHTTPResponse, any Error>
    {
        if let challenged {
            return .success(NowHTTPResponse(statusCode: challenged.statusCode, headers: headers(of: challenged)))
        }
        if let error {
            if let urlError = error as? URLError, urlError.code == .cancelled {
                return .failure(NetworkServiceError.operationCancelled)
            }
            return .failure(NetworkServiceError.systemError(error))
        }
        guard let http = response as? HTTPURLResponse else {
            return .failure(NetworkServiceError.genericError("The response is not an HTTP response."))
        }
        return .success(NowHTTPResponse(statusCode: http.statusCode, headers: headers(of: http), body: data ?? Data()))
    }

    private static func headers(of response: HTTPURLResponse) -> HTTPHeaders {
        HTTPHeaders(
            response.allHeaderFields.compactMap { key, value in
                guard let name = key as? String else { return nil }
                return (name, "\(value)")
            })
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

extension URLSessionTransport: CustomReflectable {
    /// The instance and the timeout, without any user or password the instance URL carries, for `dump`.
    public var customMirror: Mirror {
        Mirror(self, children: ["instanceURL": instanceURL.redactingUserInfo, "timeout": timeout], displayStyle: .class)
    }
}

/// The session delegate: declines every authentication challenge at once and remembers the response that
/// carried it, because this toolchain's URLSession otherwise waits forever on a 401 with `WWW-Authenticate`.
private final class SessionDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    private let challenged = Mutex<[Int: HTTPURLResponse]>([:])

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        if let response = (challenge.failureResponse ?? task.response) as? HTTPURLResponse {
            let identifier = task.taskIdentifier
            challenged.withLock { $0[identifier] = response }
        }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    /// The response whose challenge was declined for task `identifier`, forgotten once read.
    func takeChallengedResponse(_ identifier: Int) -> HTTPURLResponse? {
        challenged.withLock { $0.removeValue(forKey: identifier) }
    }
}

/// The data task of one send, so that cancelling the calling task can cancel it.
private final class TaskBox: Sendable {
    private let task = Mutex<URLSessionDataTask?>(nil)

    func set(_ task: URLSessionDataTask) {
        self.task.withLock { $0 = task }
    }

    func cancel() {
        task.withLock { $0 }?.cancel()
    }

    func challengedResponse(_ delegate: SessionDelegate) -> HTTPURLResponse? {
        guard let identifier = task.withLock({ $0?.taskIdentifier }) else { return nil }
        return delegate.takeChallengedResponse(identifier)
    }
}
