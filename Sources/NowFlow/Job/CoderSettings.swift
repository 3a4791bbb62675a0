/// The job's `coder`: how dates are read and written, and the zone they are shown in.
struct CoderSettings: Sendable, Hashable {
    /// `coder.dates`.
    enum Dates: Sendable, Hashable {
        /// ServiceNow's `yyyy-MM-dd HH:mm:ss` in UTC.
        case servicenow
        case iso8601
        /// A `DateFormatter` pattern, such as `dd/MM/yyyy HH:mm`.
        case pattern(String)
    }

    var dates: Dates = .servicenow
    /// `UTC`, an IANA name, or `local`.
    var timezone: String = "UTC"
}
