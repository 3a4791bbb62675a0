/// A `name: value` pair of a mapping whose value may hold templates (vars, set, fields, where), in file order.
struct NamedTemplate: Sendable, Hashable {
    var name: String
    var value: TemplateValue
}
