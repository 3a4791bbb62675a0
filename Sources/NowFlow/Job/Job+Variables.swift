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
        guard let declared = vars.first(where: { $0.name == name })?.value else {
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
}
