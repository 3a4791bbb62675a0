/// `get`: one record by `sys_id`.
struct GetStep: Sendable, Hashable {
    var table: Template
    var sysID: Template
    var fields: [String] = []
    var read = ReadSettings()
}
