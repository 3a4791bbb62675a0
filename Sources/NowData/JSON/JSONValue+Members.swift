import Foundation
internal import SimdJSON

extension JSONValue {
    /// The members named `keys` of the object that is the member `member` of the root object of the JSON document
    /// `data` (a Table API answer's `result`), read from simdjson's tape without building the rest of the document;
    /// nil when `data` is not JSON or holds no such object. Keys match as ``Coder/decode(_:from:at:)`` matches them.
    package static func members(_ keys: [String], of member: String, in data: Data) -> JSONObject? {
        guard let document = TapeDocument(data), document.entries[0].kind == .object,
            let object = document.member(member, inObjectAt: 0), document.entries[object].kind == .object
        else { return nil }
        var members = JSONObject()
        for key in keys {
            guard let index = document.member(key, inObjectAt: object) else { continue }
            members[key] = document.entries[index].kind == .string ? .string(document.string(at: index)) : document.value(at: index)
        }
        return members
    }
}
