internal import CYAML

/// Reads one YAML document into ``YAMLNode``s through libyaml's event API.
///
/// Anchors and aliases are resolved (an alias becomes a copy of the anchored node), duplicate mapping keys and a
/// second document are errors, nesting is limited to ``maximumDepth`` levels and alias expansion to
/// ``maximumNodes`` nodes (so that a hostile file cannot exhaust memory). Every libyaml resource is freed, also when
/// parsing fails.
///
/// ```swift
/// let root = try YAMLParser.parse("name: demo\nsteps: []")
/// ```
enum YAMLParser {
    /// The deepest nesting of lists and mappings accepted.
    static let maximumDepth = 200
    /// The most nodes a document may hold once its aliases are expanded.
    static let maximumNodes = 1_000_000

    /// Parses `text`; nil when the text holds no document (empty, or only comments).
    static func parse(_ text: String) throws(YAMLError) -> YAMLNode? {
        let session = try Session(text: text)
        return try session.run()
    }
}

/// One parse: owns the libyaml parser and a copy of the input, both freed in `deinit`.
private final class Session {
    /// A collection being read.
    private enum Frame {
        case sequence(items: [YAMLNode], mark: YAMLMark, anchor: String?, weight: Int)
        case mapping(
            pairs: [YAMLNode.Pair], pendingKey: YAMLNode?, keys: [String: YAMLMark], mark: YAMLMark,
            anchor: String?, weight: Int)
    }

    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let input: UnsafeMutableBufferPointer<UInt8>
    private var stack: [Frame] = []
    private var anchors: [String: (node: YAMLNode, weight: Int)] = [:]
    private var totalWeight = 0
    private var root: YAMLNode?
    private var documents = 0

    init(text: String) throws(YAMLError) {
        let bytes = Array(text.utf8)
        input = .allocate(capacity: max(bytes.count, 1))
        _ = input.initialize(from: bytes)
        parser = .allocate(capacity: 1)
        guard yaml_parser_initialize(parser) == 1 else {
            parser.deallocate()
            input.deallocate()
            throw YAMLError(message: "out of memory", mark: YAMLMark(line: 1, column: 1))
        }
        yaml_parser_set_input_string(parser, input.baseAddress, bytes.count)
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
        input.deallocate()
    }

