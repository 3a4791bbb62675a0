import LocalInstance

/// `nowflow serve`'s platform limits: `--profile pdi` for all of a PDI's, and each one on its own.
extension ServeCommand {
    /// The options of the limits, for the declaration.
    static let limitOptions: [CommandDeclaration.Option] = [
        .value("profile", "pdi", "emulate a PDI's limits: rate-limit rules, 4 concurrent requests, session queue 10, quotas"),
        .flag("rate-rules", "enforce the sys_rate_limit_rules records (counted per hour, or per --rate-window)"),
        .value("rate-window", "S", "with rate rules: seconds a rule counts requests in (default 3600, the platform's)"),
        .value("semaphore", "N", "handle at most N requests at once (a PDI: 4); more wait in the queue"),
        .value("semaphore-queue", "N", "with --semaphore: requests that may wait (default 50); one more gets 429"),
        .value("session-queue", "N", "handle one request per JSESSIONID at a time, N waiting (a PDI: 10); more get 202"),
        .value("api-quota", "S", "cancel a Table, Import Set, Aggregate or Attachment API request after S seconds (a PDI: 60)"),
        .value("batch-quota", "S", "cancel a batch request after S seconds (a PDI: 30)"),
    ]

    /// The limits `parsed` asks for: the profile's, then each option's.
    static func limits(_ parsed: CommandArguments) throws(UsageError) -> PlatformLimits {
        var limits = PlatformLimits()
        if let profile = parsed.value("profile") {
            guard profile == "pdi" else { throw UsageError("--profile expects pdi, got '\(profile)'") }
            limits = .pdi
        }
        if parsed.flag("rate-rules") { limits.rateRules = true }
        if let seconds = try count(parsed, "rate-window", at: 1) {
            limits.rateRules = true
            limits.rateWindow = .seconds(seconds)
        }
        if let count = try count(parsed, "semaphore", at: 1) { limits.concurrentRequests = count }
        if let count = try count(parsed, "semaphore-queue", at: 0) {
            guard limits.concurrentRequests != nil else {
                throw UsageError("--semaphore-queue is the queue of --semaphore: give --semaphore N or --profile pdi")
            }
            limits.queuedRequests = count
        }
        if let count = try count(parsed, "session-queue", at: 0) { limits.sessionQueue = count }
        if let seconds = try count(parsed, "api-quota", at: 1) { limits.apiQuota = .seconds(seconds) }
        if let seconds = try count(parsed, "batch-quota", at: 1) { limits.batchQuota = .seconds(seconds) }
        return limits
    }

    /// The whole number of option `name`, at least `minimum` (and at most a day's seconds or a million); nil when
    /// not given.
    private static func count(_ parsed: CommandArguments, _ name: String, at minimum: Int) throws(UsageError) -> Int? {
        guard let value = parsed.value(name) else { return nil }
        guard let number = Int(value), (minimum...1_000_000).contains(number) else {
            throw UsageError("--\(name) expects a whole number \(minimum)-1000000, got '\(value)'")
        }
        return number
    }
}
