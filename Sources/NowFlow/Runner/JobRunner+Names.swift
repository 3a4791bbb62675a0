import Foundation
import NowData

extension JobRunner {
    /// Checks every table and field name the job writes literally (tables, `where:` keys, `fields:`, `order_by:`,
    /// the fields and orderings of an encoded `query:`, and dot-walks through reference fields) against the instance's dictionary, before anything is sent: an
    /// unknown name would otherwise be ignored by the instance, and a `where:` with a typo match every record.
    /// Only reads are sent.
    ///
    /// A value a condition (a `where:` or `match:` value, a condition of a literal `query:`) compares a field with
    /// is checked against the field's type and choices (``ConditionField``): one the instance could not compare,
    /// and would ignore, widening the query, is an error. A value a create or update writes to a choice field that
    /// is neither one of its values nor a label (`sys_choice`) is a warning naming the choices. (A `where:` over an
    /// empty list written in the file is the file's own warning, ``Job/warnings``.)
    ///
    /// - Returns: a diagnostic with the name's position and a did-you-mean for each unknown name, and the warnings
    ///   (``Diagnostic/isWarning``); or why the names could not be checked (``NameCheck/notChecked``): the
    ///   instance is unreachable, refuses the credentials, will not show its dictionary (its tables refused, say;
    ///   this one also refuses a run), or the job's values cannot be prepared.
    public func checkNames() async -> NameCheck {
        let uses = job.names
        guard !uses.isEmpty else { return NameCheck() }
        let preparation: Preparation
        do {
            preparation = try prepare()
        } catch {
            return NameCheck(notChecked: error.message)
        }
        let service = preparation.service
        var dictionary: InstanceDictionary
        let tables = Set(uses.map { $0.table ?? $0.name })
        let cached = options.refreshSchema ? nil : options.schemaCache.flatMap {
            InstanceDictionary.cached(at: $0, maximumAge: Self.schemaCacheAge)
        }
        do {
            if var cached {
                try await cached.loadFields(of: tables, service: service)
                dictionary = cached
            } else {
                dictionary = try await InstanceDictionary.load(tables: tables, service: service)
            }
        } catch {
            // Unreachable, or the credentials refused: the run's first request fails the same way, and says so.
            switch error as? NowDataError {
            case .network(let failure)?: return NameCheck(notChecked: preparation.masker(failure.reason))
            case .accessToken(let failure)?:
                return NameCheck(notChecked: preparation.masker("the instance refused the credentials (\(failure))"))
            case .badResponse(let status)? where status.code == 401:
                return NameCheck(notChecked: preparation.masker("the instance refused the credentials (\(error))"))
            default:
                return NameCheck(
                    notChecked: preparation.masker(
                        "cannot read the instance's dictionary (sys_db_object, sys_dictionary): \(error)"),
                    refusesRun: true)
            }
        }
        var diagnostics: [Diagnostic] = []
        func report(_ use: NameUse, _ message: String) {
            diagnostics.append(Diagnostic(file: use.file ?? job.file, line: use.mark.line, column: use.mark.column, message: message))
        }
        func checkChoice(
            _ value: NameUse.Value, of field: String, _ choices: [InstanceDictionary.Choice], in use: NameUse
        ) {
            guard !choices.contains(where: { $0.value == value.text || $0.label == value.text }) else { return }
            // A number is a value mistyped, not a word misspelt: no did-you-mean.
            let word = Double(value.text) == nil
            let hint = word ? value.text.closest(among: choices.flatMap { [$0.value, $0.label] }).map { "; did you mean '\($0)'?" } : nil
            diagnostics.append(Diagnostic(
                file: use.file ?? job.file, line: value.mark.line, column: value.mark.column,
                message: "'\(value.text)' is neither a value nor a label of \(field)'s choices (\(Self.describe(choices)))\(hint ?? "")",
                isWarning: true))
        }
        let dates = job.dates(timeZone: nil)
        for use in uses {
            guard let table = use.table else {
                if !dictionary.tables.contains(use.name) {
                    let hint = use.name.closest(among: dictionary.tables).map { "; did you mean '\($0)'?" } ?? ""
                    report(use, "unknown table '\(use.name)'\(hint)")
                }
                continue
            }
            guard dictionary.tables.contains(table) else { continue }
            let path = FieldPath(use.name)
            let walk: FieldPath.Walk<InstanceDictionary.Field>
            do {
                walk = try await dictionary.walk(path, from: table, service: service)
            } catch {
                walk = dictionary.walk(path, from: table)
            }
            switch walk.failure {
            case .unknownField(let index, let current)?:
                let component = path.components[index]
                let known = dictionary.allFields(of: current)
                let hint = component.closest(among: known.keys.sorted()).map { "; did you mean '\($0)'?" } ?? ""
                let walked = index == 0 ? "" : " (in '\(use.name)')"
                report(use, "unknown field '\(component)' in \(current)\(walked)\(hint)")
            case .notAReference(let index, let current)?:
                report(
                    use,
                    "'\(path.components[index])' in \(current) is not a reference field: '\(use.name)' cannot walk through it")
            case nil:
                guard let field = dictionary.conditionField(use.name, of: table) else { continue }
                for value in use.values {
                    if let op = value.op {
                        if let problem = field.problem(comparing: value.text, by: op, dates: dates) {
                            diagnostics.append(Diagnostic(
                                file: use.file ?? job.file, line: value.mark.line, column: value.mark.column,
                                message: problem))
                        }
                    } else if let choices = field.choices {
                        checkChoice(value, of: field.name, choices, in: use)
                    }
                }
            }
        }
        if let url = options.schemaCache, dictionary != cached { dictionary.save(at: url) }
        options.checkedDictionary.dictionary = dictionary
        return NameCheck(diagnostics: diagnostics)
    }

    /// `1 = Critical, 2 = High, ...`: each value and, when it differs, its label; the first 20.
    static func describe(_ choices: [InstanceDictionary.Choice]) -> String {
        let shown = choices.prefix(20).map { $0.label == $0.value || $0.label.isEmpty ? $0.value : "\($0.value) = \($0.label)" }
        let more = choices.count > 20 ? ", and \(choices.count - 20) more" : ""
        return shown.joined(separator: ", ") + more
    }

    /// How long a cached dictionary is used before it is read again: a day.
    static let schemaCacheAge: TimeInterval = 24 * 60 * 60
}
