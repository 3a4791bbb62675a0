/// Records as a query found them, in API form (every value a string, `""` for empty): the values of every row in
/// one array, row after row, read by column, so that a page of records costs no dictionary per record.
struct RecordRows {
    /// The columns of every row.
    let layout: ColumnLayout
    /// The values, `layout.width` per row.
    private(set) var values: [String] = []

    /// No rows yet, in `layout`, with room for one.
    init(layout: ColumnLayout) {
        self.layout = layout
        values.reserveCapacity(layout.width)
    }

    /// One row holding `record`.
    init(_ record: StoredRecord) {
        layout = ColumnLayout(names: Array(record.keys))
        values = Array(record.values)
    }

    /// How many rows there are.
    var count: Int { layout.width == 0 ? 0 : values.count / layout.width }

    /// The value in `column` of `row`.
    func value(_ row: Int, column: Int) -> String {
        values[row * layout.width + column]
    }

    /// The value of the field `name` in `row`; nil when the rows have no such field.
    func value(_ row: Int, field name: String) -> String? {
        layout.columns[name].map { value(row, column: $0) }
    }

    /// `row` as a record.
    func record(_ row: Int) -> StoredRecord {
        layout.columns.mapValues { value(row, column: $0) }
    }

    /// Appends the next value: the first column of a new row after the last column of a row.
    mutating func append(_ value: String) {
        values.append(value)
    }
}
