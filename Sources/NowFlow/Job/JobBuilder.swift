import Foundation
import NowData

/// Turns the YAML nodes of a job file into a ``Job``, collecting every problem as a ``Diagnostic`` instead of
/// stopping at the first.
///
/// Steps are read in the order they run, so a reference to a step's result can be checked against the steps
/// before it; a first pass over the nodes collects every `id` (to tell "runs later" from "does not exist") and
/// every variable a `set` step assigns.
final class JobBuilder {
    let file: String
    var diagnostics: [Diagnostic] = []
    /// What is likely wrong without refusing the job (a condition over an empty list written in the file), this
    /// file's and those of the files it includes: `validate` and `run` show them and go on.
    var warnings: [Diagnostic] = []

    /// Every step id of the file: where it is, and whether it sits inside a foreach.
    var declaredIDs: [String: (mark: YAMLMark, insideForeach: Bool)] = [:]
    /// Variables declared under `vars` or assigned by a `set` step.
    var knownVariables: Set<String> = []
    /// The ids whose results the step being read may use, with their kinds.
    var visibleIDs: [String: StepKind] = [:]
    /// While the type of a condition as a whole is read (its operands were checked already).
    var typeErrorsMuted = false
    /// Variables a `set` step assigns: their type is known only at run time.
    var assignedVariables: Set<String> = []
    /// The type of each variable declared with a literal value and never assigned by `set`.
    var variableTypes: [String: ExpressionType] = [:]
    /// While a `vars:` value is read: its variable's name, and the variables declared after it (with where), which
    /// it cannot use: variables are evaluated in order.
    var variableBeingRead: (name: String, later: [String: YAMLMark])?
    /// The `as` names of the enclosing foreach steps.
    var localNames: [String] = []
    /// The ids of the steps being read (a foreach's id stays while its body is read).
    var currentIDs: [String] = []
    /// The job's `coder`, once read: how literal texts are read as dates.
    var coderSettings = CoderSettings()
    /// The files that include this one, outermost first (to refuse a cycle).
    var includeChain: [String] = []
    /// The table and field names written in the files this one includes, for the name check.
    var includedNames: [NameUse] = []
    /// While a foreach's items are read.
    var readingForeachItems = false
    /// How the file uses each step's records, to choose each query's ``QueryStep/Delivery``.
    var recordUses = RecordUses()

    init(file: String) {
        self.file = file
    }

    /// The job, or nil when a problem was found (see ``diagnostics``).
    func build(_ root: YAMLNode?) -> Job? {
        guard let root else {
            error(at: YAMLMark(line: 1, column: 1), "the file holds no job; a job is a mapping with name: and steps:")
            return nil
        }
        guard let pairs = root.pairs else {
            error(at: root.mark, "a job file is a mapping (name:, steps:, ...), not \(root.kindDescription)")
            return nil
        }
        checkKeys(pairs, of: JobSchema.job)
        collectDeclarations(pairs)

        let name = requiredText(pairs, "name", in: "the job", at: root.mark)
        let description = value(pairs, "description").flatMap { text($0, "description") }
        let instance = value(pairs, "instance").flatMap { text($0, "instance") }
        let auth = value(pairs, "auth").flatMap(authentication)
        let rate = value(pairs, "rate").flatMap(requestRate)
        let coder = value(pairs, "coder").flatMap(readCoderSettings) ?? CoderSettings()
        coderSettings = coder
        let fileVariables = value(pairs, "vars_files").map(varsFiles) ?? []
        let vars = value(pairs, "vars").map(variables) ?? []
        for given in fileVariables {
            guard let declared = vars.first(where: { $0.name == given.name }) else { continue }
            let job = Job(
                name: "", file: file, coder: coder, vars: [declared], secrets: [], steps: [], finally: [])
            do {
                _ = try job.value(ofVariable: given.name, given: given.value, from: "vars_files: \(given.file)")
            } catch {
                self.error(at: given.mark, error.description)
            }
        }
        let secrets = value(pairs, "secrets").flatMap { names($0, "secrets") } ?? []
        var steps: [Step] = []
        if let node = value(pairs, "steps") {
            steps = self.steps(node, "steps")
        } else {
            error(at: root.mark, "the job needs steps: (a list of steps)")
        }
        let mainIDs = visibleIDs
        var finally: [Step] = []
        if let node = value(pairs, "finally") {
            visibleIDs = mainIDs
            finally = self.steps(node, "finally")
        }
        let outputs = value(pairs, "outputs").map(jobOutputs) ?? []
        guard diagnostics.isEmpty, let name else { return nil }
        steps = recordUses.delivering(steps)
        finally = recordUses.delivering(finally)
        var job = Job(
            name: name, description: description, instance: instance, file: file, auth: auth, coder: coder,
            vars: vars, fileVariables: fileVariables.map { ($0.name, $0.value) }, secrets: secrets, steps: steps,
            finally: finally, outputs: outputs)
        job.rate = rate
        return job
    }

