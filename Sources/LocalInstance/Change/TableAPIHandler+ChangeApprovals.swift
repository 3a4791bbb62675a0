import NowData

/// A change's approvals, requested as its model declares (``TableRules/requestsModelApprovals``), whichever API
/// moved it.
extension TableAPIHandler {
    /// Asks the approvers the model of the change `sysID` (of `table`, as stored after the move) declares for its
    /// state (a requested `sysapproval_approver` each, unless one is already requested of them) and sets its
    /// `approval` to requested when anyone is asked; in the caller's transaction, stamped with `userName`.
    func requestModelApprovals(
        _ table: TableDefinition, sysID: String, timestamp: String, userName: String, _ db: SQLiteConnection
    ) throws {
        guard let change = try store.fetch(table, sysID: sysID, db),
            let approvers = ChangeModel.model(of: change)?.approvals[change["state"] ?? ""],
            let approvals = dictionary.table("sysapproval_approver")
        else { return }
        let users = try self.users(approvers, of: change, db)
        guard !users.isEmpty else { return }
        let user = try userSysID(userName, db) ?? ""
        for approver in users
        where try store.count(
            approvals, where: "\"sysapproval\" = ? AND \"approver\" = ? AND \"state\" = 'requested'",
            [.text(sysID), .text(approver)], db) == 0
        {
            _ = try insertRecord(
                approvals,
                [
                    "sysapproval": sysID, "document_id": sysID, "source_table": table.name, "approver": approver,
                    "state": "requested",
                ], by: userName, userSysID: user, timestamp, db)
        }
        _ = try updateRecord(table, sysID: sysID, ["approval": "requested"], by: userName, timestamp, db)
    }

    /// The sys_ids of the users `approvers` names for `change`.
    private func users(_ approvers: ChangeModel.Approvers, of change: StoredRecord, _ db: SQLiteConnection) throws
        -> [String]
    {
        guard let groups = dictionary.table("sys_user_group"), let members = dictionary.table("sys_user_grmember")
        else { return [] }
        switch approvers {
        case .assignmentGroupManager:
            let group = try store.fetch(groups, sysID: change["assignment_group"] ?? "", db)
            return [group?["manager"] ?? ""].filter { !$0.isEmpty }
        case .groupMembers(let name):
            let group =
                try store.select(groups, where: "\"name\" = ?", [.text(name)], orderBy: "", limit: 1, offset: 0, db)
                .first?["sys_id"] ?? ""
            return try store.select(
                members, where: "\"group\" = ?", [.text(group)], orderBy: "\"sys_created_on\"", limit: -1, offset: 0, db
            ).compactMap { $0["user"] }.filter { !$0.isEmpty }
        }
    }
}
