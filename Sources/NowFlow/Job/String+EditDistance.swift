extension String {
    /// The edit distance to `other`: insertions, deletions, substitutions and swaps of two neighbouring
    /// characters (`qurey` is one edit from `query`).
    func editDistance(to other: String) -> Int {
        let source = Array(self)
        let target = Array(other)
        guard !source.isEmpty else { return target.count }
        guard !target.isEmpty else { return source.count }
        var beforePrevious = Array(repeating: 0, count: target.count + 1)
        var previous = Array(0...target.count)
        var current = previous
        for i in 1...source.count {
            current[0] = i
            for j in 1...target.count {
                let cost = source[i - 1] == target[j - 1] ? 0 : 1
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, source[i - 1] == target[j - 2], source[i - 2] == target[j - 1] {
                    current[j] = Swift.min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[target.count]
    }

    /// The candidate closest to this string, when it is close enough to be a likely typo.
    package func closest(among candidates: some Sequence<String>) -> String? {
        let limit = Swift.max(1, Swift.min(3, count / 3))
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = lowercased().editDistance(to: candidate.lowercased())
            if distance <= limit, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }
}
