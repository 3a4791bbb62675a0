import NowData

extension JobExecution {
    /// Runs an included job: its variables set from `with:` (evaluated in the including scope and checked against
    /// their declarations), then its steps and `finally` in a scope of their own, numbered under this step
    /// (`3.1`, `3.2`, ...); the result is its `outputs:`.
    func perform(_ step: IncludeStep, number: String, scope: Scope) async throws(StepFailure) -> (StepResult, String) {
        var inner = Scope(env: scope.env)
        inner.dates = scope.dates
        inner.now = scope.now
        var given: [String: JSONValue] = [:]
        for parameter in step.with {
            let value: JSONValue
            do {
                value = try parameter.value.evaluate(in: scope)
            } catch {
                throw StepFailure("with.\(parameter.name): \(error.message)")
            }
            do {
                given[parameter.name] = try step.job.value(ofVariable: parameter.name, given: value, from: "with")
            } catch {
                throw StepFailure(error.description)
            }
        }
        do {
            try step.job.assignVariables(in: &inner, given: given)
        } catch {
            throw StepFailure("\(step.file): \(error.message)")
        }
        // The included job's secrets are masked from its first step on.
        let secrets = step.job.secrets.flatMap { name in
            [inner.env[name]].compactMap { $0 } + (inner.variables[name].map { SecretMasker.texts(of: $0.json) } ?? [])
        }
        if !secrets.isEmpty { masker = masker.adding(secrets) }
        // The included job's attach and download paths are relative to its own file.
        let (outerDirectory, outerFile) = (baseDirectory, file)
        (baseDirectory, file) = (step.job.directory, step.job.file)
        defer { (baseDirectory, file) = (outerDirectory, outerFile) }
        let mainFailure = await runList(step.job.steps, prefix: "\(number).", scope: &inner)
        if mainFailure != nil, interruptionReason == nil { listNotRun(step.job.steps, prefix: "\(number).") }
        let finallyFailure = await runList(
            step.job.finally, prefix: "\(number).finally ", scope: &inner, stopOnFailure: false)
        if let failure = mainFailure ?? finallyFailure {
            throw StepFailure(
                "\(step.file): \(failure.message)", isAssertion: failure.isAssertion, fromInstance: failure.fromInstance)
        }
        let (outputs, outputFailure) = self.outputs(of: step.job, in: inner)
        if let outputFailure {
            throw StepFailure("\(step.file): \(outputFailure.message)")
        }
        let names = outputs.map(\.key)
        let summary =
            "ran \(step.file) (\(step.job.name))" + (names.isEmpty ? "" : ": outputs \(names.joined(separator: ", "))")
        return (.value(.object(["outputs": .object(outputs)])), summary)
    }
}
