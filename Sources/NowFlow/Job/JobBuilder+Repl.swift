/// Reading one step typed in the REPL, with the checks of a job file.
extension JobBuilder {
    /// The step of `node` (a step mapping), checked against the step ids and variables the session has; the
    /// problems as diagnostics otherwise. An id may be used again (the newer result replaces the older).
    ///
    /// A `static` of the builder because it is the builder's entry point for one step, as `JobFile` is for a
    /// file: it makes a builder, gives it what the session has seen (step ids, variables), builds the one step and
    /// turns the builder's diagnostics into the error; it is about nothing but the builder.
    static func replStep(
        _ node: YAMLNode, visibleIDs: [String: StepKind], variables: Set<String>
    ) -> Result<Step, JobFileError> {
        let builder = JobBuilder(file: "input")
        builder.visibleIDs = visibleIDs
        builder.knownVariables = variables
        for pair in node.pairs ?? [] where pair.name == "set" {
            for variable in pair.value.pairs ?? [] { builder.knownVariables.insert(variable.name) }
        }
        let steps = builder.steps(YAMLNode(content: .sequence([node]), mark: node.mark), "the step")
        guard builder.diagnostics.isEmpty, let step = steps.first else {
            return .failure(JobFileError(diagnostics: builder.sortedDiagnostics))
        }
        return .success(step)
    }
}
