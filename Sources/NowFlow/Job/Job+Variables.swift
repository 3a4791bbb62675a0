import NowData

extension Job {
    /// A `--var name=value` as the value of the job's variable `name`, of the type its declaration gives: a
    /// variable declared `false` takes `true` or `false`, one declared `3` a number, one declared `"text"` the text
    /// as it is (`007` stays `007`), one declared as a list (`[Database]`) a list and one declared as a mapping a
    /// mapping, both in YAML flow syntax (`[Database, Network]`, `{group: Network, max: 5}`, JSON being part of
    /// it); one declared by an expression or null reads it as YAML reads a plain scalar (`true`, `2` and `null` keep
    /// their types), or as a flow list or mapping when it starts with `[` or `{` and is one (as text otherwise).
    ///
    /// - Throws: ``VariableArgumentError`` naming the variable, its type and the value, when the value is not of
    ///   that type or the job has no such variable.
    public func value(ofVariable name: String, argument: String) throws(VariableArgumentError) -> JSONValue {
        guard let declared = declaration(of: name) else {
            let names = variableNames.isEmpty ? "it declares none" : "it declares \(variableNames.joined(separator: ", "))"
            throw VariableArgumentError(description: "--var \(name): the job has no variable '\(name)' under vars: (\(names))")
        }
        let collection = declared.collectionKind
        if case .value(.string) = declared { return .string(argument) }
        let flow = argument.first == "[" || argument.first == "{"
        if let collection, !flow {
            let example = if case .array = collection { "[a, b]" } else { "{a: 1, b: x}" }
            throw VariableArgumentError(
                description: "--var \(name)=\(argument): vars.\(name) is \(collection.kindDescription) (declared \(declared.flowText)); give one in YAML flow syntax, such as \(example)")
        }
        let read: JSONValue?
        if flow, collection != nil {
            read = try Self.flowValue(argument, of: name, textItems: declared.hasTextItems)
        } else if flow {
            read = (try? Self.flowValue(argument, of: name, textItems: false)) ?? .string(argument)
        } else {
            read = JobRunner.value(ofArgument: argument)
        }
        switch declared {
        case .value(.bool(let flag)):
            guard case .bool? = read else {
                throw VariableArgumentError(
                    description: "--var \(name)=\(argument): vars.\(name) is a boolean (declared \(flag)); give true or false")
            }
        case .value(.number(let number)):
            guard case .number? = read else {
                throw VariableArgumentError(
                    description: "--var \(name)=\(argument): vars.\(name) is a number (declared \(number.text)); '\(argument)' is not a number")
            }
        default:
            break
        }
        guard let read else {
            throw VariableArgumentError(description: "--var \(name): '\(argument)' is a number JSON cannot hold")
        }
        if let collection, read.kindDescription != collection.kindDescription {
            throw VariableArgumentError(
                description: "--var \(name)=\(argument): vars.\(name) is \(collection.kindDescription) (declared \(declared.flowText)), not \(read.kindDescription)")
        }
        return read
    }

    /// A value given for the job's variable `name` by a vars file or an include's `with:` (`source` names it in
    /// messages), checked against the type its declaration gives as ``value(ofVariable:argument:)`` checks a
    /// `--var`: a variable declared `false` takes a boolean, one declared `3` a number, one declared as a text any
    /// text, number or boolean (as its text), one declared as a list a list and one declared as a mapping a
    /// mapping; one declared by an expression or null takes any value.
    ///
    /// - Throws: ``VariableArgumentError`` naming the source, the variable, its type and the value's kind.
    public func value(ofVariable name: String, given value: JSONValue, from source: String) throws(VariableArgumentError)
        -> JSONValue
    {
        guard let declared = declaration(of: name) else {
            let names = variableNames.isEmpty ? "it declares none" : "it declares \(variableNames.joined(separator: ", "))"
            throw VariableArgumentError(description: "\(source): the job has no variable '\(name)' (\(names))")
        }
        func refused(_ type: String, _ declared: String) -> VariableArgumentError {
            VariableArgumentError(
                description: "\(source): vars.\(name) is \(type) (declared \(declared)), not \(value.kindDescription)")
        }
        if let collection = declared.collectionKind {
            guard value.kindDescription == collection.kindDescription else {
                throw refused(collection.kindDescription, declared.flowText)
            }
            return declared.textItems(value)
        }
        switch (declared, value) {
        case (.value(.bool), .bool), (.value(.number), .number), (.value(.string), .string):
            return value
        case (.value(.bool(let flag)), _): throw refused("a boolean", "\(flag)")
        case (.value(.number(let number)), _): throw refused("a number", number.text)
        case (.value(.string), .number(let number)): return .string(number.text)
        case (.value(.string), .bool(let flag)): return .string(flag ? "true" : "false")
        case (.value(.string(let text)), _): throw refused("a string", "'\(text)'")
        default: return value
        }
    }