    /// `rate:` (the job's, or a profile's): requests per second, minute or hour, such as `10/s`.
    func requestRate(_ node: YAMLNode) -> RequestRate? {
        guard let text = text(node, "rate") else { return nil }
        do {
            return try RequestRate(parsing: text)
        } catch {
            self.error(at: node.mark, "rate \(error.message)")
            return nil
        }
    }

    /// `outputs:`: names and expressions (bare or as `${...}`), which may use every step's result.
    private func jobOutputs(_ node: YAMLNode) -> [JobOutput] {
        guard let pairs = mapping(node, "outputs") else { return [] }
        return pairs.compactMap { pair in
            guard checkName(pair.key, "an output name"),
                let (expression, source) = condition(pair.value, "outputs.\(pair.name)")
            else { return nil }
            return JobOutput(
                name: pair.name, expression: expression, source: source, line: pair.key.mark.line,
                column: pair.key.mark.column)
        }
    }

    /// Records a problem at `mark`.
    func error(at mark: YAMLMark, _ message: String) {
        diagnostics.append(Diagnostic(file: file, line: mark.line, column: mark.column, message: message))
    }

    /// Records a warning at `mark` (see ``warnings``).
    func warn(at mark: YAMLMark, _ message: String) {
        warnings.append(Diagnostic(file: file, line: mark.line, column: mark.column, message: message, isWarning: true))
    }

    /// The problems, in file order; then those of the files this one reads (included jobs, vars files), each
    /// file's as it reported them.
    var sortedDiagnostics: [Diagnostic] {
        Diagnostic.inFileOrder(diagnostics, of: file)
    }

    // MARK: - Top-level sections

    /// An `auth` mapping (of a job, or of a profile in config.yaml).
    func authentication(_ node: YAMLNode) -> JobAuthentication? {
        guard let pairs = mapping(node, "auth") else { return nil }
        let kinds = JobSchema.auth.names
        checkKeys(pairs, of: JobSchema.auth)
        let given = pairs.filter { kinds.contains($0.name) }
        guard given.count == 1, let chosen = given.first else {
            if given.count > 1 {
                error(
                    at: given[1].key.mark,
                    "auth takes one of \(kinds.alternatives), not \(given.map(\.name).joined(separator: " and "))")
            } else if pairs.allSatisfy({ kinds.contains($0.name) }) {
                error(at: node.mark, "auth needs one of \(kinds.alternatives)")
            }
            return nil
        }
        switch chosen.name {
        case "token":
            return templateText(chosen.value, "auth.token").map(JobAuthentication.token)
        case "basic":
            guard let fields = mapping(chosen.value, "auth.basic") else { return nil }
            checkKeys(fields, of: JobSchema.authBasic)
            let user = requiredTemplate(fields, "user", in: "auth.basic", at: chosen.value.mark)
            let password = requiredTemplate(fields, "password", in: "auth.basic", at: chosen.value.mark)
            guard let user, let password else { return nil }
            return .basic(user: user, password: password)
        case "oauth_jwt":
            return oauthJWT(chosen.value)
        default:
            guard let fields = mapping(chosen.value, "auth.oauth") else { return nil }
            let keys = JobSchema.authOAuth.names
            checkKeys(fields, of: JobSchema.authOAuth)
            let values = keys.map { requiredTemplate(fields, $0, in: "auth.oauth", at: chosen.value.mark) }
            guard let clientID = values[0], let secret = values[1], let user = values[2], let password = values[3]
            else {
                return nil
            }
            return .oauth(clientID: clientID, clientSecret: secret, user: user, password: password)
        }
    }

