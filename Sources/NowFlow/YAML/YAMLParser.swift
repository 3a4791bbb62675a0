internal import CYAML

/// Reads one YAML document into ``YAMLNode``s through libyaml's event API.
///
/// Anchors and aliases are resolved (an alias becomes a copy of the anchored node), duplicate mapping keys and a
/// second document are errors, nesting is limited to ``maximumDepth`` levels and alias expansion to
/// ``maximumNodes`` nodes and ``maximumAliasBytes`` of text (so that a hostile file cannot exhaust memory). Nodes are
/// built in time linear in the document's size. libyaml reads the text's own UTF-8 storage, not a copy of it. Every
/// libyaml resource is freed, also when parsing fails.
///
/// ```swift
/// let root = try YAMLParser.parse("name: demo\nsteps: []")
/// ```
enum YAMLParser {
    /// The deepest nesting of lists and mappings accepted.
    static let maximumDepth = 200
    /// The most nodes a document may hold once its aliases are expanded.
    static let maximumNodes = 1_000_000
    /// The most scalar text aliases may add (16 MB): a large scalar aliased many times is refused although it
    /// counts as few nodes.
    static let maximumAliasBytes = 16 * 1_048_576

    /// Parses `text`; nil when the text holds no document (empty, or only comments).
    static func parse(_ text: String) throws(YAMLError) -> YAMLNode? {
        guard !text.isEmpty else { return nil }
        var contiguous = text
        return try contiguous.withUTF8 { bytes in
            Result { () throws(YAMLError) in try Session(input: bytes).run() }
        }.get()
    }
}

/// One parse: owns the libyaml parser, freed in `deinit`, and reads `input`, which outlives it.
private final class Session {
    /// A collection being read, changed in place (a value copied out of the stack and back would copy its array
    /// on every append: quadratic in the collection's size).
    private final class Frame {
        let isSequence: Bool
        let mark: YAMLMark
        let anchor: String?
        var items: [YAMLNode] = []
        var pairs: [YAMLNode.Pair] = []
        var pendingKey: YAMLNode?
        /// The keys of a mapping of more than ``Session/scannedKeys`` pairs, for the duplicate check (a smaller
        /// one's pairs are looked through: most mappings of a job have a few keys).
        var keys: [String: YAMLMark]?
        /// The nodes and the scalar bytes it holds once its aliases are expanded.
        var weight = 1
        var bytes = 0

        init(isSequence: Bool, mark: YAMLMark, anchor: String?) {
            self.isSequence = isSequence
            self.mark = mark
            self.anchor = anchor
        }
    }

    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let input: UnsafeBufferPointer<UInt8>
    private var stack: [Frame] = []
    private var anchors: [String: (node: YAMLNode, weight: Int, bytes: Int)] = [:]
    private var totalWeight = 0
    /// The scalar bytes aliases have added so far.
    private var aliasBytes = 0
    /// Whether an alias was expanded (then the node limit is most likely an alias bomb's).
    private var expandedAlias = false
    private var root: YAMLNode?
    private var documents = 0

