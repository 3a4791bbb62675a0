import Foundation

/// The snake_case to camelCase conversion of `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase`, with the same
/// results (`sys_id` → `sysId`, `avatar_url` → `avatarUrl`, `_a_b_` → `_aB_`), at a fraction of the cost.
///
/// Foundation's own strategy converts through `lowercased()` and `capitalized` for every key and takes about
/// three times as long as decoding without a strategy; ServiceNow's keys are lowercase ASCII, converted here
/// byte by byte. Other keys take Foundation's way.
enum SnakeCase {
    /// `.convertFromSnakeCase`'s strategy as a custom one, for ``Coder/default``.
    static let decodingStrategy = JSONDecoder.KeyDecodingStrategy.custom { codingPath in
        ConvertedKey(stringValue: camelCase(codingPath.last?.stringValue ?? ""))
    }

    /// The key the strategy returns for every JSON key: a string alone, so that it fits in an existential's
    /// inline buffer and returning it allocates nothing (a key that also holds an `Int?` does not fit).
    private struct ConvertedKey: CodingKey {
        let stringValue: String

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) { nil }

        var intValue: Int? { nil }
    }

    /// The camelCase form of a snake_case key, as `.convertFromSnakeCase` gives it.
    ///
    /// It runs for every key of every object decoded, so it reads the key's bytes in place and writes the result
    /// once (keys of up to 15 bytes, most of ServiceNow's, need no allocation at all).
    static func camelCase(_ key: String) -> String {
        var text = key
        let conversion = text.withUTF8 { bytes -> Conversion in
            var hasUnderscore = false
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "_"): hasUnderscore = true
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): continue
                default: return .notLowercaseASCII
                }
            }
            guard hasUnderscore,
                let first = bytes.firstIndex(where: { $0 != UInt8(ascii: "_") }),
                let last = bytes.lastIndex(where: { $0 != UInt8(ascii: "_") })
            else { return .unchanged }
            let inner = bytes[first...last].count { $0 == UInt8(ascii: "_") }
            guard inner > 0 else { return .unchanged }
            return .converted(String(unsafeUninitializedCapacity: bytes.count - inner) { output in
                var count = 0
                _ = convert(bytes, first: first, last: last) { byte in
                    output[count] = byte
                    count += 1
                    return true
                }
                return count
            })
        }
        switch conversion {
        case .unchanged: return key
        case .converted(let camel): return camel
        case .notLowercaseASCII: return foundationCamelCase(key)
        }
    }

    /// Whether ``camelCase(_:)`` turns `key`, made only of a-z, 0-9 and _, into `camel`.
    ///
    /// It compares while it converts, so a key that differs in its first bytes (most of an object's keys, when
    /// a decoder looks one up) is rejected at once, and nothing is allocated.
    @inline(__always)
    static func converts(_ key: UnsafeBufferPointer<UInt8>, to camel: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let keyBytes = key.baseAddress, let camelBytes = camel.baseAddress else {
            return key.count == camel.count
        }
        // The first byte is always kept: a leading underscore, or the first letter of the first word.
        guard keyBytes[0] == camelBytes[0] else { return false }
        let underscore = UInt8(ascii: "_")
        var first = 0
        while first < key.count, keyBytes[first] == underscore {
            first += 1
        }
        guard first < key.count else { return key.elementsEqual(camel) }
        var last = key.count - 1
        while keyBytes[last] == underscore {
            last -= 1
        }
        var position = 0
        let convertedWhole = convert(key, first: first, last: last) { byte in
            guard position < camel.count, camelBytes[position] == byte else { return false }
            position += 1
            return true
        }
        return convertedWhole && position == camel.count
    }

    /// Hands the camelCase bytes of `key` (made only of a-z, 0-9 and _; `first...last` without its leading and
    /// trailing underscores) to `take` one by one; stops, returning false, as soon as `take` returns false.
    @inline(__always)
    private static func convert(
        _ key: UnsafeBufferPointer<UInt8>, first: Int, last: Int, _ take: (UInt8) -> Bool
    ) -> Bool {
        var inFirstWord = true
        var previousIsLetter = false
        for index in key.indices {
            var byte = key[index]
            if index >= first, index <= last {
                if byte == UInt8(ascii: "_") {
                    inFirstWord = false
                    previousIsLetter = false
                    continue
                }
                let isLetter = byte >= UInt8(ascii: "a")
                // `capitalized` uppercases a letter that starts a word or follows a digit.
                if !inFirstWord, isLetter, !previousIsLetter {
                    byte -= 32
                }
                previousIsLetter = isLetter
            }
            guard take(byte) else { return false }
        }
        return true
    }

    private enum Conversion {
        /// No inner underscore: the key stays as it is.
        case unchanged
        case converted(String)
        /// Not only lowercase ASCII letters, digits and underscores: Foundation's way decides.
        case notLowercaseASCII
    }

    /// Foundation's algorithm: leading and trailing underscores kept, the first word lowercased, the others
    /// capitalized; a key without an inner underscore is unchanged.
    private static func foundationCamelCase(_ key: String) -> String {
        guard let first = key.firstIndex(where: { $0 != "_" }),
            let last = key.lastIndex(where: { $0 != "_" })
        else { return key }
        let words = key[first...last].split(separator: "_")
        guard words.count > 1 else { return key }
        let joined = words[0].lowercased() + words.dropFirst().map(\.capitalized).joined()
        return String(key[..<first]) + joined + String(key[key.index(after: last)...])
    }
}
