import Foundation

/// A failure to set up a NowSDK service, as in the SDK's setup example.
public enum NowServiceError: Error, Sendable {
    /// The SDK has not been configured.
    case sdkNotConfigured
    /// The service configuration is not valid (for example the instance URL has no host).
    case serviceConfigurationInvalid
}
