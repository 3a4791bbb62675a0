import Foundation

/// The fields of an `application/x-www-form-urlencoded` body (what an HTML form posts), and the encoding of query
/// strings for links.
struct WebForm: Sendable {
    /// The fields in the order sent.
    let fields: [(name: String, value: String)]

    /// Reads `body`; a body that is not form-encoded text has no fields.
    init(body: Data?) {
        guard let body, let text = String(data: body, encoding: .utf8) else {
            fields = []
            return
        }
        fields = text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (Self.decode(parts[0]), parts.count > 1 ? Self.decode(parts[1]) : "")
        }
    }

    /// The value of the last field called `name`.
    subscript(name: String) -> String? {
        fields.last { $0.name == name }?.value
    }

    /// `+` as a space and `%XX` decoded (a malformed escape stays as it is).
    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// The characters a query value keeps unencoded.
    private static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// `text` percent-encoded for a query string.
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// `path` and its query items, encoded (items with an empty value are left out).
    static func url(_ path: String, _ items: [(String, String)]) -> String {
        let query = items.filter { !$0.1.isEmpty }.map { encode($0.0) + "=" + encode($0.1) }
        return query.isEmpty ? path : path + "?" + query.joined(separator: "&")
    }
}
