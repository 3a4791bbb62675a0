/// `foreach`: the body `steps` run once per item of a list, the item named `as`; with `parallel: N`, up to N
/// items at once.
struct ForeachStep: Sendable {
    /// The most iterations `parallel:` may run at once.
    static let maximumParallel = 32
    /// How many items, from the first, a foreach whose results no expression uses (``keepsResults`` false) lists
    /// in the report: their results, steps and records written. The items after them are counted
    /// (``UnlistedOutcomes``), unless one of their steps failed.
    static let listedItems = 1_000

    var items: Expression
    var itemsSource: String
    var name: String
    var steps: [Step]
    /// `parallel`: how many iterations may run at once (1: one after the other), as written or given by a template.
    var parallel = CountSetting.fixed(1)
    /// Whether the foreach keeps every item's results, steps and records written: when an expression uses its
    /// per-item results (`steps.<id>.results`, or `steps.<id>` as a whole). Set once the whole job file is read;
    /// true until then (and in the REPL, whose later steps are not known).
    var keepsResults = true
}
