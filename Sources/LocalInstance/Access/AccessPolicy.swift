import Foundation
import NowData

/// The one place that decides what an authenticated user may do, on every route: the Table API, the Aggregate
/// API, a batch's sub-requests, the Attachment API, the CMDB Instance API, the Service Catalog API, tiny URLs and
/// the web views.
///
/// - **Tables**: a read needs the table's ``TableRules/readRole`` and a write its ``TableRules/writeRole``
///   (declared on the table or one it extends), held directly or through a group, or `admin`; the configured
///   administrator may do everything. A table without a role is open to every authenticated user.
/// - **Records**: a record about another table's record (``TableRules/recordTableField``: an attachment, an audit
///   record of `sys_audit`) is read by those who may read that table; an attachment is written by those who may
///   write it; a record for a user (``TableRules/ownerField``: an approval) is read by that user too, without the
///   table's read role; no other record has rules of its own (there are no ACL scripts).
/// - **Fields**: a secret field (``FieldDefinition/isPassword``: `sys_user.user_password`,
///   `oauth_entity.client_secret`, `sys_api_key.token`, `password2` in the dictionary) is read by no one: not as a
///   value, a group, an aggregate, a condition or an ordering, and a log line about a condition on one does not repeat its value
///   (``QueryWarning``).
///
/// A handler cannot answer without it: every handler takes an ``Access``, which only ``access(for:)`` makes,
/// from the user the request authenticated as.
struct AccessPolicy: Sendable {
    let dictionary: TableDictionary
    let store: RecordStore
    let database: SQLiteDatabase
    /// The configured administrator's user name, who may do everything.
    let administrator: String

    init(dictionary: TableDictionary, store: RecordStore, database: SQLiteDatabase, administrator: String) {
        self.dictionary = dictionary
        self.store = store
        self.database = database
        self.administrator = administrator
    }

    /// What the authenticated user `userName` may do.
    func access(for userName: String) -> Access {
        Access(userName: userName, policy: self)
    }

    /// What one authenticated user may do: made only by ``AccessPolicy/access(for:)``.
    struct Access: Sendable {
        /// The user's `user_name`.
        let userName: String
        private let policy: AccessPolicy

        fileprivate init(userName: String, policy: AccessPolicy) {
            self.userName = userName
            self.policy = policy
        }

        /// Whether the user may read the records of `table`.
        ///
        /// - Throws: when the database cannot be read.
        func mayRead(_ table: TableDefinition) throws -> Bool {
            let rules = policy.dictionary.rules(of: table.name)
            return try rules.ownerField != nil || holds(rules.readRole)
        }

        /// Whether the user may insert, update and delete the records of `table`.
        ///
        /// - Throws: when the database cannot be read.
        func mayWrite(_ table: TableDefinition) throws -> Bool {
            try holds(policy.dictionary.rules(of: table.name).writeRole)
        }

        /// Refuses a write (`method`: POST, PUT, PATCH or DELETE) to `table` the user may not make, with the
        /// platform's 403 `ACL Exception <Insert|Update|Delete> Failed due to security constraints`.
        ///
        /// - Throws: that error, or the database's.
        func authorizeWrite(_ table: TableDefinition, method: String) throws {
            guard try !mayWrite(table) else { return }
            throw Self.refusal(method: method)
        }

        /// The platform's 403 for a write the ACLs refuse.
        static func refusal(method: String) -> TableAPIError {
            let verb =
                switch method.uppercased() {
                case "POST": "Insert"
                case "DELETE": "Delete"
                default: "Update"
                }
            return TableAPIError(
                status: 403, message: "Operation Failed",
                detail: "ACL Exception \(verb) Failed due to security constraints")
        }

