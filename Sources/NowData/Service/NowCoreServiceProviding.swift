import Foundation

/// The shared services a ``NowTableService`` can draw on: what ``NowSDK/core()`` returns.
///
/// A table service created with a provider uses the provider's authentication when its own
/// configuration has none.
public protocol NowCoreServiceProviding: Sendable {
    /// The authentication the SDK was configured with.
    var authentication: NowAuthentication { get }
}
