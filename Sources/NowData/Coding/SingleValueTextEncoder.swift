import Foundation

/// An `Encoder` that keeps the text of the one string or number encoded into it, so that a `.custom` date encoding
/// strategy can write a field's text without JSON.
final class SingleValueTextEncoder: Encoder, SingleValueEncodingContainer {
    /// The text encoded; nil when nothing, or something other than a string or number, was.
    private(set) var text: String?

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RefusingContainer<Key>())
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { RefusingContainer<PathKey>() }
    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() { text = nil }
    func encode(_ value: String) { text = value }
    func encode(_ value: Bool) { text = nil }
    func encode(_ value: Double) { text = JSONNumber(value)?.text }
    func encode(_ value: Float) { text = JSONNumber(Double(value))?.text }
    func encode(_ value: Int) { text = String(value) }
    func encode(_ value: Int8) { text = String(value) }
    func encode(_ value: Int16) { text = String(value) }
    func encode(_ value: Int32) { text = String(value) }
    func encode(_ value: Int64) { text = String(value) }
    func encode(_ value: UInt) { text = String(value) }
    func encode(_ value: UInt8) { text = String(value) }
    func encode(_ value: UInt16) { text = String(value) }
    func encode(_ value: UInt32) { text = String(value) }
    func encode(_ value: UInt64) { text = String(value) }
    func encode<T: Encodable>(_ value: T) throws { try value.encode(to: self) }
}

/// The container of a value that is not one string or number: everything encoded into it is dropped.
private struct RefusingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol, UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }

    mutating func encodeNil(forKey key: Key) {}
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) {}
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    { KeyedEncodingContainer(RefusingContainer<NestedKey>()) }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { self }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { SingleValueTextEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { SingleValueTextEncoder() }
    mutating func encodeNil() {}
    mutating func encode<T: Encodable>(_ value: T) {}
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    { KeyedEncodingContainer(RefusingContainer<NestedKey>()) }
}
