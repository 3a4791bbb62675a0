import NowFlow

/// The words of one subcommand, split into positional arguments, option values and flags by the command's
/// declared options (``CommandDeclaration/parse(_:)``).
///
/// `--name value` and `--name=value` are both accepted; an option may repeat (`--var a=1 --var b=2`).
/// An unknown option (with the declared name nearest to it, when one is), a missing value or a flag given a value
/// is a usage error that names the word.
struct CommandArguments {
    /// The arguments that are not options, in order.
    private(set) var positional: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// Parses `words` against `options`.
    init(_ words: some Sequence<String>, options: [CommandDeclaration.Option]) throws(UsageError) {
        var iterator = words.makeIterator()
        while let word = iterator.next() {
            guard word.hasPrefix("--"), word.count > 2 else {
                positional.append(word)
                continue
            }
            let body = word.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inlineValue = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            guard let option = options.first(where: { $0.name == name }) else {
                let hint = name.closest(among: options.map(\.name) + ["help"]).map { "; did you mean --\($0)?" }
                throw UsageError("unknown option --\(name)" + (hint ?? ""))
            }
            if case .flag = option.kind {
                guard inlineValue == nil else { throw UsageError("option --\(name) takes no value") }
                flags.insert(name)
            } else {
                guard let value = inlineValue ?? iterator.next() else {
                    throw UsageError("option --\(name) needs a value")
                }
                values[name, default: []].append(value)
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
