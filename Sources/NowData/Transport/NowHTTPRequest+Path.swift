import Foundation

extension NowHTTPRequest {
    /// `text` percent-encoded as one path segment: every byte of its UTF-8 outside RFC 3986's unreserved
    /// characters (`A-Z a-z 0-9 - . _ ~`) is written `%XX`, so that a `/`, `?`, `#`, `%`, a space or a non-ASCII
    /// letter stays part of the segment. A segment that is only dots (`.`, `..`) has its dots encoded too, so that
    /// no URL normalisation reads it as a step up the path.
    ///
    /// ```swift
    /// let path = "/api/now/table/" + NowHTTPRequest.percentEncodedPathSegment("my table")
    /// // "/api/now/table/my%20table"
    /// ```
    public static func percentEncodedPathSegment(_ text: String) -> String {
        let isDotSegment = text == "." || text == ".."
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte), !isDotSegment {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// Whether `path` can go on the wire as it is: only characters RFC 3986 allows in a path (unreserved, the
    /// sub-delimiters `!$&'()*+,;=`, `:`, `@` and `/`), and every `%` followed by two hexadecimal digits.
    static func isPercentEncodedPath(_ path: String) -> Bool {
        var bytes = path.utf8.makeIterator()
        while let byte = bytes.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = bytes.next(), let low = bytes.next(), isHexDigit(high), isHexDigit(low) else {
                    return false
                }
            } else if !isUnreserved(byte), !pathSymbols.contains(byte) {
                return false
            }
        }
        return true
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// The characters a path may hold besides the unreserved ones and percent-encoded bytes.
    private static let pathSymbols = Set("!$&'()*+,;=:@/".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "F"),
            UInt8(ascii: "a")...UInt8(ascii: "f"):
            true
        default:
            false
        }
    }
}
