import Foundation

/// The shared services a ``NowTableService`` can draw on: what ``NowSDK/core()`` returns.
///
/// A table service created with a provider uses the provider's authentication when its own
/// configuration has none.
public protocol NowCoreServiceProviding: Sendable {
    /// The authentication the SDK was configured with.
    var authentication: NowAuthentication { get }
}

/// The core services of a configured ``NowSDK``.
public struct NowCoreService: NowCoreServiceProviding {
    /// The authentication the SDK was configured with.
    public var authentication: NowAuthentication

    /// Core services that authenticate with `authentication`.
    public init(authentication: NowAuthentication) {
        self.authentication = authentication
    }
}
