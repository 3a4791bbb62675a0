import Foundation
import TestSupport
import Testing

@testable import NowData

/// `Coder.default`'s simdjson decoding against `Coder.default.jsonDecoder`: where the fast path returns a value it
/// must be JSONDecoder's, and where it declines, `Coder.decode` gives JSONDecoder's value or error.
@Suite struct TapeDecodingTests {
    typealias Outcome = DecodingComparison.Outcome

    struct Incident: SysIdentifiableModel, Equatable {
        var sysId: String = ""
        var number: String
        @NowValue var priority: Int
        @NowValue var active: Bool
        @NowValue var openedAt: Date
        @NowValue var resolvedAt: Date?
        var shortDescription: String?
        @NowValue var callerId: NowReference?
        @NowValue var assignedTo: NowReference?
    }

    /// A page as the Table API sends it; the three records show the three shapes of a reference.
    static let page = #"""
        {"result":[
          {"sys_id":"a1","number":"INC0000001","priority":"1","active":"true","opened_at":"2024-08-01 13:45:30",
           "resolved_at":"","short_description":"Printer \"jam\"\nagain","caller_id":"6816f79cc0a8016401c5a33be04be441",
           "assigned_to":""},
          {"sys_id":"a2","number":"INC0000002","priority":"2","active":"false","opened_at":"2024-02-29",
           "resolved_at":"2024-03-01 00:00:01","caller_id":{"link":"https://x.service-now.com/api/now/table/sys_user/abc",
           "value":"abc"},"assigned_to":{"link":"https://x.service-now.com/api/now/table/sys_user/def","value":"def"}},
          {"sys_id":"a3","number":"INC0000003","priority":{"display_value":"3 - Moderate","value":"3"},
           "active":{"display_value":"true","value":"true"},
           "opened_at":{"display_value":"01/08/2024 15:45:30","value":"2024-08-01 13:45:30"},
           "resolved_at":{"display_value":"","value":""},"short_description":null,
           "caller_id":{"display_value":"Abel Tuter","link":"https://x.service-now.com/api/now/table/sys_user/62",
           "value":"62"},"assigned_to":{"display_value":"","link":"","value":""}}
        ]}
        """#

    @Test func decodesATableAPIPageOnTheFastPath() throws {
        let outcome = DecodingComparison.expectSame([Incident].self, Self.page, at: "result", .fast)
        guard case .value(let incidents) = outcome else {
            Issue.record("JSONDecoder failed: \(outcome)")
            return
        }
        #expect(incidents.map(\.callerId?.value) == ["6816f79cc0a8016401c5a33be04be441", "abc", "62"])
        #expect(incidents[2].callerId?.displayValue == "Abel Tuter")
        #expect(incidents.map(\.assignedTo?.value) == [nil, "def", nil])
        #expect(incidents.map(\.resolvedAt) == [nil, Date(timeIntervalSince1970: 1_709_251_201), nil])
        DecodingComparison.expectSame(Incident.self, Self.page, at: "result.0", .fast)
        DecodingComparison.expectSame(NowReference.self, Self.page, at: "result.2.caller_id", .fast)
        DecodingComparison.expectSame(NowReference.self, Self.page, at: "result.1.callerId", .fast)
        DecodingComparison.expectSame(String.self, Self.page, at: "result.2.priority.display_value", .fast)
    }

    struct Named: Decodable, Equatable {
        var name: String
    }

    @Test func decodesAtPaths() {
        let json = #"{"result":{"caller_id":{"name":"Abel"},"items":[[1,2],[3]],"3":{"name":"three"}},"n":1}"#
        DecodingComparison.expectSame([String: JSONValue].self, json, .fast)
        DecodingComparison.expectSame(Named.self, json, at: "result.caller_id", .fast)
        DecodingComparison.expectSame(Named.self, json, at: "result.callerId", .fast)
        DecodingComparison.expectSame(Int.self, json, at: "result.items.0.1", .fast)
        DecodingComparison.expectSame(Named.self, json, at: "result.3", .fast)
    }

    /// A model that keeps the coding path it was decoded at.
    struct Located: Decodable, Equatable {
        var path: [String]
        var indices: [Int?]

        init(from decoder: any Decoder) throws {
            path = decoder.codingPath.map(\.stringValue)
            indices = decoder.codingPath.map(\.intValue)
        }
    }

    @Test func decodesAtTheCodingPathJSONDecoderGives() {
        let json = #"{"result":[{"caller_id":{}},{"a_b":[{}]}],"sys_id":{}}"#
        for path in ["", "result", "result.0", "result.0.caller_id", "result.1.a_b.0", "sys_id", "sysId"] {
            DecodingComparison.expectSame(Located.self, json, at: path, .fast)
        }
        DecodingComparison.expectSame([Located].self, json, at: "result", .fast)
        DecodingComparison.expectSame([String: Located].self, json, at: "result.0", .fast)
        DecodingComparison.expectSame([String: [Located]].self, json, at: "result.1", .fast)
    }

    /// A path that finds nothing is JSONDecoder's error, word for word.
    @Test(arguments: [
        "missing", "result.missing", "result.items.2", "result.items.-1", "result.items.x", "n.name", "n.0",
        "result..items", ".", "result.", "result.items.0.1.x",
    ])
    func pathsThatFindNothingFallBack(path: String) {
        let json = #"{"result":{"caller_id":{"name":"Abel"},"items":[[1,2],[3]]},"n":1}"#
        let outcome = DecodingComparison.expectSame(Int.self, json, at: path, .fallback)
        #expect(outcome != .value(0))
    }

    struct Primitives: Decodable, Equatable {
        var bool: Bool
        var string: String
        var double: Double
        var int: Int
        var int8: Int8
        var int16: Int16
        var int32: Int32
        var int64: Int64
        var uint: UInt
        var uint8: UInt8
        var uint16: UInt16
        var uint32: UInt32
        var uint64: UInt64
        var url: URL
        var date: Date
        var optional: Int?
        var absent: String?
        var nested: [[Int?]]
    }

    @Test func decodesEveryPrimitiveOnTheFastPath() {
        let json = #"""
            {"bool":true,"string":"é\u0000\ud83d\ude00\"\\\/\b\f\n\r\t","double":-1.5e-3,"int":-9223372036854775808,
             "int8":-128,"int16":32767,"int32":-2147483648,"int64":9223372036854775807,"uint":18446744073709551615,
             "uint8":255,"uint16":65535,"uint32":4294967295,"uint64":18446744073709551615,
             "url":"https://example.com/a?b=c","date":"2024-08-01 13:45:30","optional":null,"nested":[[1,null],[],[null]]}
            """#
        DecodingComparison.expectSame(Primitives.self, json, .fast)
        for (field, bad) in [
            (#""int8":-128"#, #""int8":128"#), (#""uint":18446744073709551615"#, #""uint":-1"#),
            (#""bool":true"#, #""bool":1"#), (#""date":"2024-08-01 13:45:30""#, #""date":"x""#),
        ] {
            DecodingComparison.expectSame(Primitives.self, json.replacingOccurrences(of: field, with: bad), .fallback)
        }
    }

    /// Strings are copied off the tape without checking their UTF-8 again, flagged ASCII when they are: each one
    /// is JSONDecoder's and behaves as the same text made by the standard library (characters, scalars, order,
    /// hash), whether it is ASCII or has other characters first, last or at the places the ASCII check reads a word
    /// or a block of four at a time; as values of a `JSONValue` and as keys too.
    @Test func stringsAreTheStringsJSONDecoderMakes() throws {
        // JSON text: characters as written and as escapes (a surrogate pair, NUL, a decomposed é).
        let pieces = ["é", #"e\u0301"#, #"\u00e9"#, "✓", #"\ud83d\ude00"#, "😀", #"\u0000"#, #"\\"#, #"\""#, #"\n"#, "ÿ"]
        var texts = [""]
        for length in [1, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 40, 64, 65] {
            let ascii = String(repeating: "a", count: length)
            texts.append(ascii)
            for (index, piece) in pieces.enumerated() {
                texts.append(piece + ascii)
                texts.append(ascii + piece)
                let middle = ascii.index(ascii.startIndex, offsetBy: (index * 5) % length)
                texts.append(String(ascii[..<middle]) + piece + String(ascii[middle...]))
            }
        }
        let json = "[" + texts.map { #""\#($0)""# }.joined(separator: ",") + "]"
        DecodingComparison.expectSame([String].self, json, .fast)
        let data = Data(json.utf8)
        let fast = try #require(TapeDecoding.decode([String].self, from: data, at: ""))
        let reference = try JSONDecoder().decode([String].self, from: data)
        let parsed = try #require(NowData.JSONValue(json: data).array).compactMap { $0.string }
        #expect(parsed == reference)
        let keyed = "{" + texts.enumerated().map { #""\#($1)":\#($0)"# }.joined(separator: ",") + "}"
        let keys = try #require(NowData.JSONValue(json: Data(keyed.utf8)).object).keys
        // Of two keys that are the same text (é written precomposed and decomposed), the first is kept.
        #expect(keys.count == Set(reference).count)
        for string in fast + parsed + keys {
            // The standard library's own copy, built scalar by scalar.
            var rebuilt = ""
            rebuilt.unicodeScalars.append(contentsOf: string.unicodeScalars)
            #expect(reference.contains(string))
            #expect(string == rebuilt && string.hashValue == rebuilt.hashValue)
            #expect(string.count == rebuilt.count && Array(string) == Array(rebuilt))
            #expect(string.utf16.count == rebuilt.utf16.count && string.utf8.elementsEqual(rebuilt.utf8))
            #expect(!(string < rebuilt) && !(rebuilt < string) && string.lowercased() == rebuilt.lowercased())
        }
    }

    @Test func decodesSingleValues() {
        DecodingComparison.expectSame(Bool.self, "false", .fast)
        DecodingComparison.expectSame(String.self, #""\u00e9\ud83d\ude00""#, .fast)
        DecodingComparison.expectSame(Int8.self, "-128", .fast)
        DecodingComparison.expectSame(UInt64.self, "18446744073709551615", .fast)
        DecodingComparison.expectSame(Int.self, "9007199254740993", .fast)
        DecodingComparison.expectSame(Double.self, "9007199254740993", .fast)
        DecodingComparison.expectSame(Double.self, "18446744073709551615", .fast)
        DecodingComparison.expectSame(Double.self, "0.1", .fast)
        DecodingComparison.expectSame(Double.self, "1.7976931348623157e308", .fast)
        DecodingComparison.expectSame(Date.self, #""2024-08-01""#, .fast)
        DecodingComparison.expectSame(URL.self, #""https://example.com/x""#, .fast)
        DecodingComparison.expectSame(Int?.self, "null", .fast)
        DecodingComparison.expectSame([Int?].self, "[1,null,3]", .fast)
    }

    /// What JSONDecoder reads its own way is left to it.
    @Test func leavesFoundationsOwnReadingsToJSONDecoder() {
        DecodingComparison.expectSame(Float.self, "1.5", .fallback)
        DecodingComparison.expectSame(Decimal.self, "1.5", .fallback)
        DecodingComparison.expectSame(Data.self, #""AQID""#, .fallback)
        DecodingComparison.expectSame(Int128.self, "1", .fallback)
        DecodingComparison.expectSame(UInt128.self, "1", .fallback)
        DecodingComparison.expectSame(Int.self, "1.0", .fallback)
        DecodingComparison.expectSame(Int.self, "1e2", .fallback)
        DecodingComparison.expectSame(Int.self, "1.5", .fallback)
        DecodingComparison.expectSame(URL.self, #""""#, .fallback)
        DecodingComparison.expectSame(Date.self, "12", .fallback)
        DecodingComparison.expectSame(Date.self, #""2024-02-30""#, .fallback)
    }

