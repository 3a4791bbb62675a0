import Foundation
import NowData

/// Requests a page of another site could make a browser send: a write (POST, PUT, PATCH, DELETE) whose `Origin`
/// names another site than the request's `Host` (or, without an `Origin`, whose `Referer` does) is refused with a
/// 403, whatever credentials the browser adds. API clients (curl, PySNC, servicenow.itsm, NowData) send neither
/// header, and the instance's own pages send their own origin.
extension LocalInstance {
    /// The methods that change data.
    private static let changingMethods: Set<String> = ["POST", "PUT", "PATCH", "DELETE"]

    /// The 403 for a write another site's page sent; nil for any other request.
    static func crossSiteRefusal(_ request: NowHTTPRequest) -> TableAPIError? {
        guard changingMethods.contains(request.method.uppercased()) else { return nil }
        let host = request.headers.value(named: "Host").map(Self.withoutDefaultPort) ?? ""
        let header: String
        let value: String
        if let origin = request.headers.value(named: "Origin") {
            (header, value) = ("Origin", origin)
        } else if let referer = request.headers.value(named: "Referer") {
            (header, value) = ("Referer", referer)
        } else {
            return nil
        }
        if let site = Self.site(of: value), !host.isEmpty, site.caseInsensitiveCompare(host) == .orderedSame {
            return nil
        }
        return TableAPIError(
            status: 403, message: "Cross-site request refused",
            detail: "The request's \(header) '\(value)' is not this instance"
                + (host.isEmpty ? "" : " (\(host))")
                + ": a write sent by another site's page is refused")
    }

    /// The `host[:port]` of an origin or URL (`http://localhost:8080/path` → `localhost:8080`), without the
    /// scheme's default port; nil when it has none (`null`, a relative URL).
    private static func site(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let name = components.percentEncodedHost, !name.isEmpty
        else { return nil }
        let bracketed = name.contains(":") && !name.hasPrefix("[") ? "[\(name)]" : name
        guard let port = components.port, port != (scheme == "https" ? 443 : 80) else { return bracketed }
        return "\(bracketed):\(port)"
    }

    /// A `Host` header without `:80` (the port a browser leaves out of an `http:` origin).
    private static func withoutDefaultPort(_ host: String) -> String {
        host.hasSuffix(":80") ? String(host.dropLast(3)) : host
    }
}
