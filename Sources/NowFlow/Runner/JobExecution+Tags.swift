extension JobExecution {
    /// Why `--tags` or `--skip-tags` leave the step out, or nil when it runs. A step counts with the tags of the
    /// steps around it (a foreach's, an include's); `--tags` also runs a step tagged `always`, and a step whose
    /// body holds a step it chooses (which then runs, and the others of the body are left out).
    func tagSkip(_ step: Step) -> String? {
        let tags = enclosingTags.union(step.tags)
        if let skipped = options.skipTags.intersection(tags).sorted().first {
            return "skipped by --skip-tags \(skipped)"
        }
        guard !options.tags.isEmpty, !tags.contains("always"), options.tags.isDisjoint(with: tags),
            !Self.holdsChosen(step, tags: tags, options: options)
        else { return nil }
        let own = tags.isEmpty ? "it has no tags" : "its tags: \(tags.sorted().joined(separator: ", "))"
        return "not chosen by --tags \(options.tags.sorted().joined(separator: ",")) (\(own))"
    }

    /// Whether a step of the body of `step` (a foreach's steps, an included job's) is chosen by `--tags`.
    private static func holdsChosen(_ step: Step, tags: Set<String>, options: RunOptions) -> Bool {
        let body: [Step]
        switch step.kind {
        case .foreach(let foreach): body = foreach.steps
        case .include(let include): body = include.job.steps + include.job.finally
        default: return false
        }
        return body.contains { inner in
            let innerTags = tags.union(inner.tags)
            guard options.skipTags.isDisjoint(with: innerTags) else { return false }
            return innerTags.contains("always") || !options.tags.isDisjoint(with: innerTags)
                || holdsChosen(inner, tags: innerTags, options: options)
        }
    }
}
