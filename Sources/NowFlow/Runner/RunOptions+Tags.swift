extension RunOptions {
    /// Whether `--tags` chooses a step of the body of `step` (a foreach's steps, an included job's), which counts
    /// with `tags`, the tags of `step` and the steps around it.
    func choosesBody(of step: Step, tags: Set<String>) -> Bool {
        let body: [Step]
        switch step.kind {
        case .foreach(let foreach): body = foreach.steps
        case .include(let include): body = include.job.steps + include.job.finally
        default: return false
        }
        return body.contains { inner in
            let innerTags = tags.union(inner.tags)
            guard skipTags.isDisjoint(with: innerTags) else { return false }
            return innerTags.contains("always") || !self.tags.isDisjoint(with: innerTags)
                || choosesBody(of: inner, tags: innerTags)
        }
    }
}
