import NowData

/// Roles decide who writes: a POST, PUT, PATCH or DELETE on a table whose rules name a write role
/// (``TableRules/writeRole``, declared on the table or a table it extends) needs a user who holds it or `admin`
/// (`sys_user_has_role`, directly or through a group, in state active), or the configured administrator; anyone
/// else gets the platform's 403.
extension TableAPIHandler {
    func authorizeWrite(_ table: TableDefinition, _ request: TableAPIRequest) throws {
        guard let role = dictionary.rules(of: table.name).writeRole, request.userName != administrator,
            dictionary.table("sys_user") != nil, dictionary.table("sys_user_has_role") != nil,
            dictionary.table("sys_user_role") != nil
        else { return }
        let holds = try database.read { db -> Bool in
            let sql = store.withHierarchies(
                "SELECT count(*) FROM \"sys_user_has_role\" WHERE \"user\" IN (SELECT \"sys_id\" FROM \"sys_user\" "
                    + "WHERE \"user_name\" = ?) AND (\"state\" IS NULL OR \"state\" = 'active') AND \"role\" IN "
                    + "(SELECT \"sys_id\" FROM \"sys_user_role\" WHERE \"name\" IN (?, 'admin'))")
            if case .integer(let count) = try db.query(sql, [.text(request.userName), .text(role)]).first?.first {
                return count > 0
            }
            return false
        }
        guard !holds else { return }
        let verb =
            switch request.method {
            case "POST": "Insert"
            case "DELETE": "Delete"
            default: "Update"
            }
        throw TableAPIError(
            status: 403, message: "Operation Failed", detail: "ACL Exception \(verb) Failed due to security constraints")
    }
}
