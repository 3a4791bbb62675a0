import NowData

/// An `http` step's `expect`: the statuses accepted, headers that must contain a text, and values at dot paths of
/// the JSON body.
struct HTTPExpectation: Sendable, Hashable {
    /// One `json:` entry: the value wanted at a path of the body.
    struct JSONCheck: Sendable, Hashable {
        var path: DotPath
        var value: TemplateValue
    }

    /// The statuses accepted (any of them); empty: any 2xx.
    var statuses: [Int] = []
    var headers: [NamedTemplate] = []
    var json: [JSONCheck] = []
}