    /// Reads `input`, which is not empty (libyaml needs a non-null input).
    init(input: UnsafeBufferPointer<UInt8>) throws(YAMLError) {
        guard let start = input.baseAddress else {
            throw YAMLError(message: "no input", mark: YAMLMark(line: 1, column: 1))
        }
        self.input = input
        parser = .allocate(capacity: 1)
        guard yaml_parser_initialize(parser) == 1 else {
            parser.deallocate()
            throw YAMLError(message: "out of memory", mark: YAMLMark(line: 1, column: 1))
        }
        yaml_parser_set_input_string(parser, start, input.count)
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
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
                try add(node, weight: 1, bytes: scalar.length, anchor: Self.string(scalar.anchor))
            case YAML_ALIAS_EVENT:
                let name = Self.string(event.data.alias.anchor) ?? ""
                guard let anchored = anchors[name] else {
                    throw YAMLError(
                        message: "unknown alias '*\(name)': no anchor '&\(name)' comes before it", mark: mark)
                }
                aliasBytes += anchored.bytes
                guard aliasBytes <= YAMLParser.maximumAliasBytes else {
                    throw YAMLError(
                        message:
                            "aliases expand to more than \(YAMLParser.maximumAliasBytes / 1_048_576) MB of text ('*\(name)' here)",
                        mark: mark)
                }
                expandedAlias = true
                try add(anchored.node, weight: anchored.weight, bytes: anchored.bytes, anchor: nil)
            case YAML_SEQUENCE_START_EVENT:
                try checkCollectionTag(Self.string(event.data.sequence_start.tag), expected: "seq", mark: mark)
                try push(Frame(isSequence: true, mark: mark, anchor: Self.string(event.data.sequence_start.anchor)))
            case YAML_MAPPING_START_EVENT:
                try checkCollectionTag(Self.string(event.data.mapping_start.tag), expected: "map", mark: mark)
                try push(Frame(isSequence: false, mark: mark, anchor: Self.string(event.data.mapping_start.anchor)))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let frame = stack.popLast() else {
                    throw YAMLError(message: "unbalanced collection end", mark: mark)
                }
                let content: YAMLNode.Content = frame.isSequence ? .sequence(frame.items) : .mapping(frame.pairs)
                // Its items were counted as they came: the collection adds itself.
                try add(
                    YAMLNode(content: content, mark: frame.mark), weight: frame.weight, bytes: frame.bytes,
                    anchor: frame.anchor, added: 1)
            default:
                break
            }
        }
    }

    private func push(_ frame: Frame) throws(YAMLError) {
        guard stack.count < YAMLParser.maximumDepth else {
            throw YAMLError(
                message: "lists and mappings nest deeper than \(YAMLParser.maximumDepth) levels", mark: frame.mark)
        }
        stack.append(frame)
    }

    /// Adds a finished node to the collection being read (or makes it the root). `weight` is the nodes it holds
    /// (itself included, aliases expanded), `added` those not counted yet: all of them for a scalar or an alias,
    /// the collection itself for a collection, whose items were counted as they came.
    private func add(_ node: YAMLNode, weight: Int, bytes: Int, anchor: String?, added: Int? = nil) throws(YAMLError) {
        totalWeight += added ?? weight
        guard totalWeight <= YAMLParser.maximumNodes else {
            throw YAMLError(
                message: expandedAlias
                    ? "the document expands to more than \(YAMLParser.maximumNodes) nodes (aliases of aliases?)"
                    : "the document has more than \(YAMLParser.maximumNodes) nodes; split it into several jobs",
                mark: node.mark)
        }
        if let anchor { anchors[anchor] = (node, weight, bytes) }
        guard let top = stack.last else {
            root = node
            return
        }
        top.weight += weight
        top.bytes += bytes
        if top.isSequence {
            top.items.append(node)
        } else if let pendingKey = top.pendingKey {
            top.pairs.append(YAMLNode.Pair(key: pendingKey, value: node))
            top.pendingKey = nil
        } else {
            guard let name = node.scalarText else {
                throw YAMLError(
                    message: "a mapping key must be a plain value, not \(node.kindDescription)", mark: node.mark)
            }
            if let first = Self.firstMark(of: name, in: top) {
                throw YAMLError(
                    message: "duplicate key '\(name)' (first at line \(first.line), column \(first.column))",
                    mark: node.mark)
            }
            if top.keys != nil {
                top.keys?[name] = node.mark
            } else if top.pairs.count == Self.scannedKeys {
                var keys = [String: YAMLMark](minimumCapacity: 2 * Self.scannedKeys)
                for pair in top.pairs { keys[pair.name] = pair.key.mark }
                keys[name] = node.mark
                top.keys = keys
            }
            top.pendingKey = node
        }
    }

    /// The most pairs a mapping's keys are looked through for a duplicate; a larger mapping keeps a dictionary.
    private static let scannedKeys = 8

    /// Where the mapping being read has the key `name` already.
    private static func firstMark(of name: String, in frame: Frame) -> YAMLMark? {
        if let keys = frame.keys { return keys[name] }
        return frame.pairs.first { $0.key.scalarText == name }?.key.mark
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
            let offset = Int(state.problem_mark.index)
            if offset < input.count, input[offset] == UInt8(ascii: "\t") {
                return YAMLError(
                    message: "tab characters are not allowed for indentation; indent with spaces",
                    mark: Self.mark(state.problem_mark))
            }
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
