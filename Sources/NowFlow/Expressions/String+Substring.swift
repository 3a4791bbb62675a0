extension String {
    /// Whether `other` occurs in this text, character by character (`'tut' in 'abel.tuter'`); an empty text occurs
    /// nowhere. Not Foundation's `contains(_:)`, which on Linux traps on some texts holding NUL characters (found by
    /// `Fuzz/run.sh expression`).
    func hasSubstring(_ other: String) -> Bool {
        !other.isEmpty && firstRange(of: other) != nil
    }
}