    /// Numbers at the edges: both ways agree, whichever decides.
    @Test(arguments: [
        "-0", "0", "-0.0", "0.0", "1e-400", "1e400", "-9223372036854775809", "18446744073709551616",
        "123456789012345678901234567890", "1E2", "4.9e-324", "2.2250738585072011e-308", "00", "-", "1.", ".5",
        "0.30000000000000004", "-1", "128", "-129", "256",
    ])
    func numbers(text: String) {
        let double = DecodingComparison.expectSame(Double.self, text)
        if case .value(let value) = double, let fast = TapeDecoding.decode(Double.self, from: Data(text.utf8), at: "") {
            #expect(fast.sign == value.sign)
        }
        DecodingComparison.expectSame(Int.self, text)
        DecodingComparison.expectSame(UInt.self, text)
        DecodingComparison.expectSame(Int8.self, text)
        DecodingComparison.expectSame(UInt8.self, text)
        DecodingComparison.expectSame(UInt64.self, text)
    }

    @Test func negativeZeroKeepsItsSign() throws {
        let fast = TapeDecoding.decode(Double.self, from: Data("-0".utf8), at: "")
        let reference = try Coder.default.jsonDecoder.decode(Double.self, from: Data("-0".utf8))
        #expect(try Coder.default.decode(Double.self, from: Data("-0".utf8)).sign == reference.sign)
        #expect(fast.map(\.sign) ?? reference.sign == reference.sign)
        DecodingComparison.expectSame(Double.self, "-0.0", .fallback)
        #expect(try Coder.default.decode(Double.self, from: Data("-0.0".utf8)).sign == .minus)
    }

