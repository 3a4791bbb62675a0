import NowData

/// `extract`: the value at `path` inside the value of `from`.
struct ExtractStep: Sendable, Hashable {
    var from: Expression
    var fromSource: String
    var path: DotPath
}
