/// A dot-separated path into a JSON document, the notion the SDK calls "dot-separated path": `result`,
/// `result.user.photos`, `result.0.number`. An empty path is the document itself.
///
/// Each component names a member of an object; on an array, a component made only of digits is the index of an
/// element (from 0). `-1` and other negative numbers are never indexes: on an object they are keys, on an array an
/// error. Paths are parsed once and used by ``Coder/decode(_:from:at:)``, `JSONDecoder.decode(_:from:at:)`,
/// ``JSONValue/value(at:)`` and job files' `extract:`, with the same answers and the same messages
/// (``DotPathError``).
///
/// ```swift
/// let path = try DotPath("result.0.caller_id")
/// let caller = try page.value(at: path)
/// ```
public struct DotPath: Sendable, Hashable, CustomStringConvertible {
    /// The path as written.
    public let text: String
    /// Its components, as written; empty for the document itself.
    public let components: [String]

    /// Parses `text`.
    ///
    /// - Throws: ``DotPathError`` for an empty component (`a..b`, `.a`, `a.`).
    public init(_ text: String) throws(DotPathError) {
        self.text = text
        guard !text.isEmpty else {
            components = []
            return
        }
        components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if let empty = components.firstIndex(where: \.isEmpty) {
            throw DotPathError(path: text, component: empty, reason: .emptyComponent)
        }
    }

    /// The path of `components` joined by dots: the same path as `DotPath(components.joined(separator: "."))`,
    /// without parsing the text again when the components are ASCII names (as an expression's references are).
    ///
    /// - Throws: ``DotPathError`` for an empty component.
    public init(components: [String]) throws(DotPathError) {
        let text = components.joined(separator: ".")
        guard !components.isEmpty,
            components.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: ".") } })
        else {
            try self.init(text)
            return
        }
        self.init(validated: text, components)
    }

    /// The path of the document itself.
    public static let root = DotPath(validated: "", [])

    private init(validated text: String, _ components: [String]) {
        self.text = text
        self.components = components
    }

    /// The array index a component stands for: a number made only of ASCII digits; nil for anything else.
    public static func index(of component: String) -> Int? {
        guard !component.isEmpty, component.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return Int(component)
    }

    public var description: String { text }
}
