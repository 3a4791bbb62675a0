/// Walking a loaded job: `:next`, `:run`, `:list`, and its `finally`.
///
/// A job step that fails stays the current step, so that a person can look, fix the data and run it again. The
/// job's `finally` runs once: after its last step has passed, or when the session ends if a step of the job ran.
extension ReplSession {
    /// `:next`: the job's current step.
    func nextJobStep() async -> String {
        guard let job = loaded?.job else { return Self.noJob }
        guard nextStep < job.steps.count else { return "the job's steps have all run" + (finallyRan ? "" : "; :quit runs its finally") }
        var step = job.steps[nextStep]
        let nodes = loaded?.stepNodes ?? []
        var node = nodes.indices.contains(nextStep) ? nodes[nextStep] : nil
        if step.id == nil {
            let id = "_\(autoNumber + 1)"
            step.id = id
            node = node.map { Self.settingID($0, id) }
        }
        let run = await run(step, number: "\(nextStep + 1)/\(job.steps.count)", node: node)
        jobStatuses[nextStep] = run.status
        guard run.status == .passed || run.status == .skipped || run.continued, !Task.isCancelled else {
            return run.text + "\n(the step stays current: fix what is needed, then :next runs it again)"
        }
        if job.steps[nextStep].id == nil, run.status == .passed || run.status == .skipped { autoNumber += 1 }
        nextStep += 1
        guard nextStep == job.steps.count else { return run.text }
        let finally = job.finally.isEmpty ? "" : "\n" + (await runFinally())
        return run.text + "\nthe job's steps have all run" + finally
    }

    /// `:run`: the job's steps from the current one, until one fails.
    func runJob() async -> String {
        guard let job = loaded?.job else { return Self.noJob }
        guard nextStep < job.steps.count else { return "the job's steps have all run" }
        var texts: [String] = []
        while nextStep < job.steps.count, !Task.isCancelled {
            let before = nextStep
            texts.append(await nextJobStep())
            if nextStep == before { break }
        }
        return texts.joined(separator: "\n")
    }

    /// `:list`: the job's steps, with their status and a marker at the current one.
    func listJob() -> String {
        guard let job = loaded?.job else { return Self.noJob }
        var lines = ["\(job.name) (\(job.file))"]
        for (index, step) in job.steps.enumerated() {
            lines.append(line(index, step, current: index == nextStep, status: jobStatuses[index]))
        }
        if !job.finally.isEmpty {
            lines.append("  finally\(finallyRan ? " (ran)" : ""):")
            for (index, step) in job.finally.enumerated() {
                lines.append(line(index, step, current: false, status: nil))
            }
        }
        return lines.joined(separator: "\n")
    }

    private func line(_ index: Int, _ step: Step, current: Bool, status: StepStatus?) -> String {
        let marker = current ? "=>" : "  "
        let state = status.map { "  " + $0.rawValue.replacingOccurrences(of: "_", with: " ") } ?? ""
        return "\(marker) \(index + 1). \(Self.describe(step))\(state)"
    }

    /// Runs the job's `finally` steps, all of them, and shows what each did.
    func runFinally() async -> String {
        guard let job = loaded?.job else { return "" }
        finallyRan = true
        var texts = ["finally:"]
        for (index, step) in job.finally.enumerated() {
            texts.append(await run(step, number: "finally \(index + 1)", node: nil).text)
        }
        return texts.joined(separator: "\n")
    }

    static let noJob = "error: no job is loaded; start the REPL with a job file: nowflow repl JOB.yaml"
}
