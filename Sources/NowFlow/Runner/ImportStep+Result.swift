import NowData

/// What an `import` step gives.
extension ImportStep {
    /// An import's result (`steps.<id>`) for `rows`, the outcomes of an import set's rows (a dry run's `count` is of
    /// the rows it would load).
    static func result(importSet: String, multi: String, rows: [JSONValue], count total: Int? = nil) -> JSONValue {
        func count(_ status: String) -> JSONValue {
            .number(JSONNumber(rows.filter { $0["status"]?.string == status }.count))
        }
        return [
            "import_set_id": .string(importSet), "multi_import_set_id": .string(multi), "rows": .array(rows),
            "count": .number(JSONNumber(total ?? rows.count)), "inserted": count("inserted"), "updated": count("updated"),
            "ignored": count("ignored"), "errors": count("error"),
        ]
    }
}
