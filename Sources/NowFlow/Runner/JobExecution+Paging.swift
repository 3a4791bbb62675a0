import NowData

extension JobExecution {
    /// How a query of more than one page is read: by the key of its sort (``PagingKey``), or by offset and why.
    enum Paging {
        case keyed(PagingKey)
        /// By `sysparm_offset`, with the reason the step's line gives (nil when the job asked for it).
        case offset(reason: String?)
    }

    /// How `query` (on `table`, read with `configuration`) pages when paging by key is asked for: by key when
    /// the instance sorts and compares each sort field alike, else by offset.
    ///
    /// `sys_id` always pages by key. Another sort field needs its type, from the dictionary the name check read
    /// (or read here, as for the check of a write by query): a dot-walked field (sorted through the reference,
    /// where an empty reference sorts first but matches no `>`), a reference (sorted by its display value) and a
    /// boolean (compared by `=` and `!=` only) page by offset; so does every sort field under `display_value:
    /// true`, whose answers hold no stored values to continue after.
    ///
    /// - Throws: when the query's conditions, repeated in each group of the key's condition, would be more than
    ///   an encoded query holds (``NowData/EncodedQuery/maximumConditions``).
    func paging(_ query: EncodedQuery, on table: String, reading configuration: FieldReadConfiguration)
        async throws(StepFailure) -> Paging
    {
        let key = PagingKey(sortingBy: query.ordering)
        for field in key.sortFields {
            if let reason = await pagingProblem(field, on: table, reading: configuration) {
                return .offset(reason: "order_by \(field): \(reason)")
            }
        }
        let largest = key.largestQuery(query)
        if largest > EncodedQuery.maximumConditions {
            let own = query.conditionCount
            throw StepFailure(
                "query: paging by \(key.description) repeats the query's \(String(count: own, "condition")) in "
                    + "\(key.ordering.count * max(1, query.groups.count)) ^NQ groups, \(largest) conditions in all; an "
                    + "encoded query holds at most \(EncodedQuery.maximumConditions); give the query paging: offset, or "
                    + "fewer conditions; nothing was sent")
        }
        return .keyed(key)
    }

    /// Why a keyed read cannot page by `field`; nil when it can.
    private func pagingProblem(_ field: String, on table: String, reading configuration: FieldReadConfiguration)
        async -> String?
    {
        if field.contains(".") { return "a dot-walked field sorts through its reference" }
        if configuration.displayValue == .display { return "display_value: true reads no stored values to page by" }
        var dictionary = verificationDictionary ?? options.checkedDictionary.dictionary ?? InstanceDictionary()
        do {
            try await dictionary.loadTables([table], service: service)
            try await dictionary.loadFields(of: [table], service: service)
        } catch {
            return "the instance's dictionary (sys_db_object, sys_dictionary) cannot be read for its type"
        }
        verificationDictionary = dictionary
        guard let described = dictionary.conditionField(field, of: table) else {
            return "\(table) has no such field in the instance's dictionary"
        }
        return described.pagingProblem
    }
}
