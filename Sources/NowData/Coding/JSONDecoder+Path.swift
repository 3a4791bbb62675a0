import Foundation

extension JSONDecoder {
    /// Decodes the value found at a dot-separated path (`result`, `result.user.photos`), without a wrapper type.
    ///
    /// The JSON is parsed once and the value at the path is decoded in place; nothing is re-encoded.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data, at path: String) throws -> T {
        let components = path.split(separator: ".").map(String.init)
        guard !components.isEmpty else { return try decode(type, from: data) }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = dateDecodingStrategy
        decoder.keyDecodingStrategy = keyDecodingStrategy
        decoder.dataDecodingStrategy = dataDecodingStrategy
        decoder.nonConformingFloatDecodingStrategy = nonConformingFloatDecodingStrategy
        decoder.userInfo = userInfo
        decoder.userInfo[PathKey.userInfoKey] = components
        return try decoder.decode(AtPath<T>.self, from: data).value
    }
}

/// A coding key made of any string.
struct PathKey: CodingKey {
    static let userInfoKey = CodingUserInfoKey(rawValue: "nowdata.path")!
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Decodes `T` at the path held in the decoder's user info.
private struct AtPath<T: Decodable>: Decodable {
    var value: T

    init(from decoder: any Decoder) throws {
        let path = decoder.userInfo[PathKey.userInfoKey] as? [String] ?? []
        var container = try decoder.container(keyedBy: PathKey.self)
        for component in path.dropLast() {
            container = try container.nestedContainer(keyedBy: PathKey.self, forKey: PathKey(stringValue: component))
        }
        value = try container.decode(T.self, forKey: PathKey(stringValue: path.last ?? ""))
    }
}