    /// simdjson reads a number too small for a Double as zero; JSONDecoder refuses it, so every zero read as a
    /// Double is left to JSONDecoder.
    @Test(arguments: ["1e-400", "-1e-400", "2e-324", "0.0", "-0.0", "0e-400", "[1e-400]"])
    func zerosReadAsDoublesFallBack(text: String) {
        DecodingComparison.expectSame(JSONValue.self, text, .fallback)
    }

    @Test func subnormalsAndIgnoredUnderflowsStayFast() {
        DecodingComparison.expectSame(Double.self, "1e-320", .fast)
        DecodingComparison.expectSame(Named.self, #"{"name":"x","tiny":1e-400}"#, .fast)
    }

    struct Optionals: Decodable, Equatable {
        var present: Int?
        var null: Int?
        var missing: Int?
        var text: String?
        var flag: Bool?
        var ratio: Double?
        var named: Named?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: PathKey.self)
            present = try container.decodeIfPresent(Int.self, forKey: PathKey(stringValue: "present"))
            null = try container.decodeIfPresent(Int.self, forKey: PathKey(stringValue: "null"))
            missing = try container.decodeIfPresent(Int.self, forKey: PathKey(stringValue: "missing"))
            text = try container.decodeIfPresent(String.self, forKey: PathKey(stringValue: "text"))
            flag = try container.decodeIfPresent(Bool.self, forKey: PathKey(stringValue: "flag"))
            ratio = try container.decodeIfPresent(Double.self, forKey: PathKey(stringValue: "ratio"))
            named = try container.decodeIfPresent(Named.self, forKey: PathKey(stringValue: "named"))
        }
    }

    @Test func decodesOptionalsNullsAndMissingKeys() {
        DecodingComparison.expectSame(Optionals.self, #"{"present":1,"null":null,"text":"t","flag":false,"ratio":2.5}"#, .fast)
        DecodingComparison.expectSame(Optionals.self, #"{"present":null,"named":{"name":"n"}}"#, .fast)
        DecodingComparison.expectSame(Optionals.self, #"{"present":"1"}"#, .fallback)
        DecodingComparison.expectSame(Named.self, #"{}"#, .fallback)
        DecodingComparison.expectSame(Named.self, #"{"name":null}"#, .fallback)
        DecodingComparison.expectSame(Named.self, #"[]"#, .fallback)
    }

    struct Row: Decodable, Equatable {
        var sysId: String
        var name: String?
        var count: Int?
        var child: [Row]?
    }

    /// Key plans: the rows of one array resolve their keys once per shape and reuse the answer; rows whose keys,
    /// key order, nesting or duplicates differ, and a model nested in itself, still decode as JSONDecoder decodes them.
    @Test func rowsOfManyShapesDecodeAsJSONDecoderDoes() {
        let rows = [
            #"{"sys_id":"1","name":"a","count":1}"#,
            #"{"sys_id":"2","name":"b","count":2}"#,
            #"{"sys_id":"3","name":"c","count":3}"#,
            #"{"name":"d","sys_id":"4","count":4}"#,
            #"{"sys_id":"5","count":5}"#,
            #"{"sys_id":"6","name":null,"count":6}"#,
            #"{"sys_id":"7","sysId":"seven","name":"g","count":7}"#,
            #"{"sysId":"8","sys_id":"eight","name":"h","count":8}"#,
            #"{"sys_id":"9","name":"i","count":9,"child":[{"sys_id":"9.1","child":[{"sys_id":"9.1.1"}]}]}"#,
            #"{"sys_id":"10","name":"j","count":10,"child":[]}"#,
            #"{"sys_id":"11","name":"k","count":11,"child":[{"sys_id":"11.1","name":"k1"}]}"#,
            #"{"sys_id":"12","name":"l","count":12}"#,
            #"{"sys_id":"13","nAme":"m","count":13}"#,
            #"{"sys_id":"14","name":"n","count":14,"extra":{"sys_id":"x"}}"#,
            #"{"sys_id":"15","name":"o","count":15}"#,
        ]
        DecodingComparison.expectSame([Row].self, "[" + rows.joined(separator: ",") + "]", .fast)
        // A row that does not decode, after rows of its shape that did: the error and its coding path are JSONDecoder's.
        let failing = rows.prefix(3) + [#"{"sys_id":"x","name":"a","count":"1"}"#]
        DecodingComparison.expectSame([Row].self, "[" + failing.joined(separator: ",") + "]")
        let missing = rows.prefix(3) + [#"{"name":"a","count":1}"#]
        DecodingComparison.expectSame([Row].self, "[" + missing.joined(separator: ",") + "]")
        // More shapes than a key type gets plans for.
        let shapes = (0..<12).map { #"{"sys_id":"\#($0)","k\#($0)":\#($0),"name":"n"}"# }
        DecodingComparison.expectSame([Row].self, "[" + (shapes + shapes).joined(separator: ",") + "]", .fast)
    }

    @Test func dictionariesKeepTheirKeysAsSent() {
        let outcome = DecodingComparison.expectSame([String: Int].self, #"{"sys_id":1,"Mixed_Case":2,"a__b":3}"#, .fast)
        #expect(outcome == .value(["sys_id": 1, "Mixed_Case": 2, "a__b": 3]))
        DecodingComparison.expectSame([String: Named].self, #"{"caller_id":{"name":"x"},"sys_id":{"name":"y"}}"#, .fast)
        DecodingComparison.expectSame([String: [String: Int?]].self, #"{"a_b":{"c_d":null}}"#, .fast)
        DecodingComparison.expectSame([String: Int].self, #"{"a":1,"a":2}"#, .fast)
        DecodingComparison.expectSame([String: Int].self, #"{"a":1,"b":"x"}"#, .fallback)
    }

    /// A dictionary decoded through `Dictionary.init(from:)` is a keyed container: its keys are converted.
    struct ConvertedMap: Decodable, Equatable {
        var map: [String: Int]

        init(from decoder: any Decoder) throws {
            map = try [String: Int](from: decoder)
        }
    }

    @Test func dictionariesDecodedThroughTheirOwnInitConvertTheirKeys() throws {
        let outcome = DecodingComparison.expectSame(ConvertedMap.self, #"{"sys_id":1,"sysId":2,"a_b_c":3,"A_B":4}"#, .fast)
        let converted = try JSONDecoder().decode(ConvertedMap.self, from: Data(#"{"sysId":1,"aBC":3,"aB":4}"#.utf8))
        #expect(outcome == .value(converted))
        DecodingComparison.expectSame([Int: String].self, #"{"1":"a","1_2":"b","12":"c"}"#, .fast)
    }

    @Test(arguments: ["https://a b", "a b", "https://é.com/ü?q=1 2", "//x", "http://[::1]:80/", "%", "file:///tmp/x y"])
    func decodesURLsAsJSONDecoderDoes(text: String) {
        DecodingComparison.expectSame(URL.self, "\"\(text)\"")
    }

    /// Plain JSONDecoder decodes every member of a dictionary, the duplicates too, before it keeps the first; the
    /// fast path declines such a document, and `Coder.decode` keeps the first without reading the others.
    @Test func dictionaryDuplicatesKeepTheFirst() throws {
        DecodingComparison.expectSame([String: Int].self, #"{"a":1,"a":"x"}"#, .fallback, keysAsWritten: true)
        DecodingComparison.expectSame([String: Date].self, #"{"a":"2024-08-01","a":"x"}"#, .fallback, keysAsWritten: true)
        #expect(try Coder.default.decode([String: Int].self, from: Data(#"{"a":1,"a":"x"}"#.utf8)) == ["a": 1])
    }

    struct Keys: Decodable, Equatable {
        var sysId: String
        var _a: String?
        var a_: String?
        var aB: String?
        var a1b: String?
        var a1B: String?
        var héLlo: String?
        var abc: String?
    }

    @Test(arguments: [
        #"{"sys_id":"first","sysId":"second"}"#, #"{"sysId":"first","sys_id":"second"}"#,
        #"{"sys_id":"first","sys__id":"second","_sys_id":"x"}"#, #"{"sys_id":"1","_a":"x","a_":"y","a__b":"z"}"#,
        #"{"sys_id":"1","a_1b":"x","a1_b":"y"}"#, #"{"sys_id":"1","A_B":"x","SYS_ID":"y"}"#,
        #"{"sys_id":"1","hé_llo":"x","HÉ_LLO":"y"}"#, #"{"sys_id":"1","a_b_c":"x","ABC":"y","abc":"z"}"#,
        #"{"Sys_Id":"1","sys_id":"2"}"#, #"{"sys_id":"1","__":"x","_":"y","a_":"z"}"#,
    ])
    func matchesKeysAsTheSnakeCaseStrategyDoes(json: String) {
        DecodingComparison.expectSame(Keys.self, json, .fast)
    }

    /// Decodes through every container method a hand-written `init(from:)` may call.
    struct Custom: Decodable, Equatable {
        var owner: String
        var superValue: Int
        var inner: [String]
        var items: [Int]
        var keys: Set<String>
        var contains: [Bool]
        var nothingIsNil: Bool
        var either: String
        var grid: [[Int]]
        var pairs: [String]
        var scalars: [String]

        init(from decoder: any Decoder) throws {
            func key(_ name: String) -> PathKey { PathKey(stringValue: name) }
            let object = try decoder.container(keyedBy: PathKey.self)
            owner = try object.superDecoder(forKey: key("owner")).singleValueContainer().decode(String.self)
            superValue = try object.superDecoder().singleValueContainer().decode(Int.self)
            let inner = try object.nestedContainer(keyedBy: PathKey.self, forKey: key("innerObject"))
            self.inner = try inner.allKeys.map(\.stringValue).sorted().map { try inner.decode(String.self, forKey: key($0)) }
            var items = try object.nestedUnkeyedContainer(forKey: key("items"))
            self.items = []
            while !items.isAtEnd {
                self.items.append(try items.decodeNil() ? -1 : items.decode(Int.self))
            }
            keys = Set(object.allKeys.map(\.stringValue))
            contains = ["owner", "missing", "nothing", "inner_object", "innerObject"].map { object.contains(key($0)) }
            nothingIsNil = try object.decodeNil(forKey: key("nothing"))
            either = try (try? object.decode(Int.self, forKey: key("value"))).map(String.init)
                ?? object.decode(String.self, forKey: key("value"))
            var rows = try object.nestedUnkeyedContainer(forKey: key("grid"))
            grid = []
            while !rows.isAtEnd {
                var row = try rows.nestedUnkeyedContainer()
                var values: [Int] = []
                while !row.isAtEnd { values.append(try row.decode(Int.self)) }
                grid.append(values)
            }
            var list = try object.nestedUnkeyedContainer(forKey: key("pairs"))
            pairs = []
            while !list.isAtEnd {
                if let number = try? list.decode(Int.self) {
                    pairs.append(String(number))
                } else if let pair = try? list.nestedContainer(keyedBy: PathKey.self) {
                    pairs.append(try pair.decode(String.self, forKey: key("k")))
                } else {
                    pairs.append(try list.superDecoder().singleValueContainer().decode(String.self))
                }
            }
            var values = try object.nestedUnkeyedContainer(forKey: key("scalars"))
            scalars = [
                String(try values.decode(Bool.self)), try values.decode(String.self), String(try values.decode(Double.self)),
                String(try values.decode(Int8.self)), String(try values.decode(Int16.self)),
                String(try values.decode(Int32.self)), String(try values.decode(Int64.self)),
                String(try values.decode(UInt.self)), String(try values.decode(UInt8.self)),
                String(try values.decode(UInt16.self)), String(try values.decode(UInt32.self)),
                String(try values.decode(UInt64.self)), String(values.isAtEnd),
            ]
        }
    }

    static let custom = #"""
        {"owner":"me","super":7,"inner_object":{"b_c":"2","a":"1"},"items":[1,null,3],"nothing":null,"value":"v",
         "grid":[[1,2],[],[3]],"pairs":[1,{"k":"x"},"s"],"scalars":[true,"s",1.5,-8,-16,-32,-64,1,8,16,32,64]}
        """#

    @Test func decodesThroughEveryContainerMethod() {
        func variant(_ text: String, _ replacement: String) -> String {
            Self.custom.replacingOccurrences(of: text, with: replacement)
        }
        // `contains("inner_object")` holds: the key is spelled as the JSON spells it.
        let outcome = DecodingComparison.expectSame(Custom.self, Self.custom, .fast, keysAsWritten: true)
        guard case .value(let custom) = outcome else { return }
        #expect(custom.contains == [true, false, true, true, true])
        DecodingComparison.expectSame(Custom.self, variant(#""value":"v""#, #""value":12"#), .fast, keysAsWritten: true)
        DecodingComparison.expectSame(Custom.self, variant("64]}", "64,1]}"), .fast, keysAsWritten: true)
        // A missing `super` key (JSONDecoder gives a decoder of null), a missing key, an array that ends too soon.
        DecodingComparison.expectSame(Custom.self, variant(#""super":7,"#, ""), .fallback, keysAsWritten: true)
        DecodingComparison.expectSame(Custom.self, variant(#""owner":"me","#, ""), .fallback, keysAsWritten: true)
        DecodingComparison.expectSame(Custom.self, variant(",64]}", "]}"), .fallback, keysAsWritten: true)
    }

    /// A value that tries one type, then another.
    enum Either: Decodable, Equatable {
        case number(Int)
        case text(String)
        case list([Either])

        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if let number = try? value.decode(Int.self) {
                self = .number(number)
            } else if let text = try? value.decode(String.self) {
                self = .text(text)
            } else {
                self = .list(try value.decode([Either].self))
            }
        }
    }

    @Test func modelsThatCatchErrorsAndTryAnotherType() {
        DecodingComparison.expectSame(Either.self, #"[1,"a",[2,["b"]]]"#, .fast)
        DecodingComparison.expectSame(Either.self, #"[1.5]"#, .fallback)
        DecodingComparison.expectSame(Either.self, #"[1,{}]"#, .fallback)
    }

    @Test(arguments: [
        "", " ", "{", "[1,]", #"{"a":1,}"#, "nul", "[1] x", "\u{FEFF}[1]", #"["\ud800"]"#, #"["\udc00\ud800"]"#,
        "[\"a\u{01}b\"]", "[01]", "[NaN]", "[1e]", "[\"\\x\"]", "/*c*/[1]", "[1]\n", " [1] ", "\t[1]\r\n", "[1]\u{0}",
        "[1]\u{C}", "\u{A0}[1]",
    ])
    func malformedOrUnusualDocuments(json: String) {
        DecodingComparison.expectSame([Int].self, json)
        DecodingComparison.expectSame([String].self, json)
    }

    @Test func invalidUTF8AndByteOrderMarks() throws {
        DecodingComparison.expectSame([String].self, Data([0x5B, 0x22, 0xFF, 0x22, 0x5D]))
        DecodingComparison.expectSame([String].self, Data([0xEF, 0xBB, 0xBF]) + Data(#"["a"]"#.utf8))
        let utf16 = try #require(#"{"result":["é"]}"#.data(using: .utf16))
        #expect(utf16.starts(with: [0xFF, 0xFE]) || utf16.starts(with: [0xFE, 0xFF]))
        DecodingComparison.expectSame([String].self, utf16, at: "result", .fallback)
    }

    /// A JSON value of any shape, decoded through single-value tries.
    indirect enum JSONValue: Decodable, Equatable {
        case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .null
            } else if let bool = try? value.decode(Bool.self) {
                self = .bool(bool)
            } else if let number = try? value.decode(Double.self) {
                self = .number(number)
            } else if let string = try? value.decode(String.self) {
                self = .string(string)
            } else if let array = try? value.decode([JSONValue].self) {
                self = .array(array)
            } else {
                self = .object(try value.decode([String: JSONValue].self))
            }
        }
    }

    @Test func deeplyNestedArrays() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        DecodingComparison.expectSame(JSONValue.self, deep, .fallback)
        let shallow = String(repeating: "[", count: 400) + "1" + String(repeating: "]", count: 400)
        DecodingComparison.expectSame(JSONValue.self, shallow, .fast)
        DecodingComparison.expectSame(JSONValue.self, #"{"a_b":[1,true,null,"x",{"c_d":-1.5}]}"#, .fast)
    }

    /// `SnakeCase.converts` agrees with `SnakeCase.camelCase` for every key over "ab1_" up to 7 bytes.
    @Test func convertsAgreesWithCamelCaseForAllShortKeys() {
        var keys = [""]
        var layer = [""]
        for _ in 1...7 {
            layer = layer.flatMap { prefix in ["a", "b", "1", "_"].map { prefix + $0 } }
            keys += layer
        }
        var mismatches: [String] = []
        for (position, key) in keys.enumerated() {
            let camel = SnakeCase.camelCase(key)
            let other = SnakeCase.camelCase(keys[(position * 7_919) % keys.count])
            for target in [camel, camel + "a", String(camel.dropLast()), "_" + camel, other] where
                converts(key, target) != (camel == target)
            {
                mismatches.append("\(key) → \(target)")
            }
        }
        #expect(mismatches.isEmpty)
    }

    /// `SnakeCase.converts` agrees with `SnakeCase.camelCase` for random keys and targets that differ by one byte.
    @Test func convertsAgreesWithCamelCaseForRandomTargets() {
        var generator = SplitMix(seed: 42)
        let alphabet = Array("abz09_")
        var mismatches: [String] = []
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...12, using: &generator)
            let key = String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
            let camel = SnakeCase.camelCase(key)
            var targets = [camel]
            if !camel.isEmpty {
                var bytes = Array(camel.utf8)
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[index] ^= [0x20, 0x01][Int.random(in: 0...1, using: &generator)]
                targets.append(String(decoding: bytes, as: UTF8.self))
                bytes.remove(at: index)
                targets.append(String(decoding: bytes, as: UTF8.self))
            }
            for target in targets where converts(key, target) != (camel == target) {
                mismatches.append("\(key) → \(target)")
            }
        }
        #expect(mismatches.isEmpty)
    }

    private func converts(_ key: String, _ camel: String) -> Bool {
        var key = key
        var camel = camel
        return key.withUTF8 { key in camel.withUTF8 { SnakeCase.converts(key, to: $0) } }
    }
}
