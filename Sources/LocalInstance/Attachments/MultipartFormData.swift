import Foundation
#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `multipart/form-data` body (RFC 7578) taken apart as it arrives: fed chunks of any size (a delimiter may be
/// split across them, down to one byte a chunk), it reports each part's headers, its bytes and its end, in order.
/// It holds no more than one part's headers and a delimiter's length of bytes, whatever the parts weigh.
///
/// ```swift
/// var form = try #require(MultipartFormData(contentType: "multipart/form-data; boundary=XyZ"))
/// try form.feed(chunk) { event in
///     switch event {
///     case .begin(let part): print(part.name, part.fileName ?? "-")
///     case .bytes(let bytes): hasher.update(bytes)
///     case .end: break
///     }
/// }
/// try form.finish()   // throws when the body ended before its closing delimiter
/// ```
struct MultipartFormData {
    /// What the headers of one part say.
    struct Part: Equatable {
        /// The `name` of its `Content-Disposition`.
        var name: String
        /// The `filename` of its `Content-Disposition`, for a file part.
        var fileName: String?
        /// Its `Content-Type`, if given.
        var contentType: String?
    }

    /// What the body held, reported in order as it arrives.
    enum Event {
        /// A part starts (its headers have arrived).
        case begin(Part)
        /// Some bytes of the current part's body, valid only during the call.
        case bytes(UnsafeRawBufferPointer)
        /// The current part is complete.
        case end
    }

    /// A body that is not a well-formed form.
    enum Malformed: Error, Equatable {
        /// Part headers longer than ``maximumHeaderSize``, without a `Content-Disposition` name, or a delimiter
        /// line with something after the boundary.
        case badPart
        /// The body ended before its closing delimiter.
        case truncated
    }

    /// The longest header block one part may have, in bytes.
    static let maximumHeaderSize = 16 * 1024

    private enum State {
        /// Before the first delimiter (a preamble is skipped).
        case preamble
        /// Just after a delimiter: `--` ends the form, else padding and CRLF start a part.
        case delimiterLine
        /// In a part's headers.
        case headers
        /// In a part's body.
        case body
        /// After the closing delimiter (an epilogue is skipped).
        case done
    }

    /// `CRLF--boundary`: what ends every part (the body is read as if a CRLF came before its first byte).
    private let delimiter: [UInt8]
    private var state = State.preamble
    /// The bytes kept from the previous chunks: a possible start of a delimiter, or headers not yet complete.
    private var pending: [UInt8] = [0x0D, 0x0A]

    /// A parser for the body of a request whose `Content-Type` is `contentType`; nil when it is not
    /// multipart/form-data with a boundary.
    init?(contentType: String) {
        guard contentType.lowercased().hasPrefix("multipart/form-data"),
            let boundary = Self.parameter("boundary", in: contentType), !boundary.isEmpty, boundary.utf8.count <= 200
        else { return nil }
        delimiter = Array("\r\n--\(boundary)".utf8)
    }

    /// Whether the closing delimiter has arrived.
    var isComplete: Bool {
        if case .done = state { return true }
        return false
    }

    /// Parses the next chunk of the body, reporting what it completes to `handle` (which may throw, to stop).
    mutating func feed(_ chunk: UnsafeRawBufferPointer, _ handle: (Event) throws -> Void) throws {
        guard !chunk.isEmpty, !isComplete else { return }
        if pending.isEmpty {
            let used = try parse(chunk, handle)
            pending.append(contentsOf: chunk[used...])
        } else {
            // Taken out while parsed (parsing changes the state beside it), so that it is never copied.
            var buffer: [UInt8] = []
            swap(&buffer, &pending)
            buffer.append(contentsOf: chunk)
            let used = try buffer.withUnsafeBytes { try parse($0, handle) }
            buffer.removeFirst(used)
            pending = buffer
        }
    }

    /// Checks that the body ended with its closing delimiter.
    func finish() throws(Malformed) {
        guard isComplete else { throw .truncated }
    }

