import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends a service's requests: validation of the instance URL, authentication, the transport, retries (with one
/// pause shared by all the service's requests when the instance asks for one, see ``RateLimitGate``), and the
/// mapping of every failure to ``NowDataError``.
final class RequestPipeline: Sendable {
    /// What may be retried, and how.
    enum Mode: Sendable {
        /// Safe to repeat: reads, updates, token requests.
        case idempotent
        /// A delete: repeated as is, and a 404 after an attempt whose outcome is unknown counts as done.
        case delete
        /// A create carrying a client-assigned sys_id: after every retryable failure (its outcome may be a
        /// created record), `verification` (a GET of that sys_id) tells whether it exists before the POST is
        /// sent again.
        case create(verification: NowHTTPRequest)
        /// Sent once and never repeated: a write whose result the instance names, such as an attachment upload,
        /// which a second send would duplicate.
        case once
    }

    let configuration: NowServiceConfiguration
    let transport: any NowTransport
    /// The pause the instance asked for, which every request of the pipeline waits out.
    let gate = RateLimitGate()
    private let authentication: NowAuthentication
    private let tokenStore: OAuthTokenStore?

    /// A pipeline for a service: the configuration's authentication, or the core services' when the configuration
    /// has ``NowAuthentication/none``.
    convenience init(configuration: NowServiceConfiguration, coreServiceProvider: NowCoreServiceProviding?) {
        var authentication = configuration.authentication
        if case .none = authentication, let provided = coreServiceProvider?.authentication {
            authentication = provided
        }
        self.init(configuration: configuration, authentication: authentication)
    }

    init(configuration: NowServiceConfiguration, authentication: NowAuthentication) {
        self.configuration = configuration
        self.authentication = authentication
        self.transport =
            configuration.transport
            ?? CurlTransport(
                instanceURL: configuration.instanceURL, timeout: configuration.timeout, tls: configuration.tls)
        switch authentication {
        case .oauth(let clientID, let clientSecret, let user, let password):
            tokenStore = OAuthTokenStore(
                clientID: clientID, clientSecret: clientSecret, grant: .password(user: user, password: password))
        case .jwtBearer(let clientID, let clientSecret, let privateKeyPEM, let keyID, let subject):
            tokenStore = OAuthTokenStore(
                clientID: clientID, clientSecret: clientSecret,
                grant: .jwtBearer(privateKeyPEM: privateKeyPEM, keyID: keyID, subject: subject))
        case .none, .basic, .bearer:
            tokenStore = nil
        }
    }

    /// Sends `request` and returns its 2xx response, retrying as `mode` and the retry policy allow.
    ///
    /// - Throws: a ``NowDataError`` only: `badResponse` for any other status (with the server's error body),
    ///   `network` for a transport failure, `accessToken` for an authentication failure, `invalidURL` for an
    ///   unusable instance URL.
    ///
    /// With `anyStatus`, a response of any other status is returned too (after the retries of a retryable one)
    /// rather than thrown: for a caller that checks the status itself, such as an `http:` step.
    func send(
        _ request: NowHTTPRequest, mode: Mode, authenticated: Bool = true, anyStatus: Bool = false
    ) async throws -> NowHTTPResponse {
        try configuration.validate()
        let policy = configuration.retryPolicy
        let clock = ContinuousClock()
        let start = clock.now
        var failures = 0
        var outcomeUnknown = false
        var verifying = false
        var lastResponse: NowHTTPResponse?
        while true {
            guard !Task.isCancelled else { throw NowDataError.network(.operationCancelled) }
            do {
                try await gate.wait()
            } catch {
                throw NowDataError.network(.operationCancelled)
            }
            let current: NowHTTPRequest
            if case .create(let verification) = mode, verifying { current = verification } else { current = request }
            let lastError: NowDataError
            var requestedDelay: Duration?
            switch try await exchange(current, authenticated: authenticated) {
            case .success(let response):
                if (200..<300).contains(response.statusCode) { return response }
                if verifying, response.statusCode == 404 {
                    verifying = false
                    continue
                }
                if case .delete = mode, response.statusCode == 404, outcomeUnknown {
                    return NowHTTPResponse(statusCode: 204)
                }
                let error = Self.badResponse(response, for: current)
                guard Self.retryableStatuses.contains(response.statusCode) else {
                    if anyStatus { return response }
                    throw error
                }
                if case .once = mode {
                    if anyStatus { return response }
                    throw error
                }
                lastError = error
                lastResponse = response
                requestedDelay = Self.requestedDelay(in: response)
                if !verifying, [502, 504].contains(response.statusCode) { outcomeUnknown = true }
            case .failure(let error):
                guard Self.isRetryable(error) else { throw error }
                if case .once = mode { throw error }
                lastError = error
                lastResponse = nil
                if !verifying { outcomeUnknown = true }
            }
            if case .create = mode { verifying = true }
            failures += 1
            let delay = requestedDelay.map { max($0, gate.remaining) } ?? policy.backoff(beforeRetry: failures)
            guard failures < policy.maxAttempts, clock.now - start + delay <= policy.totalBudget else {
                if anyStatus, let lastResponse { return lastResponse }
                throw lastError
            }
            // A delay the instance asks for holds every request of the pipeline, not only this one's retry.
            if let requestedDelay { gate.hold(for: requestedDelay) }
            do {
                try await Task.sleep(for: delay)
            } catch {
                throw NowDataError.network(.operationCancelled)
            }
        }
    }

