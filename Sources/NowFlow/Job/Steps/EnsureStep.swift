import NowData

/// `ensure`: a record as it should be, found by `match` (at most one may match), created when it is missing,
/// changed only where it differs, or deleted for `state: absent`.
struct EnsureStep: Sendable, Hashable {
    /// Whether the record should exist.
    enum State: String, Sendable, Hashable, CaseIterable {
        case present, absent
    }

    var table: Template
    /// How the record is found: `match:` (field: value, ANDed; written into a record it creates) or `query:`.
    var match: RecordFilter
    /// The fields the record should have.
    var fields: [NamedTemplate]
    var state: State
    var settings = WriteSettings()

    /// The fields a record it creates is given: the `match:` pairs that name a field of the table (not a
    /// dot-walk), unless `fields:` gives them too, then `fields:`.
    var createdFields: [NamedTemplate] {
        guard case .matching(let clause) = match else { return fields }
        let given = Set(fields.map(\.name))
        return clause.conditions.compactMap { condition in
            guard condition.op == .equals, !condition.field.contains("."), !given.contains(condition.field),
                let value = condition.value
            else { return nil }
            return NamedTemplate(name: condition.field, value: value)
        } + fields
    }
}
