import Foundation
import NowData

/// A request written as HTTP/1.1 text, the fuzz input of the request targets: a request line (`METHOD TARGET`),
/// header lines (`Name: value`), an empty line and the body. The target's query is split as libmicrohttpd splits
/// it (`&`, then the first `=`, percent-decoded, `+` a space); the path stays as sent, percent-encoded.
public enum HTTPText {
    /// The request `text` writes; a missing method is `GET`, a missing target `/`.
    public static func request(_ text: Substring) -> NowHTTPRequest {
        let (head, body) = split(text)
        var lines = head.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        let requestLine = lines.isEmpty ? "" : lines.removeFirst()
        let words = requestLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        let method = words.first.map(String.init) ?? "GET"
        let target = words.count > 1 ? words[1] : "/"
        let question = target.firstIndex(of: "?")
        let path = String(question.map { target[..<$0] } ?? target)
        let query = question.map { target[target.index(after: $0)...] } ?? ""
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(
                name: String(line[..<colon]),
                value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return NowHTTPRequest(
            method: method, path: path, queryItems: queryItems(query), headers: headers,
            body: body.map { Data($0.utf8) })
    }

    /// The items of a query string, as libmicrohttpd hands them over.
    public static func queryItems(_ query: Substring) -> [URLQueryItem] {
        query.split(separator: "&").map { item in
            let equals = item.firstIndex(of: "=")
            let name = decoded(equals.map { item[..<$0] } ?? item)
            return URLQueryItem(name: name, value: equals.map { decoded(item[item.index(after: $0)...]) })
        }
    }

    /// Percent-decoded, `+` a space; as written when it holds an invalid escape.
    static func decoded(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// The head (before the first empty line) and the body (nil when there is none).
    private static func split(_ text: Substring) -> (Substring, Substring?) {
        if let range = text.range(of: "\r\n\r\n") ?? text.range(of: "\n\n") {
            return (text[..<range.lowerBound], text[range.upperBound...])
        }
        return (text, nil)
    }
}
