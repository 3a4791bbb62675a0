/// Walking a loaded job: `:next`, `:run`, `:list`, and its `finally`.
///
/// A job step that fails stays the current step, so that a person can look, fix the data and run it again. The
/// job's `finally` runs once: after its last step has passed, or when the session ends if a step of the job ran.
extension ReplSession {
    /// `:next`: the job's current step.
    func nextJobStep() async -> String {
        guard let job = loaded?.job else { return ReplJob.notLoaded }
        guard nextStep < job.steps.count else { return "the job's steps have all run" + (finallyRan ? "" : "; :quit runs its finally") }
        var step = job.steps[nextStep]
        let nodes = loaded?.stepNodes ?? []
        var node = nodes.indices.contains(nextStep) ? nodes[nextStep] : nil
        if step.id == nil {
            let id = "_\(autoNumber + 1)"
            step.id = id
            node = node.map { $0.settingID(id) }
        }
        let own = job.steps[nextStep].id != nil ? nextStep : nil
        let run = await run(step, number: "\(nextStep + 1)/\(job.steps.count)", node: node, jobStep: own)
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

    /// `:run`: the job's steps from the current one, until one fails. Ctrl-C cancels the step in flight, which stays
    /// current, and the steps after it are not run (they are listed); the job's `finally` runs when the session
    /// ends, as always once a job step ran.
    func runJob() async -> String {
        guard let job = loaded?.job else { return ReplJob.notLoaded }
        guard nextStep < job.steps.count else { return "the job's steps have all run" }
        var texts: [String] = []
        while nextStep < job.steps.count, !Task.isCancelled {
            let before = nextStep
            texts.append(await nextJobStep())
            if nextStep == before { break }
        }
        if Task.isCancelled, nextStep < job.steps.count {
            let current = jobStatuses[nextStep] == nil ? nextStep : nextStep + 1
            let rest = job.steps.indices.dropFirst(current).map { "step \($0 + 1) \(job.steps[$0].replLabel)" }
            let notRun = rest.isEmpty ? "" : "; not run: " + rest.joined(separator: ", ")
            let finally = job.finally.isEmpty || finallyRan ? "" : "; the job's finally runs when the session ends"
            texts.append(":run stopped by Ctrl-C at step \(nextStep + 1)\(notRun)\(finally)")
        }
        return texts.joined(separator: "\n")
    }

    /// `:list`: the job's steps, each with its kind, table and parameters in short-form words, its status, and a
    /// marker at the current one; a line longer than the terminal is cut.
    func listJob() -> String {
        guard let job = loaded?.job else { return ReplJob.notLoaded }
        var lines = ["\(job.name) (\(job.file))"]
        let nodes = loaded?.stepNodes ?? []
        for (index, step) in job.steps.enumerated() {
            let node = nodes.indices.contains(index) ? nodes[index] : nil
            lines.append(line(index, step, node, current: index == nextStep, status: jobStatuses[index]))
        }
        if !job.finally.isEmpty {
            lines.append("  finally\(finallyRan ? " (ran)" : ""):")
            let finallyNodes = loaded?.node("finally")?.items ?? []
            for (index, step) in job.finally.enumerated() {
                let node = finallyNodes.indices.contains(index) ? finallyNodes[index] : nil
                lines.append(line(index, step, node, current: false, status: nil))
            }
        }
        return lines.joined(separator: "\n")
    }

    private func line(_ index: Int, _ step: Step, _ node: YAMLNode?, current: Bool, status: StepStatus?) -> String {
        let marker = current ? "=>" : "  "
        let state = status.map { "  " + $0.rawValue.replacingOccurrences(of: "_", with: " ") } ?? ""
        let head = "\(marker) \(index + 1). \(step.replLabel)"
        let summary = node.map(ShortForm.summary) ?? ""
        guard !summary.isEmpty else { return head + state }
        let room = width() - head.count - state.count - 1
        return head + " " + RecordTable.cut(summary, to: max(room, 10)) + state
    }

    /// Runs the job's `finally` steps, all of them, and shows what each did. Ctrl-C cancels the clean-up step in
    /// flight and stops `finally`: the steps it did not run are listed, and what they would have cleaned up is left.
    func runFinally() async -> String {
        guard let job = loaded?.job else { return "" }
        finallyRan = true
        var texts = ["finally:"]
        for (index, step) in job.finally.enumerated() {
            guard !Task.isCancelled else {
                let rest = job.finally.indices.dropFirst(index).map { "finally \($0 + 1) \(job.finally[$0].replLabel)" }
                texts.append("finally stopped by Ctrl-C; not run: \(rest.joined(separator: ", ")) (what they clean up is left)")
                break
            }
            texts.append(await run(step, number: "finally \(index + 1)", node: nil).text)
        }
        return texts.joined(separator: "\n")
    }
}
