import NowData

/// A change created from a standard-change template (`std_change_producer_version` set on the new record) gets the
/// template's values (`template`: `field=value^field=value`) for the fields the request does not set, as the
/// platform fills a standard change from its template.
extension TableAPIHandler {
    func templateValues(_ table: TableDefinition, _ changes: StoredRecord, _ db: SQLiteConnection) throws
        -> StoredRecord
    {
        guard table.field("std_change_producer_version") != nil, let version = changes["std_change_producer_version"],
            !version.isEmpty, let versions = dictionary.table("std_change_producer_version"),
            let template = try store.fetch(versions, sysID: version, db)?["template"], !template.isEmpty,
            let query = try? EncodedQuery.parse(template)
        else { return [:] }
        var values = StoredRecord()
        for case .condition(let condition) in query.groups.flatMap(\.clauses).flatMap(\.terms)
        where condition.op == .equals && changes[condition.field] == nil {
            guard let field = table.field(condition.field), !TableDefinition.systemFieldNames.contains(field.name),
                field.storedValue(condition.value) != nil
            else { continue }
            values[field.name] = condition.value
        }
        return values
    }
}
