/// How the result columns of a statement map onto a table's fields: worked out once per prepared statement, so that
/// reading a page of records needs no lookup by name per value. Like the statement it belongs to, it is only used
/// with the connection's exclusive use.
final class ColumnLayout {
    /// How each column's values become API text; nil for a column that is not a field of the table (the rowid of a
    /// table hierarchy, a column the dictionary no longer has), which is read as `""`.
    let forms: [FieldDefinition.APIForm?]
    /// The column of each field, by name.
    let columns: [String: Int]

    /// The layout of columns called `names` in a result over `table`.
    init(names: [String], table: TableDefinition) {
        let forms = names.map { table.field($0)?.apiForm }
        self.forms = forms
        columns = Dictionary(
            names.enumerated().compactMap { column, name in forms[column] == nil ? nil : (name, column) },
            uniquingKeysWith: { _, last in last })
    }

    /// The layout of values already in API form, one column per name.
    init(names: [String]) {
        forms = names.map { _ in nil }
        columns = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// The columns of the names last asked for, with those names.
    private var remembered: (names: [String], columns: [Int?])?

    /// How many columns a row has.
    var width: Int { forms.count }

    /// The column of each of `names` (nil for a name that is not a column). The answer for the last list asked is
    /// remembered: each request for the same table asks for the same list again.
    func columns(of names: [String]) -> [Int?] {
        if let remembered, remembered.names == names { return remembered.columns }
        let found = names.map { columns[$0] }
        remembered = (names, found)
        return found
    }
}
