import NowData

/// A value of a JSON report being read back (``RunReport/merging(_:)``), with where it is, so that a value not as
/// the contract says is refused with its place: `shard-2.json: jobs[0].steps[3].status: expected a text`.
struct ReportValue {
    /// The value.
    var json: JSONValue
    /// The report's file.
    var file: String
    /// Where the value is in it: `jobs[0].steps[3]`; empty for the whole report.
    var place: String

    /// The member `key`, which must be there (it may be null).
    func member(_ key: String) throws(ReportMergeError) -> ReportValue {
        guard case .object(let members) = json else { throw problem("expected an object") }
        guard let value = members[key] else { throw problem("no '\(key)'") }
        return ReportValue(json: value, file: file, place: place.isEmpty ? key : "\(place).\(key)")
    }

    /// The member `key` as a text.
    func text(_ key: String) throws(ReportMergeError) -> String {
        let value = try member(key)
        guard case .string(let text) = value.json else { throw value.problem("expected a text") }
        return text
    }

    /// The member `key` as a text or null.
    func optionalText(_ key: String) throws(ReportMergeError) -> String? {
        let value = try member(key)
        if value.json == .null { return nil }
        guard case .string(let text) = value.json else { throw value.problem("expected a text or null") }
        return text
    }

    /// The member `key` as a whole number.
    func integer(_ key: String) throws(ReportMergeError) -> Int {
        let value = try member(key)
        guard case .number(let number) = value.json, let whole = Int(number.text) else {
            throw value.problem("expected a whole number")
        }
        return whole
    }

    /// The member `key` as true or false.
    func boolean(_ key: String) throws(ReportMergeError) -> Bool {
        let value = try member(key)
        guard case .bool(let flag) = value.json else { throw value.problem("expected true or false") }
        return flag
    }

    /// The member `key` as an object's members.
    func object(_ key: String) throws(ReportMergeError) -> JSONObject {
        let value = try member(key)
        guard case .object(let members) = value.json else { throw value.problem("expected an object") }
        return members
    }

    /// The elements of the array `key`, each with its place.
    func elements(_ key: String) throws(ReportMergeError) -> [ReportValue] {
        let value = try member(key)
        guard case .array(let elements) = value.json else { throw value.problem("expected an array") }
        return elements.enumerated().map { index, element in
            ReportValue(json: element, file: file, place: "\(value.place)[\(index)]")
        }
    }

    /// The texts of the array `key`.
    func texts(_ key: String) throws(ReportMergeError) -> [String] {
        var texts: [String] = []
        for element in try elements(key) {
            guard case .string(let text) = element.json else { throw element.problem("expected a text") }
            texts.append(text)
        }
        return texts
    }

    /// The error that this value is not as expected: `file: place: message`.
    func problem(_ message: String) -> ReportMergeError {
        ReportMergeError(place.isEmpty ? "\(file): \(message)" : "\(file): \(place): \(message)")
    }
}
