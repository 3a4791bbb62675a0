import NowData

/// One field of a table in the dictionary.
struct FieldDefinition: Sendable, Hashable {
    /// The column name, such as `short_description`.
    var name: String
    /// The type, which decides storage, validation and query operators.
    var type: FieldType
    /// The label, such as `Short description`.
    var label: String
    /// The choice list of a choice field or of a numeric choice field (incident state); empty otherwise.
    var choices: [FieldChoice]
    /// The value given to a new record that does not set the field; nil for none.
    var defaultValue: String?
    /// A one-way hashed password (`password2` on a real instance): written hashed, answered as `********`.
    var isPassword: Bool

    init(
        _ name: String, _ type: FieldType = .string, label: String? = nil, choices: [FieldChoice] = [],
        defaultValue: String? = nil, isPassword: Bool = false
    ) {
        self.name = name
        self.type = type
        self.label = label ?? FieldDefinition.label(for: name)
        self.choices = choices
        self.defaultValue = defaultValue
        self.isPassword = isPassword
    }

    /// The label of a choice value, if the field has a choice list holding it.
    func choiceLabel(for value: String) -> String? {
        choices.first { $0.value == value }?.label
    }

    /// The value of a choice label (or of a value given as is), if the field has a choice list holding it.
    func choiceValue(forLabel label: String) -> String? {
        choices.first { $0.label == label }?.value ?? choices.first { $0.value == label }?.value
    }

    /// `short_description` → `Short description`; a `u_` prefix is dropped.
    static func label(for name: String) -> String {
        let base = name.hasPrefix("u_") ? String(name.dropFirst(2)) : name
        let words = base.split(separator: "_").joined(separator: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }
}

extension FieldDefinition {
    /// The domain of a record without domain separation, as a PDI answers it: a reference whose value is
    /// `global`, linked to `sys_user_group/global` and displayed `global`, though no group has that sys_id
    /// (docs/reference/pdi-fields/task.json).
    static let domain = FieldDefinition(
        "sys_domain", .reference(table: "sys_user_group"), label: "Domain", defaultValue: globalDomain)

    /// The value and display value of ``domain`` on every record.
    static let globalDomain = "global"
}
