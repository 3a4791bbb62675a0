import NowData

/// The value of a scalar under the YAML 1.2 core schema.
///
/// Only plain scalars are resolved: `true`/`false` (any of `true`, `True`, `TRUE`), `null`/`~`/empty, integers
/// (decimal, `0o` octal, `0x` hexadecimal) and floats (`.inf`, `.nan` included). `yes`, `no`, `on` and `off` stay
/// strings, as YAML 1.2 says. Quoted scalars are always strings.
///
/// A number keeps the text written in the file when that text is a JSON number (`2800`, `0.10`, `1e3`), so that
/// it reaches a request as written; other spellings become their decimal value (`0x1F` is `31`, `+5` is `5`).
enum YAMLScalar: Sendable, Hashable {
    case null
    case bool(Bool)
    /// An integer, or a finite float.
    case number(JSONNumber)
    /// `.inf`, `-.inf` or `.nan`, as written: a float that JSON, and so a job's values, cannot hold.
    case nonFinite(String)
    case string(String)

    init(text: String, style: YAMLNode.ScalarStyle) {
        guard style == .plain else {
            self = .string(text)
            return
        }
        switch text {
        case "", "~", "null", "Null", "NULL": self = .null
        case "true", "True", "TRUE": self = .bool(true)
        case "false", "False", "FALSE": self = .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN":
            self = .nonFinite(text)
        default:
            if let value = Self.integer(text) {
                self = .number(JSONNumber(text: text) ?? JSONNumber(value))
            } else if Self.isFloat(text), let number = JSONNumber(text: text) ?? Double(text).flatMap(JSONNumber.init) {
                self = .number(number)
            } else if Self.isFloat(text) {
                self = .nonFinite(text)
            } else {
                self = .string(text)
            }
        }
    }

    /// The number of a scalar that is an integer as YAML writes one (`12`, `0x1F`; not `1e3` or `2.0`), when it
    /// fits an `Int`.
    var wholeNumber: Int? {
        guard case .number(let number) = self else { return nil }
        return Int(number.text)
    }

    /// `[-+]?[0-9]+`, `0o[0-7]+`, `0x[0-9a-fA-F]+`.
    private static func integer(_ text: String) -> Int? {
        if text.hasPrefix("0o") { return Int(text.dropFirst(2), radix: 8) }
        if text.hasPrefix("0x") { return Int(text.dropFirst(2), radix: 16) }
        var digits = Substring(text)
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
    private static func isFloat(_ text: String) -> Bool {
        var rest = Substring(text)
        if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
        let integerDigits = rest.prefix { $0.isASCII && $0.isNumber }
        rest = rest.dropFirst(integerDigits.count)
        var fractionDigits = Substring()
        if rest.first == "." {
            rest = rest.dropFirst()
            fractionDigits = rest.prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(fractionDigits.count)
        }
        guard !integerDigits.isEmpty || !fractionDigits.isEmpty else { return false }
        if rest.first == "e" || rest.first == "E" {
            rest = rest.dropFirst()
            if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
            let exponent = rest.prefix { $0.isASCII && $0.isNumber }
            guard !exponent.isEmpty else { return false }
            rest = rest.dropFirst(exponent.count)
        }
        return rest.isEmpty
    }
}
