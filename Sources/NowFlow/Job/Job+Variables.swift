import NowData

extension Job {
    /// A `--var name=value` as the value of the job's variable `name`, of the type its declaration gives: a
    /// variable declared `false` takes `true` or `false`, one declared `3` a number, one declared `"text"` the text
    /// as it is (`007` stays `007`); one declared by an expression, a list or null reads it as YAML reads a plain
    /// scalar (`true`, `2` and `null` keep their types).
    ///
    /// - Throws: ``VariableArgumentError`` naming the variable, its type and the value, when the value is not of
    ///   that type or the job has no such variable.
    public func value(ofVariable name: String, argument: String) throws(VariableArgumentError) -> JSONValue {
        guard let declared = declaration(of: name) else {
            let names = variableNames.isEmpty ? "it declares none" : "it declares \(variableNames.joined(separator: ", "))"
            throw VariableArgumentError(description: "--var \(name): the job has no variable '\(name)' under vars: (\(names))")
        }
        let read = JobRunner.value(ofArgument: argument)
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
        case .value(.string):
            return .string(argument)
        default:
            break
        }
        guard let read else {
            throw VariableArgumentError(description: "--var \(name): '\(argument)' is a number JSON cannot hold")
        }
        return read
    }

    /// A value given for the job's variable `name` by a vars file or an include's `with:` (`source` names it in
    /// messages), checked against the type its declaration gives as ``value(ofVariable:argument:)`` checks a
    /// `--var`: a variable declared `false` takes a boolean, one declared `3` a number, one declared as a text any
    /// text, number or boolean (as its text); one declared by an expression, a list or null takes any value.
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
}
