internal import CYAML
import NowData

/// Writes YAML text through libyaml's emitter: job files (`:save` in the REPL) from ``YAMLNode``s, and values
/// (`:format yaml`) from `JSONValue`s, in block style.
///
/// Scalars keep their meaning when read back: a node's plain scalar stays plain when libyaml allows it, a quoted one
/// stays quoted; a string value that would read as a number, a boolean or null is quoted.
enum YAMLEmitter {
    /// A scalar to write, and whether it may be written plain.
    private struct Scalar {
        var text: String
        var plain: Bool
    }

    /// One emitter event, built in Swift and turned into libyaml's event when emitted.
    private enum Event {
        case scalar(Scalar)
        case sequenceStart
        case sequenceEnd
        case mappingStart
        case mappingEnd
    }

    /// The YAML text of a node.
    static func text(of node: YAMLNode) -> String {
        var events: [Event] = []
        append(node, to: &events)
        return emit(events)
    }

    /// The YAML text of a value; the keys of records are sorted.
    static func text(of value: JSONValue) -> String {
        var events: [Event] = []
        append(value, to: &events)
        return emit(events)
    }

    private static func append(_ node: YAMLNode, to events: inout [Event]) {
        switch node.content {
        case .scalar(let text, let style):
            events.append(.scalar(Scalar(text: text, plain: style == .plain)))
        case .sequence(let items):
            events.append(.sequenceStart)
            for item in items { append(item, to: &events) }
            events.append(.sequenceEnd)
        case .mapping(let pairs):
            events.append(.mappingStart)
            for pair in pairs {
                append(pair.key, to: &events)
                append(pair.value, to: &events)
            }
            events.append(.mappingEnd)
        }
    }

    private static func append(_ value: JSONValue, to events: inout [Event]) {
        switch value {
        case .null: events.append(.scalar(Scalar(text: "null", plain: true)))
        case .bool(let flag): events.append(.scalar(Scalar(text: flag ? "true" : "false", plain: true)))
        case .number(let number): events.append(.scalar(Scalar(text: number.text, plain: true)))
        case .string(let text):
            events.append(.scalar(Scalar(text: text, plain: YAMLScalar(text: text, style: .plain) == .string(text))))
        case .array(let items):
            events.append(.sequenceStart)
            for item in items { append(item, to: &events) }
            events.append(.sequenceEnd)
        case .object(let members):
            events.append(.mappingStart)
            for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                events.append(.scalar(Scalar(text: name, plain: YAMLScalar(text: name, style: .plain) == .string(name))))
                append(member, to: &events)
            }
            events.append(.mappingEnd)
        }
    }

    /// Runs the events through libyaml; returns the text written (empty if libyaml refuses an event, which the
    /// events built above never cause).
    private static func emit(_ events: [Event]) -> String {
        let output = OutputBuffer()
        var emitter = yaml_emitter_t()
        guard yaml_emitter_initialize(&emitter) == 1 else { return "" }
        defer { yaml_emitter_delete(&emitter) }
        yaml_emitter_set_unicode(&emitter, 1)
        yaml_emitter_set_width(&emitter, -1)
        let context = Unmanaged.passUnretained(output).toOpaque()
        yaml_emitter_set_output(
            &emitter,
            { data, buffer, size in
                guard let data, let buffer else { return 0 }
                let output = Unmanaged<OutputBuffer>.fromOpaque(data).takeUnretainedValue()
                output.bytes.append(contentsOf: UnsafeBufferPointer(start: buffer, count: size))
                return 1
            }, context)

        var event = yaml_event_t()
        var ok = yaml_stream_start_event_initialize(&event, YAML_UTF8_ENCODING) == 1 && yaml_emitter_emit(&emitter, &event) == 1
        ok = ok && yaml_document_start_event_initialize(&event, nil, nil, nil, 1) == 1 && yaml_emitter_emit(&emitter, &event) == 1
        for item in events where ok {
            ok = initialize(&event, item) && yaml_emitter_emit(&emitter, &event) == 1
        }
        ok = ok && yaml_document_end_event_initialize(&event, 1) == 1 && yaml_emitter_emit(&emitter, &event) == 1
        ok = ok && yaml_stream_end_event_initialize(&event) == 1 && yaml_emitter_emit(&emitter, &event) == 1
        guard ok, yaml_emitter_flush(&emitter) == 1 else { return "" }
        return String(decoding: output.bytes, as: UTF8.self)
    }

    private static func initialize(_ event: inout yaml_event_t, _ item: Event) -> Bool {
        switch item {
        case .scalar(let scalar):
            // A terminating zero, so that even an empty text has an address.
            var bytes = Array(scalar.text.utf8) + [0]
            return bytes.withUnsafeMutableBufferPointer { buffer in
                yaml_scalar_event_initialize(
                    &event, nil, nil, buffer.baseAddress, Int32(buffer.count - 1), scalar.plain ? 1 : 0, 1,
                    YAML_ANY_SCALAR_STYLE) == 1
            }
        case .sequenceStart:
            return yaml_sequence_start_event_initialize(&event, nil, nil, 1, YAML_BLOCK_SEQUENCE_STYLE) == 1
        case .sequenceEnd:
            return yaml_sequence_end_event_initialize(&event) == 1
        case .mappingStart:
            return yaml_mapping_start_event_initialize(&event, nil, nil, 1, YAML_BLOCK_MAPPING_STYLE) == 1
        case .mappingEnd:
            return yaml_mapping_end_event_initialize(&event) == 1
        }
    }
}

/// The bytes libyaml writes, collected by the output callback.
private final class OutputBuffer {
    var bytes: [UInt8] = []
}
