import NowData

extension JobExecution {
    /// The values of the job's `outputs:` in `scope` (masked), and the failure of the first that cannot be
    /// evaluated, at its position in the file. An output that cannot be evaluated because it reads a step that
    /// `--tags` or `--skip-tags` left out is null, with a warning (``warnings``): every step that ran may have
    /// passed.
    func outputs(of job: Job, in scope: Scope) -> (JSONObject, StepFailure?) {
        var values = JSONObject()
        var failure: StepFailure?
        for output in job.outputs {
            do {
                values[output.name] = masker(try output.expression.evaluate(in: scope))
            } catch {
                let read = output.expression.references.filter { $0.root == "steps" }.compactMap(\.names.first)
                if let id = read.first(where: { tagSkipped[$0] != nil && scope.steps[$0] == nil }),
                    let reason = tagSkipped[id]
                {
                    values[output.name] = .null
                    warnings.append("outputs.\(output.name) is null: \(output.source) reads steps.\(id), \(reason)")
                    continue
                }
                var failed = StepFailure(masker("outputs.\(output.name): \(output.source): \(error.message)"))
                failed.location = (output.line, output.column)
                failure = failure ?? failed
            }
        }
        return (values, failure)
    }
}