    private func readCoderSettings(_ node: YAMLNode) -> CoderSettings? {
        guard let pairs = mapping(node, "coder") else { return nil }
        checkKeys(pairs, of: JobSchema.coder)
        var settings = CoderSettings()
        if let datesNode = value(pairs, "dates"), let dates = text(datesNode, "coder.dates") {
            switch dates {
            case "servicenow": settings.dates = .servicenow
            case "iso8601": settings.dates = .iso8601
            default:
                if ["y", "M", "d"].allSatisfy(dates.contains) {
                    settings.dates = .pattern(dates)
                } else {
                    error(
                        at: datesNode.mark,
                        "coder.dates must be servicenow, iso8601 or a date pattern such as 'dd/MM/yyyy HH:mm', not '\(dates)'"
                    )
                }
            }
        }
        if let zoneNode = value(pairs, "timezone"), let zone = text(zoneNode, "coder.timezone") {
            if JobDates.isTimeZone(zone) {
                settings.timezone = zone
            } else {
                error(at: zoneNode.mark, "coder.timezone \(JobDates.notATimeZone(zone))")
            }
        }
        return settings
    }

    private func variables(_ node: YAMLNode) -> [NamedTemplate] {
        guard let pairs = mapping(node, "vars") else { return [] }
        var result: [NamedTemplate] = []
        for (index, pair) in pairs.enumerated() {
            guard checkName(pair.key, "a variable name") else { continue }
            let later = pairs[index...].map { ($0.name, $0.key.mark) }
            variableBeingRead = (pair.name, Dictionary(later) { first, _ in first })
            defer { variableBeingRead = nil }
            if let value = templateValue(pair.value) {
                result.append(NamedTemplate(name: pair.name, value: value))
                if case .value(let literal) = value, !assignedVariables.contains(pair.name) {
                    variableTypes[pair.name] = ExpressionType(of: literal)
                }
            }
            knownVariables.insert(pair.name)
        }
        return result
    }

    /// First pass: every step id (for "runs later" and duplicate checks) and every variable a `set` assigns.
    private func collectDeclarations(_ pairs: [YAMLNode.Pair]) {
        for pair in pairs {
            if pair.name == "vars" {
                for variable in pair.value.pairs ?? [] { knownVariables.insert(variable.name) }
            }
        }
        var seen: [String: YAMLMark] = [:]
        func walk(_ list: YAMLNode?, insideForeach: Bool) {
            for step in list?.items ?? [] {
                guard let fields = step.pairs else { continue }
                if let idNode = value(fields, "id"), let id = idNode.scalarText {
                    if let first = seen[id] {
                        error(
                            at: idNode.mark,
                            "duplicate step id '\(id)' (first used at line \(first.line), column \(first.column))")
                    } else {
                        seen[id] = idNode.mark
                        declaredIDs[id] = (idNode.mark, insideForeach)
                    }
                }
                // By index: the names alone, without copying each assignment's value.
                let assignments = value(fields, "set")?.pairs ?? []
                for index in assignments.indices {
                    let name = assignments[index].name
                    knownVariables.insert(name)
                    assignedVariables.insert(name)
                }
                if value(fields, "foreach") != nil {
                    walk(value(fields, "steps"), insideForeach: true)
                }
            }
        }
        walk(value(pairs, "steps"), insideForeach: false)
        walk(value(pairs, "finally"), insideForeach: false)
    }
}
