extension Job {
    /// Dates shown in `timeZone` (`--tz`: UTC, local or an IANA name), or else in the job's `coder.timezone`.
    public func dateDisplay(timeZone: String?) -> DateDisplay {
        DateDisplay(coder, zoneName: timeZone ?? coder.timezone)
    }
}
