import Foundation
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
    /// The authenticated user's `user_name`, set by ``TableAPIHandler/handle(_:as:)`` from the request's
    /// ``AccessPolicy/Access`` (the one way in).
    var userName: String = ""

    /// Routes a path of the Table API; nil when the path is not one.
    ///
    /// The path is the one on the wire, percent-encoded: it is split on `/` first and each segment decoded
    /// afterwards, so that a table name or sys_id holding `%2F` stays one segment.
    ///
    /// - Throws: ``TableAPIError/malformedPath(_:segment:)`` for a segment that is not valid percent-encoding.
    init?(_ request: NowHTTPRequest) throws(TableAPIError) {
        var parts = try Self.segments(request.path)
        guard parts.count >= 3, parts[0] == "api", parts[1] == "now" else { return nil }
        parts.removeFirst(2)
        if parts[0] == "v1" || parts[0] == "v2" {
            version = parts.removeFirst()
        }
        guard parts.count == 2 || parts.count == 3, parts[0] == "table" else { return nil }
        tableName = parts[1]
        sysID = parts.count == 3 ? parts[2] : nil
        method = (request.headers.value(named: "X-HTTP-Method-Override") ?? request.method).uppercased()
        if let host = request.headers.value(named: "Host"), !Self.isValidHost(host) { throw .invalidHost(host) }
        self.request = request
    }

    /// Whether `path` starts as the usual Table API paths do (`/api/now/table/`, `/api/now/v1/table/` or
    /// `/api/now/v2/table/`): a cheap test that such a path is the Table API's and no other API's.
    static func hasTablePrefix(_ path: String) -> Bool {
        tablePrefixes.contains { path.utf8.starts(with: $0.utf8) }
    }

    private static let tablePrefixes = ["/api/now/table/", "/api/now/v1/table/", "/api/now/v2/table/"]

    /// Whether `host` is a `Host` header fit to go into the `Link` and `Location` headers: a name or IPv4
    /// address (letters, digits, `-`, `.`) or a bracketed IPv6 address, and maybe `:` and a port. Anything else
    /// (quotes, `>`, `,`, spaces) could add link relations or headers of its own.
    static func isValidHost(_ host: String) -> Bool {
        var name = Substring(host)
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            let address = name[name.index(after: name.startIndex)..<close]
            let isAddressByte = { (byte: UInt8) in
                hexValue(byte) != nil || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
            }
            guard !address.isEmpty, address.utf8.allSatisfy(isAddressByte) else { return false }
            name = name[name.index(after: close)...]
            return name.isEmpty || isPort(name)
        }
        if let colon = name.firstIndex(of: ":") {
            guard isPort(name[colon...]) else { return false }
            name = name[..<colon]
        }
        return !name.isEmpty && name.utf8.count <= 253 && name.utf8.allSatisfy(isNameByte)
    }

    /// Whether `text` is `:` and one to five digits.
    private static func isPort(_ text: Substring) -> Bool {
        let digits = text.utf8.dropFirst()
        return text.first == ":" && (1...5).contains(digits.count) && digits.allSatisfy { (48...57).contains($0) }
    }

    /// A letter, digit, `-` or `.`.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    /// The non-empty segments of a percent-encoded path between slashes, each decoded. A byte that is not part of
    /// a `%XX` stays as it is (a path built by hand may hold a raw space or letter); a `%` that does not start two
    /// hexadecimal digits, or bytes that do not decode to UTF-8, are a malformed path.
    private static func segments(_ path: String) throws(TableAPIError) -> [String] {
        try path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map {
            segment throws(TableAPIError) in
            guard segment.contains(UInt8(ascii: "%")) else { return String(Substring(segment)) }
            guard let decoded = percentDecoded(segment) else {
                throw .malformedPath(path, segment: String(Substring(segment)))
            }
            return decoded
        }
    }

    /// `segment` with every `%XX` decoded; nil when a `%` does not start two hexadecimal digits or the bytes are
    /// not UTF-8.
    private static func percentDecoded(_ segment: Substring.UTF8View) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(segment.count)
        var index = segment.startIndex
        while index < segment.endIndex {
            let byte = segment[index]
            index = segment.index(after: index)
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard index < segment.endIndex, let high = hexValue(segment[index]) else { return nil }
            index = segment.index(after: index)
            guard index < segment.endIndex, let low = hexValue(segment[index]) else { return nil }
            index = segment.index(after: index)
            bytes.append(high << 4 | low)
        }
        return String(bytes: bytes, encoding: .utf8)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// The base of the answer's absolute links: see ``NowHTTPRequest/baseURL``.
    var baseURL: String { request.baseURL }
}
