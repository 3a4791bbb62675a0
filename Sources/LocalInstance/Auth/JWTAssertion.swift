import Foundation
import NowData

/// A JSON Web Token in its compact form (RFC 7519: `header.claims.signature`, each base64url without padding), as
/// the JWT bearer grant receives it: read, not yet trusted. ``JWTAssertion/init(_:)`` only decodes it; the grant
/// checks the algorithm, the signature and the claims.
struct JWTAssertion: Sendable {
    /// The JOSE header.
    var header: JSONObject
    /// The claims set.
    var claims: JSONObject
    /// What the signature signs: the first two parts as sent, with the dot between them.
    var signingInput: [UInt8]
    /// The signature's bytes.
    var signature: [UInt8]

    /// The most bytes an assertion may have (a JWT with a few claims and a 4096-bit signature is under 2 KB).
    static let maximumLength = 16_384

    /// Decodes a compact JWT.
    ///
    /// - Throws: a ``JWTBearerRefusal`` saying which part is malformed (never repeating the text).
    init(_ text: String) throws(JWTBearerRefusal) {
        guard text.utf8.count <= Self.maximumLength else {
            throw JWTBearerRefusal("the assertion is longer than \(Self.maximumLength) bytes")
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw JWTBearerRefusal(
                "the assertion is not a signed JWT: it has \(parts.count) parts, not header.claims.signature")
        }
        header = try Self.object(parts[0], "header")
        claims = try Self.object(parts[1], "claims")
        guard let signature = Self.base64URLDecoded(parts[2]) else {
            throw JWTBearerRefusal("the assertion's signature is not base64url")
        }
        self.signature = signature
        signingInput = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
    }

    /// The JSON object a part encodes.
    private static func object(_ part: Substring, _ name: String) throws(JWTBearerRefusal) -> JSONObject {
        guard let bytes = base64URLDecoded(part) else {
            throw JWTBearerRefusal("the assertion's \(name) is not base64url")
        }
        guard let value = try? JSONValue(json: Data(bytes)), let object = value.object else {
            throw JWTBearerRefusal("the assertion's \(name) is not a JSON object")
        }
        return object
    }

    /// The bytes of unpadded base64url text (RFC 7515 §2); nil for any other character, or padding.
    static func base64URLDecoded(_ text: Substring) -> [UInt8]? {
        guard text.utf8.count % 4 != 1,
            text.utf8.allSatisfy({ byte in
                (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                    || byte == 0x2D || byte == 0x5F
            })
        else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: standard).map(Array.init)
    }

    /// The claim `name` as a string, if it is one.
    func string(_ name: String) -> String? {
        claims[name]?.string
    }

    /// The claim `name` as NumericDate (seconds since 1970, RFC 7519 §2), if it is a number.
    func date(_ name: String) -> Date? {
        claims[name]?.number.map { Date(timeIntervalSince1970: $0.double) }
    }

    /// The audiences: the `aud` claim's string, or its array's strings (RFC 7519 §4.1.3).
    var audiences: [String] {
        switch claims["aud"] {
        case .string(let audience)?: [audience]
        case .array(let elements)?: elements.compactMap(\.string)
        default: []
        }
    }
}
