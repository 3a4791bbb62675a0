import Foundation

/// How a JSON key finds a model's `CodingKey`: the rule of ``Coder``'s decoding.
///
/// A JSON key matches a `CodingKey` when it is spelled as the key's `stringValue`, or when the decoder's key
/// strategy turns it into the key's `stringValue`. So under ``Coder/default`` (snake_case to camelCase) a model
/// decodes the same whether it has no `CodingKeys` (`sysId` finds `sys_id`), `CodingKeys` with the wire names
/// (`case sysId = "sys_id"`), or dot-walked keys spelled either way (`"caller_id.name"` or `"callerId.name"`).
/// Of two JSON keys that both match one `CodingKey`, the first in the document wins on the fast path; through
/// `JSONDecoder` (which does not tell the order), the one spelled as the key does.
enum KeyMatching {
    /// The `CodingKey` of type `Key` that the JSON key `name` stands for: its converted spelling when `Key` has
    /// one, else its spelling as written.
    static func key<Key: CodingKey>(_ type: Key.Type, for name: String, converting convert: (String) -> String)
        -> Key?
    {
        Key(stringValue: convert(name)) ?? Key(stringValue: name)
    }

    /// The conversion a key decoding strategy applies to a JSON key at `codingPath`; nil for `.useDefaultKeys`,
    /// where the spelling as written is the only match.
    static func conversion(of strategy: JSONDecoder.KeyDecodingStrategy, at codingPath: [any CodingKey])
        -> ((String) -> String)?
    {
        switch strategy {
        case .useDefaultKeys:
            return nil
        case .convertFromSnakeCase:
            return SnakeCase.camelCase
        case .custom(let convert):
            return { name in convert(codingPath + [PathKey(stringValue: name)]).stringValue }
        @unknown default:
            return nil
        }
    }
}
