/// The words of one subcommand, split into positional arguments, options with values and flags.
///
/// `--name value` and `--name=value` are both accepted; an option may repeat (`--var a=1 --var b=2`).
/// An unknown option, a missing value or a flag given a value is a usage error that names the word.
struct CommandArguments {
    /// The arguments that are not options, in order.
    private(set) var positional: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// Parses `words` against the option names (`valued`) and flag names (`flags`), given without `--`.
    init(_ words: some Sequence<String>, valued: Set<String>, flags allowedFlags: Set<String>) throws(UsageError) {
        var iterator = words.makeIterator()
        while let word = iterator.next() {
            guard word.hasPrefix("--"), word.count > 2 else {
                positional.append(word)
                continue
            }
            let body = word.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inlineValue = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            if allowedFlags.contains(name) {
                guard inlineValue == nil else { throw UsageError("option --\(name) takes no value") }
                flags.insert(name)
            } else if valued.contains(name) {
                guard let value = inlineValue ?? iterator.next() else {
                    throw UsageError("option --\(name) needs a value")
                }
                values[name, default: []].append(value)
            } else {
                throw UsageError("unknown option --\(name)")
            }
        }
    }

    /// The last value given for `--name`, if any.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value given for `--name`, in order.
    func values(_ name: String) -> [String] { values[name] ?? [] }

    /// Whether the flag `--name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }
}
