import Foundation
import Testing

@testable import NowData
import SimdJSON

@Suite struct JSONValueTests {
    @Test func parsesAndWritesBackTheSameText() throws {
        let text = #"{"result":[{"number":"INC0010001","count":2800,"ratio":0.10,"tiny":1e-7,"big":18446744073709551615,"ok":true,"none":null,"tags":[],"meta":{}}]}"#
        let value = try JSONValue(json: Data(text.utf8))
        #expect(value.jsonText() == text)
        let path = try Coder.default.decode(JSONValue.self, from: Data(text.utf8), at: "result.0")
        #expect(path.jsonText() == #"{"number":"INC0010001","count":2800,"ratio":0.10,"tiny":1e-7,"big":18446744073709551615,"ok":true,"none":null,"tags":[],"meta":{}}"#)
        #expect(try JSONValue(json: Data(#"[-0, "1.5 \" 2", 1.50, {"k1": -0.0}]"#.utf8)).jsonText() == #"[-0,"1.5 \" 2",1.50,{"k1":-0.0}]"#)
        #expect(try value.value(at: "result.0.count") == .number(JSONNumber(2800)))
        #expect(try value.value(at: "result.0.count").number?.text == "2800")
        #expect(value["result"]?[0]?["ok"] == .bool(true))
    }

    @Test func numbersWrittenByHandKeepTheirText() throws {
        let number = try #require(JSONNumber(text: "0.10"))
        let body: JSONValue = ["amount": .number(number), "count": 2800, "half": 0.5]
        #expect(body.jsonText() == #"{"amount":0.10,"count":2800,"half":0.5}"#)
        #expect(JSONNumber(text: "01") == nil)
        #expect(JSONNumber(text: "1.") == nil)
        #expect(JSONNumber(text: "-0.5e+3")?.double == -500)
        #expect(JSONNumber(Double.infinity) == nil)
        #expect(JSONNumber(text: "1.0") == JSONNumber(1))
        #expect(Set([JSONNumber(1), JSONNumber(text: "1e0")!]).count == 1)
    }

