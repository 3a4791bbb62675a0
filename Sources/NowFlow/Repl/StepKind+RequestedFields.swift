extension StepKind {
    /// The fields a query or a get asked for, in order (the columns `:export csv` writes); none for the other kinds.
    var requestedFields: [String] {
        switch self {
        case .query(let query): query.fields
        case .get(let get): get.fields
        default: []
        }
    }
}
