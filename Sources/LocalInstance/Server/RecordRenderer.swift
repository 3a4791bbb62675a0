/// Renders stored records as the Table API returns them: every value a string, references in their three
/// shapes, display values, dot-walked keys.
struct RecordRenderer {
    var fields: [OutputField]
    var displayValue: TableParameters.DisplayValue
    var excludeReferenceLink: Bool
    /// `http://host:port`, for reference links.
    var baseURL: String
    var resolver: ReferenceResolver

    func render(_ record: StoredRecord) throws -> JSONValue {
        var members: [(String, JSONValue)] = []
        members.reserveCapacity(fields.count)
        for output in fields {
            var current: StoredRecord? = record
            for hop in output.hops {
                guard case .reference(let target) = hop.type, let sysID = current?[hop.name], !sysID.isEmpty else {
                    current = nil
                    break
                }
                current = try resolver.record(target, sysID)
            }
            members.append((output.key, try render(output.field, current?[output.field.name] ?? "")))
        }
        return .object(members)
    }

    private func render(_ field: FieldDefinition, _ value: String) throws -> JSONValue {
        let link: JSONValue? =
            if case .reference(let target) = field.type, !value.isEmpty, !excludeReferenceLink {
                .string("\(baseURL)/api/now/table/\(target)/\(value)")
            } else {
                nil
            }
        switch displayValue {
        case .value:
            guard let link else { return .string(value) }
            return .object([("link", link), ("value", .string(value))])
        case .display:
            let display = JSONValue.string(try resolver.displayValue(field, value))
            guard let link else { return display }
            return .object([("display_value", display), ("link", link)])
        case .all:
            var members: [(String, JSONValue)] = [
                ("display_value", .string(try resolver.displayValue(field, value))), ("value", .string(value)),
            ]
            if let link { members.append(("link", link)) }
            return .object(members)
        }
    }
}
