import NowData

/// How the records a step reads, creates or updates come back: `display_value` and `exclude_reference_link`.
struct ReadSettings: Sendable, Hashable {
    var displayValue: DisplayValueMode = .actual
    var excludeReferenceLink = false
}
