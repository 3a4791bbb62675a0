import Foundation

/// Where a service's instance is and how to talk to it.
///
/// ```swift
/// let configuration = NowServiceConfiguration(
///     instanceURL: URL(string: "https://example.service-now.com")!,
///     authentication: .basic(user: "admin", password: secret))
/// let service = NowTableService(configuration: configuration)
/// ```
///
/// The instance URL needs a scheme and a host. Plain `http://` is accepted for a loopback host
/// (`localhost`, `127.0.0.1`, `::1`) and refused for any other unless ``allowsInsecureHTTP`` is set:
/// requests then fail with ``NowDataError/invalidURL`` before anything is sent, and ``instanceURLProblem``
/// says why.
public struct NowServiceConfiguration: Sendable {
    /// The instance, such as `https://example.service-now.com`; a path prefix is kept.
    public var instanceURL: URL
    /// How requests are authenticated.
    public var authentication: NowAuthentication
    /// The transport requests travel through; nil means HTTP(S) through ``CurlTransport``.
    public var transport: (any NowTransport)?
    /// The longest time one HTTP request may take (with the default transport; a given one has its own).
    public var timeout: Duration
    /// When failed requests are retried; on by default.
    public var retryPolicy: RetryPolicy
    /// Whether plain `http://` may be used for a host that is not loopback.
    public var allowsInsecureHTTP: Bool
    /// How the default transport checks the instance's certificate and presents the client's (a given
    /// `transport` has its own).
    public var tls = NowTLSSettings()
    /// What paces the requests (a `rate:` and the instance's rate-limit headers); shared by every service given
    /// the same one. nil: requests go as fast as they come.
    public var pacer: RequestPacer?

    /// A configuration.
    public init(
        instanceURL: URL, authentication: NowAuthentication = .none, transport: (any NowTransport)? = nil,
        timeout: Duration = .seconds(60), retryPolicy: RetryPolicy = .default, allowsInsecureHTTP: Bool = false
    ) {
        self.instanceURL = instanceURL
        self.authentication = authentication
        self.transport = transport
        self.timeout = timeout
        self.retryPolicy = retryPolicy
        self.allowsInsecureHTTP = allowsInsecureHTTP
    }

    /// Checks the instance URL: a scheme of `http` or `https`, a host, and `http` only for loopback unless
    /// allowed.
    ///
    /// - Throws: ``NowDataError/invalidURL`` when the URL is not usable; ``instanceURLProblem`` says why.
    public func validate() throws(NowDataError) {
        if instanceURLProblem != nil { throw .invalidURL }
    }

    /// Why the instance URL is not usable, in one sentence a user can act on, or nil when it is usable:
    /// `plain http:// is refused for http://example.com because its host is not loopback; use https:// or set
    /// allowsInsecureHTTP`. ``validate()`` throws exactly when this is not nil.
    public var instanceURLProblem: String? {
        let url = instanceURL.redactingUserInfo
        guard let scheme = instanceURL.scheme?.lowercased() else {
            return "the instance URL \(url) has no scheme; use https://"
        }
        guard let host = instanceURL.host, !host.isEmpty else { return "the instance URL \(url) has no host" }
        switch scheme {
        case "https":
            return nil
        case "http":
            if allowsInsecureHTTP || Self.isLoopback(host) { return nil }
            return "plain http:// is refused for \(url) because its host is not loopback; use https:// or set "
                + "allowsInsecureHTTP"
        default:
            return "the instance URL \(url) has the scheme \(scheme); use https://"
        }
    }

    /// Whether `host` names this machine.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        return bare == "localhost" || bare == "::1" || bare.hasPrefix("127.")
    }
}

extension NowServiceConfiguration: CustomStringConvertible, CustomReflectable {
    /// The instance and the kind of authentication, secrets redacted.
    public var description: String {
        "NowServiceConfiguration(instanceURL: \(instanceURL.redactingUserInfo), authentication: \(authentication))"
    }

    /// A mirror without the secrets the URL or the authentication may hold, for `dump`.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "instanceURL": instanceURL.redactingUserInfo, "authentication": authentication,
                "transport": transport.map { "\(type(of: $0))" } ?? "CurlTransport", "timeout": timeout,
                "retryPolicy": retryPolicy, "allowsInsecureHTTP": allowsInsecureHTTP, "tls": tls,
            ], displayStyle: .struct)
    }
}
