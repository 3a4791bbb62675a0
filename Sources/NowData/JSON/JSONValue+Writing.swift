import Foundation

extension JSONValue {
    /// The value as UTF-8 JSON text: compact, or indented by two spaces a level; object members in their order.
    public func jsonData(pretty: Bool = false) -> Data {
        var writer = JSONWriter()
        write(to: &writer, indent: pretty ? 0 : nil)
        return writer.data
    }

    /// The value as JSON text: compact, or indented by two spaces a level; object members in their order.
    public func jsonText(pretty: Bool = false) -> String {
        var writer = JSONWriter()
        write(to: &writer, indent: pretty ? 0 : nil)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Writes the value; `indent` is the current level when pretty-printing, nil for compact text.
    package func write(to writer: inout JSONWriter, indent: Int? = nil) {
        switch self {
        case .null: writer.raw("null")
        case .bool(let value): value ? writer.raw("true") : writer.raw("false")
        case .number(let number): writer.raw(number.text.utf8)
        case .string(let text): writer.string(text)
        case .array(let elements):
            writer.raw(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { writer.raw(UInt8(ascii: ",")) }
                Self.newLine(&writer, indent.map { $0 + 1 })
                element.write(to: &writer, indent: indent.map { $0 + 1 })
            }
            if !elements.isEmpty { Self.newLine(&writer, indent) }
            writer.raw(UInt8(ascii: "]"))
        case .object(let members):
            writer.raw(UInt8(ascii: "{"))
            for (position, member) in members.enumerated() {
                if position > 0 { writer.raw(UInt8(ascii: ",")) }
                Self.newLine(&writer, indent.map { $0 + 1 })
                writer.key(member.key)
                if indent != nil { writer.raw(UInt8(ascii: " ")) }
                member.value.write(to: &writer, indent: indent.map { $0 + 1 })
            }
            if !members.isEmpty { Self.newLine(&writer, indent) }
            writer.raw(UInt8(ascii: "}"))
        }
    }

    private static func newLine(_ writer: inout JSONWriter, _ indent: Int?) {
        guard let indent else { return }
        writer.raw(UInt8(ascii: "\n"))
        for _ in 0..<indent { writer.raw("  ") }
    }
}
