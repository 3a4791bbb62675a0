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
            !options.choosesBody(of: step, tags: tags)
        else { return nil }
        let own = tags.isEmpty ? "it has no tags" : "its tags: \(tags.sorted().joined(separator: ", "))"
        return "not chosen by --tags \(options.tags.sorted().joined(separator: ",")) (\(own))"
    }
}
