import NowData

extension JobExecution {
    /// The values of the job's `outputs:` in `scope` (masked), and the failure of the first that cannot be
    /// evaluated, at its position in the file.
    func outputs(of job: Job, in scope: Scope) -> (JSONObject, StepFailure?) {
        var values = JSONObject()
        var failure: StepFailure?
        for output in job.outputs {
            do {
                values[output.name] = masker(try output.expression.evaluate(in: scope))
            } catch {
                var failed = StepFailure(masker("outputs.\(output.name): \(output.source): \(error.message)"))
                failed.location = (output.line, output.column)
                failure = failure ?? failed
            }
        }
        return (values, failure)
    }
}
