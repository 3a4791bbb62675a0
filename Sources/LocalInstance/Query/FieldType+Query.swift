import NowData

extension FieldType {
    /// How a condition compares the field's values: the type NowData's query evaluation knows it by.
    var queryType: QueryFieldType {
        switch self {
        case .string: .string
        case .integer: .integer
        case .decimal: .decimal
        case .boolean: .boolean
        case .dateTime: .dateTime
        case .date: .date
        case .reference(let table): .reference(table: table)
        case .choice: .choice
        }
    }
}
