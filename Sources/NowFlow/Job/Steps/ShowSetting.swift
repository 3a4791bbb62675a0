/// A step's `show:`: how much of its result `nowflow run` prints under its line in text output.
enum ShowSetting: Sendable, Hashable {
    /// At most this many records (20 unless the step says otherwise); a line says how many more there are.
    case rows(Int)
    /// Every record.
    case all
    /// Nothing: the step's line only.
    case none

    /// How many records a step shows when it does not say.
    static let defaultRows = 20
}
