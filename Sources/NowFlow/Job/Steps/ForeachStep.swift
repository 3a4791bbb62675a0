/// `foreach`: the body `steps` run once per item of a list, the item named `as`.
struct ForeachStep: Sendable {
    var items: Expression
    var itemsSource: String
    var name: String
    var steps: [Step]
}
