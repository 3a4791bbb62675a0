import Foundation

/// A model property the Table API sends as a string, decoded to its type and encoded back to the string.
///
/// ```swift
/// struct Incident: SysIdentifiableModel {
///     var sysId: String = ""
///     var number: String
///     @NowValue var priority: Int
///     @NowValue var active: Bool
///     @NowValue var openedAt: Date
///     @NowValue var resolvedAt: Date?          // "" or a missing key is nil
///     @NowValue var callerId: NowReference?
/// }
/// ```
///
/// It works with any `JSONDecoder`: dates go through the decoder's own date strategy (a `.custom` coder's
/// ISO 8601, say), except that a strategy reading numbers (`.deferredToDate`) falls back to ServiceNow's
/// format. A string that does not convert is a `DecodingError.dataCorrupted` at the property's coding path
/// whose `underlyingError` is ``NowDataError/cannotDecodeProperty(type:from:)``. Plain `String` properties need
/// no wrapper.
@propertyWrapper
public struct NowValue<Value: NowValueConvertible> {
    /// The typed value.
    public var wrappedValue: Value

    /// Wraps a value.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }
}

extension NowValue: Codable {
    public init(from decoder: any Decoder) throws {
        wrappedValue = try Value(nowValueFrom: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try wrappedValue.encodeNowValue(to: encoder)
    }
}

extension NowValue: Equatable where Value: Equatable {}
extension NowValue: Hashable where Value: Hashable {}
extension NowValue: Sendable where Value: Sendable {}
