import NowData

extension DotPathError {
    /// Whether the path fails because a key or an index is not there (what `??` replaces), rather than because a
    /// component cannot apply to the value it meets.
    var namesAbsentValue: Bool {
        switch reason {
        case .keyNotFound, .indexOutOfRange: true
        case .emptyComponent, .notAnIndex, .notAContainer: false
        }
    }
}
