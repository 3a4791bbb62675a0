import Foundation

extension URL {
    /// The URL without any user or password it may carry, for descriptions and mirrors.
    var redactingUserInfo: String {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else {
            return "<invalid URL>"
        }
        components.user = nil
        components.password = nil
        return components.string ?? "<invalid URL>"
    }
}
