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
/// requests then fail with ``NowDataError/invalidURL`` before anything is sent.
public struct NowServiceConfiguration: Sendable {
    /// The instance, such as `https://example.service-now.com`; a path prefix is kept.
    public var instanceURL: URL
    /// How requests are authenticated.
    public var authentication: NowAuthentication
    /// The transport requests travel through; nil means HTTP(S) through ``URLSessionTransport``.
    public var transport: (any NowTransport)?
    /// The longest time one HTTP request may take (with the URLSession transport).
    public var timeout: Duration
    /// When failed requests are retried; on by default.
    public var retryPolicy: RetryPolicy
    /// Whether plain `http://` may be used for a host that is not loopback.
    public var allowsInsecureHTTP: Bool

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
    /// - Throws: ``NowDataError/invalidURL`` when the URL is not usable.
    public func validate() throws(NowDataError) {
        guard let scheme = instanceURL.scheme?.lowercased(), let host = instanceURL.host, !host.isEmpty else {
            throw .invalidURL
        }
        switch scheme {
        case "https": return
        case "http": guard allowsInsecureHTTP || Self.isLoopback(host) else { throw .invalidURL }
        default: throw .invalidURL
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
        "NowServiceConfiguration(instanceURL: \(redactedInstanceURL), authentication: \(authentication))"
    }

    /// A mirror without the secrets the URL or the authentication may hold, for `dump`.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "instanceURL": redactedInstanceURL, "authentication": authentication,
                "transport": transport.map { "\(type(of: $0))" } ?? "URLSessionTransport", "timeout": timeout,
                "retryPolicy": retryPolicy, "allowsInsecureHTTP": allowsInsecureHTTP,
            ], displayStyle: .struct)
    }

    /// The instance URL without any user or password it may carry.
    var redactedInstanceURL: String {
        guard var components = URLComponents(url: instanceURL, resolvingAgainstBaseURL: false) else {
            return "<invalid URL>"
        }
        components.user = nil
        components.password = nil
        return components.string ?? "<invalid URL>"
    }
}