        /// The SQL condition (with `?` placeholders) a record of `table` must meet for the user to read it; nil
        /// when the user reads every record. Rows the condition leaves out are not there for the user, as the
        /// platform's read ACLs leave them out of a list.
        ///
        /// - Throws: when the database cannot be read.
        func readCondition(_ table: TableDefinition) throws -> (clause: String, parameters: [SQLValue])? {
            let rules = policy.dictionary.rules(of: table.name)
            if let owner = rules.ownerField, try !holds(rules.readRole) {
                return ("\"\(owner)\" = ?", [.text(try userSysID() ?? "")])
            }
            guard try mayRead(table) else { return ("0", []) }
            guard let field = rules.recordTableField else { return nil }
            let hidden = try policy.dictionary.tableNames.compactMap(policy.dictionary.table).filter {
                try !mayRead($0)
            }.map(\.name)
            guard !hidden.isEmpty else { return nil }
            let marks = Array(repeating: "?", count: hidden.count).joined(separator: ", ")
            return ("\"\(field)\" NOT IN (\(marks))", hidden.map { .text($0) })
        }

        /// Whether the user may read `record` of `table`: the table's read role and, for a record about another
        /// table's record (an attachment, an audit record), the read role of that table; without the read role, a
        /// record for the user (``TableRules/ownerField``).
        ///
        /// - Throws: when the database cannot be read.
        func mayRead(_ table: TableDefinition, record: StoredRecord) throws -> Bool {
            let rules = policy.dictionary.rules(of: table.name)
            if let owner = rules.ownerField, try !holds(rules.readRole) {
                return try record[owner] == userSysID()
            }
            guard try mayRead(table) else { return false }
            guard let field = rules.recordTableField else { return true }
            guard let target = record[field].flatMap(policy.dictionary.table) else { return false }
            return try mayRead(target)
        }

        /// The field `name` of `table` for reading, grouping, aggregating or ordering; nil when the table has no
        /// such field.
        ///
        /// - Throws: a 403 for a secret field, which no one reads.
        func readableField(_ name: String, of table: TableDefinition) throws(TableAPIError) -> FieldDefinition? {
            guard let field = table.field(name) else { return nil }
            guard !field.isPassword else { throw Self.secretField(field.name, table: table.name) }
            return field
        }

        /// 403: a secret field asked for.
        static func secretField(_ name: String, table: String) -> TableAPIError {
            TableAPIError(
                status: 403, message: "Operation Failed",
                detail: "\(table).\(name) is a password field: no one reads it, as a value, a group or an aggregate")
        }

        /// The user's sys_id; nil when no `sys_user` has their name.
        private func userSysID() throws -> String? {
            guard policy.dictionary.table("sys_user") != nil else { return nil }
            return try policy.database.read { [policy, userName] db -> String? in
                let sql = policy.store.withHierarchies("SELECT \"sys_id\" FROM \"sys_user\" WHERE \"user_name\" = ?")
                if case .text(let sysID) = try db.query(sql, [.text(userName)]).first?.first {
                    return sysID
                }
                return nil
            }
        }

        /// Whether the user is the configured administrator or holds one of `roles` (or `admin`): the role check of
        /// an API that has its own (the Change Management API's, the Import Set API's).
        ///
        /// - Throws: when the database cannot be read.
        func holdsAny(_ roles: [String]) throws -> Bool {
            try roles.contains { try holds($0) }
        }

        /// Whether the user is the configured administrator or holds `role` (or `admin`); nil: true. (The Service
        /// Catalog asks it of the roles an item names.)
        func holds(_ role: String?) throws -> Bool {
            guard let role, userName != policy.administrator, policy.dictionary.table("sys_user") != nil,
                policy.dictionary.table("sys_user_has_role") != nil, policy.dictionary.table("sys_user_role") != nil
            else { return true }
            return try policy.database.read { [policy, userName] db -> Bool in
                let sql = policy.store.withHierarchies(
                    "SELECT count(*) FROM \"sys_user_has_role\" WHERE \"user\" IN (SELECT \"sys_id\" FROM "
                        + "\"sys_user\" WHERE \"user_name\" = ?) AND (\"state\" IS NULL OR \"state\" = 'active') AND "
                        + "\"role\" IN (SELECT \"sys_id\" FROM \"sys_user_role\" WHERE \"name\" IN (?, 'admin'))")
                if case .integer(let count) = try db.query(sql, [.text(userName), .text(role)]).first?.first {
                    return count > 0
                }
                return false
            }
        }
    }
}
