/// A `--var` that the job cannot take: no such variable, or a value not of the variable's type. Its description
/// names the variable, the type and the value: `--var keep=yes: vars.keep is a boolean (declared false); give true
/// or false`.
public struct VariableArgumentError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String
}
