extension String {
    /// `1 requested item`, `2 requested items`: `count` and `noun`, plural unless the count is 1.
    init(count: Int, _ noun: String) {
        self = "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
