/// A `sys_script` record (a business rule) as the instance reads it to abort a write (see
/// `TableAPIHandler+BusinessRules.swift`); its scripts are stored, never read.
struct BusinessRuleRecord: Sendable, Equatable {
    /// `name`, for the log line.
    var name: String
    /// `filter_condition`: the encoded query a written record must match for the rule to abort the write.
    var filterCondition: String
    /// `message` when `add_message` is set; nil otherwise.
    var message: String?

    /// The rule of a stored `sys_script` row.
    init(_ stored: StoredRecord) {
        name = stored["name"] ?? ""
        filterCondition = stored["filter_condition"] ?? ""
        message = stored["add_message"] == "true" ? stored["message"] ?? "" : nil
    }
}
