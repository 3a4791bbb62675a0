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
        PathKey(stringValue: camelCase(codingPath.last?.stringValue ?? ""))
    }

    /// The camelCase form of a snake_case key, as `.convertFromSnakeCase` gives it.
    static func camelCase(_ key: String) -> String {
        var hasUnderscore = false
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "_"): hasUnderscore = true
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): continue
            default: return foundationCamelCase(key)
            }
        }
        guard hasUnderscore else { return key }
        let bytes = Array(key.utf8)
        guard let first = bytes.firstIndex(where: { $0 != UInt8(ascii: "_") }),
            let last = bytes.lastIndex(where: { $0 != UInt8(ascii: "_") })
        else { return key }
        var converted = Array(bytes[..<first])
        converted.reserveCapacity(bytes.count)
        var inFirstWord = true
        var previousIsLetter = false
        for byte in bytes[first...last] {
            if byte == UInt8(ascii: "_") {
                inFirstWord = false
                previousIsLetter = false
                continue
            }
            let isLetter = byte >= UInt8(ascii: "a")
            // `capitalized` uppercases a letter that starts a word or follows a digit.
            converted.append(!inFirstWord && isLetter && !previousIsLetter ? byte - 32 : byte)
            previousIsLetter = isLetter
        }
        converted += bytes[(last + 1)...]
        return String(decoding: converted, as: UTF8.self)
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
