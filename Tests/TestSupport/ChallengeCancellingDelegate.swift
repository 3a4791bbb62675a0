import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Cancels every authentication challenge (so that a 401 does not hang) and keeps the challenged response.
final class ChallengeCancellingDelegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    /// The request header carrying the tag a challenged response is kept under.
    static let tagHeader = "X-Test-Tag"

    private let lock = NSLock()
    private var challenged: [String: HTTPURLResponse] = [:]

    /// The 401 response of the request tagged `tag`, when it was challenged.
    func challengedResponse(tag: String) -> HTTPURLResponse? {
        lock.withLock { challenged[tag] }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        if let tag = task.originalRequest?.value(forHTTPHeaderField: Self.tagHeader),
            let response = (challenge.failureResponse ?? task.response) as? HTTPURLResponse
        {
            lock.withLock { challenged[tag] = response }
        }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }
}
