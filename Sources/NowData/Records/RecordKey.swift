/// A coding key of a path into a response's records: a member's name, or an element's index (named as
/// `JSONDecoder` names it, `Index 3`, and shown as `[3]` in messages).
enum RecordKey: CodingKey, Hashable, Sendable {
    case member(String)
    case index(Int)

    init(stringValue: String) {
        self = .member(stringValue)
    }

    init(intValue: Int) {
        self = .index(intValue)
    }

    var stringValue: String {
        switch self {
        case .member(let name): name
        case .index(let index): "Index \(index)"
        }
    }

    var intValue: Int? {
        if case .index(let index) = self { index } else { nil }
    }
}
