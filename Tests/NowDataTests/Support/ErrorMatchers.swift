import NowData

/// Whether `error` is ``NowDataError/missingSysID``, for `#expect(throws:)` checks.
func isMissingSysID(_ error: any Error) -> Bool {
    if case NowDataError.missingSysID = error { true } else { false }
}

/// Whether `error` is ``NowDataError/invalidURL``, for `#expect(throws:)` checks.
func isInvalidURL(_ error: any Error) -> Bool {
    if case NowDataError.invalidURL = error { true } else { false }
}