    /// Parses as much of `bytes` as can be; returns how many bytes were used (the rest is kept for the next chunk).
    private mutating func parse(_ bytes: UnsafeRawBufferPointer, _ handle: (Event) throws -> Void) throws -> Int {
        var cursor = 0
        while cursor < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[cursor...])
            switch state {
            case .preamble, .body:
                let inBody: Bool
                if case .body = state { inBody = true } else { inBody = false }
                if let found = Self.find(delimiter, in: rest) {
                    if inBody {
                        if found > 0 { try handle(.bytes(UnsafeRawBufferPointer(rebasing: rest[..<found]))) }
                        try handle(.end)
                    }
                    cursor += found + delimiter.count
                    state = .delimiterLine
                } else {
                    // Everything but a tail that may start a delimiter is the part's (or the preamble's).
                    let kept = Self.delimiterPrefixLength(atEndOf: rest, delimiter)
                    let used = rest.count - kept
                    if inBody, used > 0 { try handle(.bytes(UnsafeRawBufferPointer(rebasing: rest[..<used]))) }
                    return cursor + used
                }
            case .delimiterLine:
                if rest.count >= 2, rest[0] == UInt8(ascii: "-"), rest[1] == UInt8(ascii: "-") {
                    state = .done
                    return bytes.count
                }
                guard let lineEnd = Self.find(Self.crlf, in: rest) else {
                    if rest.count > 256 || rest.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D && $0 != 0x2D }) {
                        throw Malformed.badPart
                    }
                    return cursor
                }
                // Only linear white space may follow the boundary on its line.
                guard rest[..<lineEnd].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { throw Malformed.badPart }
                cursor += lineEnd + 2
                state = .headers
            case .headers:
                let headerLength: Int
                let used: Int
                if rest.count >= 2, rest[0] == 0x0D, rest[1] == 0x0A {
                    (headerLength, used) = (0, 2)
                } else if let end = Self.find(Self.headerEnd, in: rest) {
                    (headerLength, used) = (end, end + 4)
                } else {
                    guard rest.count <= Self.maximumHeaderSize else { throw Malformed.badPart }
                    return cursor
                }
                guard headerLength <= Self.maximumHeaderSize,
                    let part = Self.part(String(decoding: rest[..<headerLength], as: UTF8.self))
                else { throw Malformed.badPart }
                try handle(.begin(part))
                cursor += used
                state = .body
            case .done:
                return bytes.count
            }
        }
        return cursor
    }

    private static let crlf: [UInt8] = [0x0D, 0x0A]
    private static let headerEnd: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]

    /// The offset of the first occurrence of `needle` in `bytes` (`memchr` for its first byte, then `memcmp`).
    private static func find(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, let first = needle.first, bytes.count >= needle.count else { return nil }
        return needle.withUnsafeBytes { needleBytes -> Int? in
            guard let needleBase = needleBytes.baseAddress else { return nil }
            let last = bytes.count - needle.count
            var offset = 0
            while offset <= last {
                guard let hit = memchr(base + offset, Int32(first), last - offset + 1) else { return nil }
                let found = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + found, needleBase, needle.count) == 0 { return found }
                offset = found + 1
            }
            return nil
        }
    }

    /// The length of the longest tail of `bytes` that is a beginning of `delimiter` (shorter than it).
    private static func delimiterPrefixLength(atEndOf bytes: UnsafeRawBufferPointer, _ delimiter: [UInt8]) -> Int {
        var length = min(bytes.count, delimiter.count - 1)
        while length > 0 {
            let start = bytes.count - length
            if bytes[start] == delimiter[0], bytes[start...].elementsEqual(delimiter[..<length]) { return length }
            length -= 1
        }
        return 0
    }

    /// The part its header block describes; nil without a `Content-Disposition` of form-data with a name.
    private static func part(_ headerText: String) -> Part? {
        var name: String?
        var fileName: String?
        var contentType: String?
        for line in headerText.components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() {
            case "content-disposition":
                name = parameter("name", in: value)
                fileName = parameter("filename", in: value)
            case "content-type":
                contentType = value
            default:
                break
            }
        }
        return name.map { Part(name: $0, fileName: fileName, contentType: contentType) }
    }

    /// The value of `name=value` or `name="value"` (a quoted string, `\` escaping the next character) among the
    /// `;`-separated parameters of a header value; a `;` inside quotes is part of the value.
    static func parameter(_ name: String, in value: String) -> String? {
        var characters = Substring(value)
        // The value itself (`form-data`, `multipart/form-data`) comes first.
        guard let firstSemicolon = characters.firstIndex(of: ";") else { return nil }
        characters = characters[characters.index(after: firstSemicolon)...]
        while !characters.isEmpty {
            characters = characters.drop { $0 == " " || $0 == "\t" }
            let key = characters.prefix { $0 != "=" && $0 != ";" }
            characters = characters.dropFirst(key.count)
            var text = ""
            if characters.first == "=" {
                characters = characters.dropFirst().drop { $0 == " " || $0 == "\t" }
                if characters.first == "\"" {
                    characters = characters.dropFirst()
                    var escaped = false
                    while let character = characters.first {
                        characters = characters.dropFirst()
                        if escaped {
                            text.append(character)
                            escaped = false
                        } else if character == "\\" {
                            escaped = true
                        } else if character == "\"" {
                            break
                        } else {
                            text.append(character)
                        }
                    }
                    characters = characters.drop { $0 != ";" }
                } else {
                    let raw = characters.prefix { $0 != ";" }
                    text = raw.trimmingCharacters(in: .whitespaces)
                    characters = characters.dropFirst(raw.count)
                }
            }
            if characters.first == ";" { characters = characters.dropFirst() }
            if key.trimmingCharacters(in: .whitespaces).lowercased() == name { return text }
        }
        return nil
    }
}
