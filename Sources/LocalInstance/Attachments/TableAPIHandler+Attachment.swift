import NowData

/// `sys_attachment` through the Table API: its rows are written by the Attachment API only, so that an
/// attachment's name, type and record are those of its upload. An insert or update is refused with the platform's
/// ACL answer; a delete needs write access to the attachment's record, as the Attachment API's delete does.
extension TableAPIHandler {
    func authorizeAttachmentWrite(_ table: TableDefinition, _ request: TableAPIRequest, _ access: AccessPolicy.Access)
        throws
    {
        guard request.method == "DELETE", let sysID = request.sysID else {
            throw AccessPolicy.Access.refusal(method: request.method)
        }
        let record = try database.read { db in try store.fetch(table, sysID: sysID, db) }
        guard let record else { return }
        guard try access.mayRead(table, record: record) else { throw TableAPIError.noRecord }
        guard let target = record["table_name"].flatMap(dictionary.table), try access.mayWrite(target) else {
            throw AccessPolicy.Access.refusal(method: request.method)
        }
    }
}
