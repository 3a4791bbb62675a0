import NowData

extension LocalInstance {
    /// What the request's user may do: `user` (already authenticated, as the web views' session user is) or the
    /// user its credentials authenticate; nil for missing or wrong credentials. The one way a route gets an
    /// ``AccessPolicy/Access``.
    ///
    /// - Throws: when the database cannot be read.
    func access(_ request: NowHTTPRequest, as user: String?) throws -> AccessPolicy.Access? {
        guard let name = try user ?? authenticate(request) else { return nil }
        return handler.policy.access(for: name)
    }
}
