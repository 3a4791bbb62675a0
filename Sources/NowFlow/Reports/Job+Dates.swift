extension Job {
    /// The job's dates, shown in `timeZone` (`--tz`: UTC, local or an IANA name), or else in its `coder.timezone`.
    public func dates(timeZone: String?) -> JobDates {
        JobDates(coder, zoneName: timeZone ?? coder.timezone)
    }
}
