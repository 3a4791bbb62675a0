/// A record as the store holds it: every field's value as the Table API writes it (`""` for empty).
typealias StoredRecord = [String: String]
