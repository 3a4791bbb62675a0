/// `foreach`: the body `steps` run once per item of a list, the item named `as`; with `parallel: N`, up to N
/// items at once.
struct ForeachStep: Sendable {
    /// The most iterations `parallel:` may run at once.
    static let maximumParallel = 32

    var items: Expression
    var itemsSource: String
    var name: String
    var steps: [Step]
    /// `parallel`: how many iterations may run at once (1: one after the other), as written or given by a template.
    var parallel = CountSetting.fixed(1)
}