    @Test func objectsKeepTheirOrderAndTheFirstOfTwoKeys() throws {
        let value = try JSONValue(json: Data(#"{"z":1,"a":2,"z":3,"m":{"y":null,"b":"x"}}"#.utf8))
        #expect(value.jsonText() == #"{"z":1,"a":2,"m":{"y":null,"b":"x"}}"#)
        var object = try #require(value.object)
        object["a"] = nil
        object["new"] = "last"
        object["z"] = "replaced"
        #expect(JSONValue.object(object).jsonText() == #"{"z":"replaced","m":{"y":null,"b":"x"},"new":"last"}"#)
        #expect(JSONValue.object(["a": 1, "b": 2]) == JSONValue.object(["b": 2, "a": 1]))
    }

    /// Objects made from a learned shape (the third of the same keys, and every `{link, value}` after the second)
    /// are the objects the members would make: the same values, order and equality, and they change as any other.
    @Test func objectsOfALearnedShapeAreTheSameObjects() throws {
        let keys = (0..<20).map { "shape_test_member_\($0)" }
        func text(_ row: Int) -> String {
            let members = keys.enumerated().map { index, key in
                index == 3
                    ? #""\#(key)":{"link":"https://example/\#(row)","value":"\#(row)"}"#
                    : #""\#(key)":"\#(row)-\#(index)""#
            }
            return "{" + members.joined(separator: ",") + "}"
        }
        for row in 0..<4 {
            let value = try JSONValue(json: Data(text(row).utf8))
            #expect(value.jsonText() == text(row))
            let object = try #require(value.object)
            #expect(object.keys == keys)
            #expect(object["shape_test_member_7"] == .string("\(row)-7"))
            #expect(value["shape_test_member_3"]?["value"] == .string("\(row)"))
            #expect(value == .object(JSONObject(keys.map { key in (key, object[key] ?? .null) })))
            var changed = object
            changed["shape_test_member_0"] = nil
            changed["shape_test_member_5"] = "five"
            changed["added"] = true
            #expect(changed.keys == Array(keys.dropFirst()) + ["added"])
            #expect(changed["shape_test_member_5"] == "five" && changed.count == 20)
            #expect(object.count == 20 && object["shape_test_member_0"] == .string("\(row)-0"))
        }
        // The same keys in another order, or one repeated, are not that shape.
        let reversed = "{" + keys.reversed().map { #""\#($0)":1"# }.joined(separator: ",") + "}"
        #expect(try JSONValue(json: Data(reversed.utf8)).object?.keys == keys.reversed())
        let repeated = "{" + (keys.dropLast() + [keys[0]]).map { #""\#($0)":1"# }.joined(separator: ",") + "}"
        for _ in 0..<3 {
            #expect(try JSONValue(json: Data(repeated.utf8)).object?.keys == Array(keys.dropLast()))
        }
    }

    /// An object of a learned shape is a copy of the shape's members filled in by the indexes of the shape's own
    /// dictionary, which hold for the copy (a value with the shape's contents) and across the assignment of
    /// values through them (`MutableCollection`). Shapes of 2 to 300 members (dictionaries of many sizes, whose
    /// order differs from the document's), filled by 8 tasks at once, each from its own copy of the shared ones:
    /// every value under its own key, or a wrong index traps.
    @Test func objectsOfALearnedShapeHoldEachValueUnderItsKey() async throws {
        let counts = [2, 3, 7, 16, 33, 100, 300]
        func text(_ count: Int, _ row: Int) -> String {
            "{" + (0..<count).map { #""shape_index_\#(count)_\#($0)":"\#(row)/\#($0)""# }.joined(separator: ",") + "}"
        }
        let failures = try await withThrowingTaskGroup(of: [String].self) { group in
            for task in 0..<8 {
                group.addTask {
                    var failures: [String] = []
                    for row in 0..<6 {
                        for count in counts {
                            let object = try #require(JSONValue(json: Data(text(count, task * 100 + row).utf8)).object)
                            let keys = (0..<count).map { "shape_index_\(count)_\($0)" }
                            if object.keys != keys { failures.append("\(count) members: keys \(object.keys)") }
                            for (index, key) in keys.enumerated()
                            where object[key] != .string("\(task * 100 + row)/\(index)") {
                                failures.append("\(count) members, task \(task), row \(row): \(key) is \(object[key] ?? .null)")
                            }
                        }
                    }
                    return failures
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(failures == [])
    }

    @Test func prettyTextIsIndentedByTwoSpaces() {
        let value: JSONValue = ["number": "INC0010001", "tags": ["a", 1], "empty": [], "none": .null]
        #expect(
            value.jsonText(pretty: true) == """
                {
                  "number": "INC0010001",
                  "tags": [
                    "a",
                    1
                  ],
                  "empty": [],
                  "none": null
                }
                """)
    }

    @Test func stringsAreEscapedAndKeptWhole() throws {
        let value: JSONValue = ["text": "before\u{0}after \"quoted\" \\ line\nnext é ✓"]
        let text = value.jsonText()
        #expect(text == #"{"text":"before\u0000after \"quoted\" \\ line\nnext é ✓"}"#)
        #expect(try JSONValue(json: Data(text.utf8)) == value)
    }

    @Test func malformedTextSaysWhere() {
        #expect {
            try JSONValue(json: Data(#"{"a": [1, 2}"#.utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.debugDescription.hasPrefix("The given data was not valid JSON: ")
                && context.debugDescription.contains("line 1, column")
        }
    }

    @Test func pathsGiveOneAnswerAndOneMessage() throws {
        let value = try JSONValue(json: Data(#"{"result":[{"number":"INC1","-1":"key"}],"n":"x"}"#.utf8))
        #expect(try value.value(at: "result.0.-1") == "key")
        #expect(try value.value(at: "") == value)
        func message(_ path: String) -> String {
            do {
                _ = try value.value(at: path)
                return "no error"
            } catch {
                return error.description
            }
        }
        #expect(message("result.3.number") == "no value at 'result.3' in path 'result.3.number': index 3 out of range (1 element)")
        #expect(message("result.-1") == "no value at 'result.-1' in path 'result.-1': 'result' is an array (1 element), and '-1' is not an index from 0")
        #expect(message("result.0.state") == "no value at 'result.0.state' in path 'result.0.state': key 'state' not found")
        #expect(message("n.x") == "no value at 'n.x' in path 'n.x': 'n' is a string, not an object")
        #expect(message("n.0") == "no value at 'n.0' in path 'n.0': 'n' is a string, not an array or an object")
        #expect(message("result..x") == "invalid path 'result..x': empty component")
    }

    @Test func codableThroughTheDefaultCoderKeepsKeysAsSent() throws {
        let data = Data(#"{"result":{"sys_id":"abc","short_description":"x","n":3}}"#.utf8)
        let value = try Coder.default.decode(JSONValue.self, from: data, at: "result")
        #expect(value.jsonText() == #"{"sys_id":"abc","short_description":"x","n":3}"#)
        let viaFoundation = try Coder.default.jsonDecoder.decode(JSONValue.self, from: data, at: "result")
        #expect(viaFoundation == value)
        let encoded = try Coder.default.jsonEncoder.encode(value)
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"n":3,"short_description":"x","sys_id":"abc"}"#)
    }

    @Test func datesCrossTheCoderSeamWithoutJSON() throws {
        let date = try #require(Coder.default.date(fromText: "2026-01-05 08:00:00"))
        #expect(date == Date(timeIntervalSince1970: 1_767_600_000))
        #expect(Coder.default.text(for: date) == "2026-01-05 08:00:00")
        #expect(Coder.default.date(fromText: "2026-02-30") == nil)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "Europe/Paris")
        formatter.dateFormat = "dd/MM/yyyy HH:mm"
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .formatted(formatter)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .formatted(formatter)
        let custom = Coder.custom(encoder, decoder)
        #expect(custom.text(for: date) == "05/01/2026 09:00")
        #expect(custom.date(fromText: "05/01/2026 09:00") == date)
        #expect(custom.date(fromText: "2026-01-05 08:00:00") == nil)
        let seconds = JSONEncoder()
        seconds.dateEncodingStrategy = .secondsSince1970
        #expect(Coder.custom(seconds, JSONDecoder()).text(for: date) == "1767600000")
        #expect(ServiceNowDateKind(text: "2026-01-05 08:00:00") == .dateTime)
        #expect(ServiceNowDateKind(text: "2026-01-05") == .date)
        #expect(ServiceNowDateKind(text: "2026-1-5") == nil)
        #expect(ServiceNowDateKind(text: "2026-13-05") == nil)
    }

    @Test func tapeEntriesAreReadWithTheCLayout() {
        #expect(MemoryLayout<TapeEntry>.size == 24)
        #expect(MemoryLayout<TapeEntry>.offset(of: \.count) == 4)
        #expect(MemoryLayout<TapeEntry>.offset(of: \.next) == 8)
    }
}