    /// One exchange with the transport: authenticated, and re-authenticated once after a 401 with OAuth.
    /// Transport failures are returned, not thrown, so that the caller can decide to retry them.
    private func exchange(_ request: NowHTTPRequest, authenticated: Bool) async throws -> Result<
        NowHTTPResponse, NowDataError
    > {
        var prepared = request
        if prepared.headers["Accept"] == nil { prepared.headers["Accept"] = "application/json" }
        if prepared.body != nil, prepared.headers["Content-Type"] == nil {
            prepared.headers["Content-Type"] = "application/json"
        }
        var reauthenticated = false
        while true {
            var attempt = prepared
            let token = authenticated ? try await authorize(&attempt) : nil
            let response: NowHTTPResponse
            if let pacer = configuration.pacer {
                do {
                    try await pacer.admit()
                } catch {
                    return .failure(.network(.operationCancelled))
                }
            }
            do {
                response = try await Self.send(attempt, through: transport)
            } catch {
                configuration.pacer?.answered(nil)
                return .failure(Self.networkError(error))
            }
            configuration.pacer?.answered(response)
            if response.statusCode == 401, let token, let tokenStore, !reauthenticated {
                await tokenStore.invalidate(token)
                reauthenticated = true
                continue
            }
            return .success(response)
        }
    }

    /// Adds the `Authorization` header; returns the OAuth access token used, if any.
    private func authorize(_ request: inout NowHTTPRequest) async throws -> String? {
        switch authentication {
        case .none:
            return nil
        case .basic(let user, let password):
            request.headers["Authorization"] = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
            return nil
        case .bearer(let provider):
            let token: String
            do {
                token = try await provider.accessToken()
            } catch let error as AccessTokenProviderError {
                throw NowDataError.accessToken(error)
            } catch let error as NowDataError {
                throw error
            } catch {
                throw NowDataError.accessToken(.userSessionError(error))
            }
            request.headers["Authorization"] = "Bearer " + token
            return nil
        case .oauth, .jwtBearer:
            guard let tokenStore else { return nil }
            let token = try await tokenStore.accessToken(via: self)
            request.headers["Authorization"] = "Bearer " + token
            return token
        }
    }

    private static let retryableStatuses: Set<Int> = [429, 502, 503, 504]

    private static let retryableURLErrors: Set<URLError.Code> = [
        .networkConnectionLost, .timedOut, .cannotConnectToHost, .notConnectedToInternet, .dnsLookupFailed,
        .cannotFindHost, .badServerResponse,
    ]

    /// Whether a transport failure may pass: a dropped, refused or timed out connection (both HTTP transports
    /// report a connection closed without an answer as `badServerResponse`).
    private static func isRetryable(_ error: NowDataError) -> Bool {
        guard case .network(let networkError) = error else { return false }
        switch networkError {
        case .serverError: return true
        case .systemError(let underlying as URLError): return retryableURLErrors.contains(underlying.code)
        default: return false
        }
    }

    /// The delay a response asks for: `Retry-After` in seconds or as an HTTP date, else `X-RateLimit-Reset`.
    static func requestedDelay(in response: NowHTTPResponse, now: Date = Date()) -> Duration? {
        if let value = response.headers["Retry-After"]?.trimmingCharacters(in: .whitespaces) {
            if let seconds = Double(value) { return delay(seconds) }
            if DateFormatter.canRead(value), let date = httpDateFormatter.date(from: value) {
                return delay(date.timeIntervalSince(now))
            }
        }
        if let value = response.headers["X-RateLimit-Reset"],
            let reset = Double(value.trimmingCharacters(in: .whitespaces))
        {
            return delay(reset - now.timeIntervalSince1970)
        }
        return nil
    }

    /// The longest delay a response is taken to ask for, in seconds (a century): any longer is as far beyond a
    /// retry budget, and a `Duration` cannot hold every `Double` (`Retry-After: 4E20` would trap).
    private static let longestRequestedDelay: Double = 100 * 365 * 86_400

    /// `seconds` as a delay from 0 to ``longestRequestedDelay``; nil for NaN.
    private static func delay(_ seconds: Double) -> Duration? {
        seconds.isNaN ? nil : .seconds(min(max(0, seconds), longestRequestedDelay))
    }

    private static let httpDateFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter
    }()

    /// A failure of the transport as a ``NowDataError``.
    static func networkError(_ error: any Error) -> NowDataError {
        switch error {
        case let error as NowDataError: error
        case let error as NetworkServiceError: .network(error)
        case is CancellationError: .network(.operationCancelled)
        case let error as URLError where error.code == .cancelled: .network(.operationCancelled)
        default: .network(.systemError(error))
        }
    }

    /// An unexpected status as ``NowDataError/badResponse(statusCode:)``, with the server's `error.message`
    /// and `error.detail` and the request's method and path.
    static func badResponse(_ response: NowHTTPResponse, for request: NowHTTPRequest) -> NowDataError {
        .badResponse(
            statusCode: HTTPStatusCode(
                code: response.statusCode, responseBody: response.body, method: request.method, path: request.path))
    }
}