    func run() throws(YAMLError) -> YAMLNode? {
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(parser, &event) == 1 else { throw parserError() }
            defer { yaml_event_delete(&event) }
            let mark = Self.mark(event.start_mark)
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return root
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                guard documents == 1 else {
                    throw YAMLError(
                        message: "a job file holds one YAML document; a second one starts here", mark: mark)
                }
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let text = String(
                    decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                let tag = Self.string(scalar.tag)
                let style = try Self.style(
                    tag: tag, plain: scalar.style == YAML_PLAIN_SCALAR_STYLE, mark: mark)
                let node = YAMLNode(content: .scalar(text, style), mark: mark)
                try add(node, weight: 1, anchor: Self.string(scalar.anchor))
            case YAML_ALIAS_EVENT:
                let name = Self.string(event.data.alias.anchor) ?? ""
                guard let anchored = anchors[name] else {
                    throw YAMLError(
                        message: "unknown alias '*\(name)': no anchor '&\(name)' comes before it", mark: mark)
                }
                try add(anchored.node, weight: anchored.weight, anchor: nil)
            case YAML_SEQUENCE_START_EVENT:
                try checkCollectionTag(Self.string(event.data.sequence_start.tag), expected: "seq", mark: mark)
                try push(
                    .sequence(items: [], mark: mark, anchor: Self.string(event.data.sequence_start.anchor), weight: 1))
            case YAML_MAPPING_START_EVENT:
                try checkCollectionTag(Self.string(event.data.mapping_start.tag), expected: "map", mark: mark)
                try push(
                    .mapping(
                        pairs: [], pendingKey: nil, keys: [:], mark: mark,
                        anchor: Self.string(event.data.mapping_start.anchor), weight: 1))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let frame = stack.popLast() else {
                    throw YAMLError(message: "unbalanced collection end", mark: mark)
                }
                switch frame {
                case .sequence(let items, let start, let anchor, let weight):
                    try add(YAMLNode(content: .sequence(items), mark: start), weight: weight, anchor: anchor)
                case .mapping(let pairs, _, _, let start, let anchor, let weight):
                    try add(YAMLNode(content: .mapping(pairs), mark: start), weight: weight, anchor: anchor)
                }
            default:
                break
            }
        }
    }

    private func push(_ frame: Frame) throws(YAMLError) {
        guard stack.count < YAMLParser.maximumDepth else {
            let mark: YAMLMark
            switch frame {
            case .sequence(_, let start, _, _), .mapping(_, _, _, let start, _, _): mark = start
            }
            throw YAMLError(
                message: "lists and mappings nest deeper than \(YAMLParser.maximumDepth) levels", mark: mark)
        }
        stack.append(frame)
    }

    /// Adds a finished node to the collection being read (or makes it the root).
    private func add(_ node: YAMLNode, weight: Int, anchor: String?) throws(YAMLError) {
        totalWeight += weight
        guard totalWeight <= YAMLParser.maximumNodes else {
            throw YAMLError(
                message: "the document expands to more than \(YAMLParser.maximumNodes) nodes (aliases of aliases?)",
                mark: node.mark)
        }
        if let anchor { anchors[anchor] = (node, weight) }
        guard let top = stack.popLast() else {
            root = node
            return
        }
        switch top {
        case .sequence(var items, let mark, let anchor, let total):
            items.append(node)
            stack.append(.sequence(items: items, mark: mark, anchor: anchor, weight: total + weight))
        case .mapping(var pairs, let pendingKey, var keys, let mark, let anchor, let total):
            if let pendingKey {
                pairs.append(YAMLNode.Pair(key: pendingKey, value: node))
                stack.append(
                    .mapping(
                        pairs: pairs, pendingKey: nil, keys: keys, mark: mark, anchor: anchor, weight: total + weight))
            } else {
                guard let name = node.scalarText else {
                    throw YAMLError(
                        message: "a mapping key must be a plain value, not \(node.kindDescription)", mark: node.mark)
                }
                if let first = keys[name] {
                    throw YAMLError(
                        message: "duplicate key '\(name)' (first at line \(first.line), column \(first.column))",
                        mark: node.mark)
                }
                keys[name] = node.mark
                stack.append(
                    .mapping(
                        pairs: pairs, pendingKey: node, keys: keys, mark: mark, anchor: anchor, weight: total + weight))
            }
        }
    }

    private func checkCollectionTag(_ tag: String?, expected: String, mark: YAMLMark) throws(YAMLError) {
        guard let tag, tag != "!", tag != "tag:yaml.org,2002:\(expected)" else { return }
        throw YAMLError(message: "unsupported tag '\(tag)'", mark: mark)
    }

    /// The style of a scalar: an explicit `!!str` (or `!`) makes it a string, core-schema tags keep it plain.
    private static func style(tag: String?, plain: Bool, mark: YAMLMark) throws(YAMLError) -> YAMLNode.ScalarStyle {
        guard let tag else { return plain ? .plain : .quoted }
        switch tag {
        case "!", "tag:yaml.org,2002:str": return .quoted
        case "tag:yaml.org,2002:null", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:int",
            "tag:yaml.org,2002:float":
            return .plain
        default: throw YAMLError(message: "unsupported tag '\(tag)'", mark: mark)
        }
    }

    /// libyaml's error, at the position it names.
    private func parserError() -> YAMLError {
        let state = parser.pointee
        let problem = Self.string(state.problem) ?? "unreadable YAML"
        switch state.error {
        case YAML_READER_ERROR:
            return YAMLError(
                message: "\(problem) (byte \(state.problem_offset) of the file)",
                mark: mark(atByteOffset: Int(state.problem_offset)))
        case YAML_MEMORY_ERROR:
            return YAMLError(message: "out of memory", mark: Self.mark(state.problem_mark))
        default:
            var message = problem
            if let context = Self.string(state.context) {
                let start = Self.mark(state.context_mark)
                message += " (\(context) at line \(start.line), column \(start.column))"
            }
            return YAMLError(message: message, mark: Self.mark(state.problem_mark))
        }
    }

    /// The line and column of a byte offset of the input (libyaml gives only the offset for encoding errors).
    private func mark(atByteOffset offset: Int) -> YAMLMark {
        let end = min(max(offset, 0), input.count)
        var line = 1
        var lineStart = 0
        for index in 0..<end where input[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        let column = String(decoding: UnsafeBufferPointer(rebasing: input[lineStart..<end]), as: UTF8.self).count
        return YAMLMark(line: line, column: column + 1)
    }

    private static func mark(_ mark: yaml_mark_t) -> YAMLMark {
        YAMLMark(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
