import Foundation

/// The core services of a configured ``NowSDK``.
public struct NowCoreService: NowCoreServiceProviding {
    /// The authentication the SDK was configured with.
    public var authentication: NowAuthentication

    /// Core services that authenticate with `authentication`.
    public init(authentication: NowAuthentication) {
        self.authentication = authentication
    }
}
