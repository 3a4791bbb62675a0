/// One entry of a choice list: the stored value and the label users see.
struct FieldChoice: Sendable, Hashable {
    var value: String
    var label: String

    init(_ value: String, _ label: String) {
        self.value = value
        self.label = label
    }
}