    /// What declares the variable `name`: its `vars:` entry, else the last of the job's `vars_files` that gives it.
    func declaration(of name: String) -> TemplateValue? {
        vars.first(where: { $0.name == name })?.value
            ?? fileVariables.last(where: { $0.name == name }).map { .value($0.value) }
    }

    /// A `--var` argument in YAML flow syntax (`[a, b]`, `{a: 1}`) as a value, with the numbers and booleans of a
    /// list as the text written when `textItems` (`[007]` is `["007"]`); its YAML error otherwise.
    private static func flowValue(_ argument: String, of name: String, textItems: Bool) throws(VariableArgumentError)
        -> JSONValue?
    {
        let node: YAMLNode?
        do {
            node = try YAMLParser.parse(argument)
        } catch {
            throw VariableArgumentError(
                description: "--var \(name)=\(argument): not a YAML flow list or mapping: \(error.message)")
        }
        var problem: String?
        func json(_ node: YAMLNode) -> JSONValue? {
            VarsFile.json(of: node) { _, message in problem = problem ?? message }
        }
        let value: JSONValue?
        if textItems, let items = node?.items {
            value = .array(
                items.compactMap { item in
                    switch json(item) {
                    case .number?, .bool?: item.scalarText.map(JSONValue.string)
                    case let other: other
                    }
                })
        } else {
            value = node.flatMap(json)
        }
        if let problem { throw VariableArgumentError(description: "--var \(name)=\(argument): \(problem)") }
        return value
    }
}

extension TemplateValue {
    /// An empty array or object when the value is a list or a mapping (written so, or as a literal), nil otherwise.
    fileprivate var collectionKind: JSONValue? {
        switch self {
        case .array, .value(.array): .array([])
        case .object, .value(.object): .object(JSONObject())
        case .value, .template: nil
        }
    }

    /// The value as the job file writes it in YAML flow syntax, for messages: `[Database, Network]`; cut after 60
    /// characters.
    fileprivate var flowText: String {
        let text: String =
            switch self {
            case .value(.string(let text)): text
            case .value(.array(let items)): "[" + items.map { TemplateValue.value($0).flowText }.joined(separator: ", ") + "]"
            case .value(.object(let members)):
                "{" + members.map { "\($0.key): \(TemplateValue.value($0.value).flowText)" }.joined(separator: ", ") + "}"
            case .value(let value): value.text
            case .template(let template): template.source
            case .array(let items): "[" + items.map(\.flowText).joined(separator: ", ") + "]"
            case .object(let pairs): "{" + pairs.map { "\($0.name): \($0.value.flowText)" }.joined(separator: ", ") + "}"
            }
        return text.count > 60 ? text.prefix(57) + "..." : text
    }

    /// Whether the value is a list declared with texts only (`ids: ["007"]`): given numbers and booleans are taken
    /// as their text, as a variable declared as a text takes them.
    fileprivate var hasTextItems: Bool {
        let items: [TemplateValue] =
            switch self {
            case .value(.array(let items)): items.map(TemplateValue.value)
            case .array(let items): items
            default: []
            }
        return !items.isEmpty && items.allSatisfy { if case .value(.string) = $0 { true } else { false } }
    }

    /// `value` with its numbers and booleans as their text when ``hasTextItems`` (`[8, true]` is `["8", "true"]`).
    fileprivate func textItems(_ value: JSONValue) -> JSONValue {
        guard hasTextItems, case .array(let given) = value else { return value }
        return .array(
            given.map { item in
                switch item {
                case .number(let number): .string(number.text)
                case .bool(let flag): .string(flag ? "true" : "false")
                default: item
                }
            })
    }
}
