import NowData

extension ExpressionValue {
    /// The value at `path`, from its component `start` on: the records a result holds and an item of records keep
    /// their type (``member(_:)``); the rest is walked in the JSON (``NowData/JSONValue/value(at:)-(DotPath)``),
    /// with the same answers and messages, positions counted in the whole path.
    func value(at path: DotPath, from start: Int = 0) throws(DotPathError) -> ExpressionValue {
        var value = self
        var position = start
        while position < path.components.count, let member = value.member(path.components[position]) {
            value = member
            position += 1
        }
        guard position < path.components.count else { return value }
        return .json(try value.json.value(at: path, from: position))
    }

    /// The typed value `component` names inside this one: a record of records (an index that names none is left
    /// to the JSON walk, which says why), the records a step's result holds (``StepResult/member(_:)``); nil for
    /// the rest.
    private func member(_ component: String) -> ExpressionValue? {
        switch self {
        case .records(let records):
            guard let index = DotPath.index(of: component), index < records.count else { return nil }
            return .record(records[index])
        case .result(let result):
            return result.member(component)
        case .json, .record, .date, .duration:
            return nil
        }
    }
}
