import Foundation
import Synchronization

/// The SDK's entry point, as in its setup example: configure it once with credentials, then make services.
///
/// ```swift
/// NowSDK.configure(authentication: .basic(user: "admin", password: secret))
/// guard let coreService = NowSDK.core() else { throw NowServiceError.sdkNotConfigured }
/// guard let instanceUrl = URL(string: "https://example.service-now.com"),
///       let serviceConfig = NowSDK.makeServiceConfiguration(for: instanceUrl) else {
///     throw NowServiceError.serviceConfigurationInvalid
/// }
/// let tableService = NowTableService(configuration: serviceConfig, coreServiceProvider: coreService)
/// ```
public enum NowSDK {
    private struct Settings: Sendable {
        var authentication: NowAuthentication
        var transport: (any NowTransport)?
        var retryPolicy: RetryPolicy
        var allowsInsecureHTTP: Bool
    }

    private static let settings = Mutex<Settings?>(nil)

    /// Configures the SDK: the authentication, transport, retry policy and HTTP rule of the configurations
    /// that ``makeServiceConfiguration(for:)`` makes from now on.
    public static func configure(
        authentication: NowAuthentication, transport: (any NowTransport)? = nil,
        retryPolicy: RetryPolicy = .default, allowsInsecureHTTP: Bool = false
    ) {
        let new = Settings(
            authentication: authentication, transport: transport, retryPolicy: retryPolicy,
            allowsInsecureHTTP: allowsInsecureHTTP)
        settings.withLock { $0 = new }
    }

    /// Forgets the configuration: ``core()`` returns nil again.
    public static func reset() {
        settings.withLock { $0 = nil }
    }

    /// The core services, or nil when the SDK has not been configured (``NowServiceError/sdkNotConfigured``).
    public static func core() -> NowCoreServiceProviding? {
        settings.withLock { $0 }.map { NowCoreService(authentication: $0.authentication) }
    }

    /// A service configuration for `instanceURL` with the configured settings, or nil when the URL is not
    /// usable (no scheme or host, or plain HTTP to a host other than loopback unless allowed):
    /// ``NowServiceError/serviceConfigurationInvalid``.
    public static func makeServiceConfiguration(for instanceURL: URL) -> NowServiceConfiguration? {
        let current = settings.withLock { $0 }
        let configuration = NowServiceConfiguration(
            instanceURL: instanceURL, authentication: current?.authentication ?? .none,
            transport: current?.transport, retryPolicy: current?.retryPolicy ?? .default,
            allowsInsecureHTTP: current?.allowsInsecureHTTP ?? false)
        do {
            try configuration.validate()
            return configuration
        } catch {
            return nil
        }
    }
}
