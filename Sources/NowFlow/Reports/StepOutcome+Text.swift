extension StepOutcome {
    /// The progress line of the step: `ok   step 2 'incident' (create): created incident 1c7b... (5 ms)`, with
    /// ANSI colours when `color` is true.
    public func progressLine(color: Bool) -> String {
        let (mark, code) =
            switch status {
            case .passed: ("ok  ", "32")
            case .skipped, .notRun: ("skip", "33")
            case .failed: (continued ? "FAIL (continued)" : "FAIL", "31")
            case .assertionFailed: (continued ? "ASSERT (continued)" : "ASSERT", "31")
            }
        let shown = color ? "\u{1B}[\(code)m\(mark)\u{1B}[0m" : mark
        return "\(shown) \(label): \(message) (\(milliseconds) ms)"
    }
}
