import NowData

/// A Table API request, routed: its table, record and parameters, and who sent it.
struct TableAPIRequest {
    /// The effective method (`X-HTTP-Method-Override` wins over the request's).
    var method: String
    /// The API version of a versioned path (`/api/now/v1/table/...`), nil for `/api/now/table/...`.
    var version: String?
    var tableName: String
    var sysID: String?
    var request: NowHTTPRequest
    /// The authenticated user's `user_name`.
    var userName: String = ""

    /// Routes a path of the Table API; nil when the path is not one.
    init?(_ request: NowHTTPRequest) {
        var parts = Self.segments(request.path)
        guard parts.count >= 3, parts[0] == "api", parts[1] == "now" else { return nil }
        parts.removeFirst(2)
        if parts[0] == "v1" || parts[0] == "v2" {
            version = parts.removeFirst()
        }
        guard parts.count == 2 || parts.count == 3, parts[0] == "table" else { return nil }
        tableName = parts[1]
        sysID = parts.count == 3 ? parts[2] : nil
        method = (request.headers.value(named: "X-HTTP-Method-Override") ?? request.method).uppercased()
        self.request = request
    }

    /// The non-empty segments of a path between slashes. An ASCII path (every real one) is split byte by byte; any
    /// other by characters, where a slash followed by a combining mark is not a separator.
    private static func segments(_ path: String) -> [String] {
        guard path.utf8.allSatisfy({ $0 < 128 }) else {
            return path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        }
        return path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map {
            String(Substring($0))
        }
    }

    /// `http://<Host>` (or `http://localhost`), for absolute links.
    var baseURL: String {
        "http://" + (request.headers.value(named: "Host").flatMap { $0.isEmpty ? nil : $0 } ?? "localhost")
    }
}
