import Foundation
import TestSupport

/// A browser's part in the web views' tests, over real HTTP: requests written byte for byte, cookies kept from
/// `Set-Cookie` and sent back, as a browser does.
final class WebClient {
    /// One answer: status, headers (every `Set-Cookie` among them) and body.
    struct Page {
        let status: Int
        let headers: [(name: String, value: String)]
        let body: String

        /// The value of the first header called `name` (any letter case).
        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// Every `Set-Cookie` value.
        var setCookies: [String] { headers.filter { $0.name.lowercased() == "set-cookie" }.map(\.value) }

        /// The value of the first hidden `sysparm_ck` field.
        var csrfToken: String? {
            guard let range = body.range(of: #"name="sysparm_ck" value=""#) else { return nil }
            return String(body[range.upperBound...].prefix { $0 != "\"" })
        }

        /// The `<main>` element's content.
        var main: String {
            guard let start = body.range(of: "<main id=\"main\">\n"), let end = body.range(of: "\n</main>") else {
                return body
            }
            return String(body[start.upperBound..<end.lowerBound])
        }
    }

    let port: UInt16
    /// Cookie name → value.
    var cookies: [String: String] = [:]
    /// Sent as `Authorization` when set.
    var authorization: String?

    init(port: UInt16) {
        self.port = port
    }

    func get(_ target: String) throws -> Page {
        try send("GET", target, body: nil)
    }

    /// A form post (`application/x-www-form-urlencoded`) of `fields`, in order.
    func post(_ target: String, _ fields: [(String, String)]) throws -> Page {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let body = fields.map {
            ($0.0.addingPercentEncoding(withAllowedCharacters: allowed) ?? "") + "="
                + ($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
        }.joined(separator: "&")
        return try send("POST", target, body: body)
    }

    /// Logs in with the login form, as a person does.
    func logIn(user: String = "admin", password: String = "admin") throws -> Page {
        let form = try get("/login.do")
        return try post(
            "/login.do", [("sysparm_ck", form.csrfToken ?? ""), ("user_name", user), ("user_password", password)])
    }

    private func send(_ method: String, _ target: String, body: String?) throws -> Page {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if !cookies.isEmpty {
            head +=
                "Cookie: " + cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
                + "\r\n"
        }
        if let authorization { head += "Authorization: \(authorization)\r\n" }
        if let body {
            head += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n"
        }
        let reply = try RawHTTPClient.exchange(Array((head + "\r\n" + (body ?? "")).utf8), port: port)
        let headers = reply.head.components(separatedBy: "\r\n").dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let page = Page(status: reply.status, headers: headers, body: reply.body)
        for cookie in page.setCookies {
            let pair = cookie.prefix { $0 != ";" }.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { continue }
            cookies[String(pair[0])] = pair[1].isEmpty ? nil : String(pair[1])
        }
        return page
    }
}
