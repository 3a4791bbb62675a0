import Foundation
import NowData
import Testing

@Suite struct PathDecodingTests {
    struct User: Decodable, Equatable {
        var name: String
    }

    /// The seed's sample response.
    let users = Data(
        #"{ "result": [ { "name": "Ash Williams" }, { "name": "Lionel Cosgrove" }, { "name": "Laurie Strode" } ] }"#.utf8)

    @Test func decodesAnArrayAtResult() throws {
        let decoded = try JSONDecoder().decode([User].self, from: users, at: Constants.resultPath)
        #expect(decoded.map(\.name) == ["Ash Williams", "Lionel Cosgrove", "Laurie Strode"])
    }

    @Test func decodesASingleObjectAtResult() throws {
        let data = Data(#"{"result": {"name": "Ash Williams"}}"#.utf8)
        #expect(try JSONDecoder().decode(User.self, from: data, at: "result") == User(name: "Ash Williams"))
    }

    @Test func decodesDeeplyNestedValues() throws {
        let data = Data(#"{"foo": {"bar": {"baz": [1, 2, 3]}}}"#.utf8)
        #expect(try JSONDecoder().decode([Int].self, from: data, at: "foo.bar.baz") == [1, 2, 3])
        let photos = Data(#"{"result": {"user": {"photos": [{"name": "a.png"}]}}}"#.utf8)
        #expect(try JSONDecoder().decode([User].self, from: photos, at: "result.user.photos") == [User(name: "a.png")])
    }

    @Test func numericComponentsIndexArrays() throws {
        #expect(try JSONDecoder().decode(User.self, from: users, at: "result.2") == User(name: "Laurie Strode"))
        #expect(try JSONDecoder().decode(String.self, from: users, at: "result.1.name") == "Lionel Cosgrove")
    }

    @Test func numericComponentsAlsoNameObjectKeys() throws {
        let data = Data(#"{"result": {"3": {"name": "three"}}}"#.utf8)
        #expect(try JSONDecoder().decode(String.self, from: data, at: "result.3.name") == "three")
    }

    @Test func emptyPathDecodesTheWholeDocument() throws {
        #expect(try JSONDecoder().decode(User.self, from: Data(#"{"name": "x"}"#.utf8), at: "") == User(name: "x"))
    }

    @Test func decodesOptionalsAndNullAtThePath() throws {
        let data = Data(#"{"result": null}"#.utf8)
        #expect(try JSONDecoder().decode(User?.self, from: data, at: "result") == nil)
    }

    @Test func missingKeyNamesThePathAndTheComponent() throws {
        let data = Data(#"{"result": {"name": "x"}}"#.utf8)
        let error = try #require(throws: DecodingError.self) {
            try JSONDecoder().decode([User].self, from: data, at: "result.user.photos")
        }
        #expect(
            NowDataError.cannotDecodeModel(error).description
                == "cannot decode model: no value at 'result.user' in path 'result.user.photos': key 'user' not found")
        guard case .keyNotFound(let key, let context) = error else {
            Issue.record("expected keyNotFound, got \(error)")
            return
        }
        #expect(key.stringValue == "user")
        #expect(context.codingPath.map(\.stringValue) == ["result"])
    }

    /// Paths that find no value, and the whole message each gives.
    @Test(arguments: [
        (#"{"records": []}"#, "result", "cannot decode model: no value at 'result' in path 'result': key 'result' not found"),
        (
            #"{ "result": [ { "name": "Ash Williams" }, { "name": "Lionel Cosgrove" }, { "name": "Laurie Strode" } ] }"#,
            "result.3.name",
            "cannot decode model: no value at 'result.3' in path 'result.3.name': index 3 out of range (3 elements)"
        ),
        (
            #"{"result": {"user": "abc"}}"#, "result.user.name",
            "cannot decode model: no value at 'result.user.name' in path 'result.user.name': 'result.user' is a string, not an object"
        ),
        (
            #"{"result": null}"#, "result.name",
            "cannot decode model: no value at 'result.name' in path 'result.name': 'result' is null, not an object"
        ),
        ("[1]", "result", "cannot decode model: no value at 'result' in path 'result': the document is an array (1 element), and 'result' is not an index from 0"),
        (
            #"{ "result": [ { "name": "Ash Williams" } ] }"#, "result..name",
            "cannot decode model: invalid path 'result..name': empty component"
        ),
    ])
    func pathsWithoutAValue(json: String, path: String, description: String) throws {
        let error = try #require(throws: DecodingError.self) {
            try JSONDecoder().decode(String.self, from: Data(json.utf8), at: path)
        }
        #expect(NowDataError.cannotDecodeModel(error).description == description)
    }

    @Test func errorsInsideTheValueKeepTheFullCodingPath() throws {
        let data = Data(#"{"result": [{"name": "a"}, {"name": 4}]}"#.utf8)
        let error = try #require(throws: DecodingError.self) {
            try JSONDecoder().decode([User].self, from: data, at: "result")
        }
        #expect(
            NowDataError.cannotDecodeModel(error).description
                == "cannot decode model at result[1].name: Expected to decode String but found number instead.")
    }

    @Test func pathKeysFollowTheDecodersKeyStrategy() throws {
        let data = Data(#"{"result": {"caller_id": {"user_name": "abel.tuter"}}}"#.utf8)
        #expect(try Coder.default.jsonDecoder.decode(String.self, from: data, at: "result.caller_id.user_name") == "abel.tuter")
        let custom = JSONDecoder()
        custom.keyDecodingStrategy = .custom { path in
            PathDecodingTests.Key(stringValue: path.last.map { $0.stringValue.uppercased() } ?? "")
        }
        #expect(try custom.decode(String.self, from: data, at: "result.caller_id.user_name") == "abel.tuter")
    }

    /// The default coder's key conversion gives the keys Foundation's `.convertFromSnakeCase` gives.
    @Test func snakeCaseConversionMatchesFoundation() throws {
        struct Keys: Decodable {
            var names: [String]
            init(from decoder: any Decoder) throws {
                names = try decoder.container(keyedBy: Key.self).allKeys.map(\.stringValue).sorted()
            }
        }
        let keys = [
            "user_photos", "URL_value", "_a_b_", "ABC_DEF", "sys_id", "x__y", "u_field2", "plain", "u_2nd", "a_b2c_d",
            "x_9", "é_é", "a_bC", "sys_ID", "_x", "x_", "__", "a-b_c", "a b_c d", "a_b.c", "caller_id.name", "",
            "assignment_group", "__u_a_very_long_custom_field_name_2b__", "short_description", "a1b_c2d_3e",
        ]
        let data = try JSONEncoder().encode(Dictionary(uniqueKeysWithValues: keys.map { ($0, 0) }))
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        let expected = try foundation.decode(Keys.self, from: data).names
        #expect(try Coder.default.jsonDecoder.decode(Keys.self, from: data).names == expected)
        for key in keys where !key.contains(".") && !key.isEmpty {
            let data = Data(#"{"\#(key)": "found"}"#.utf8)
            #expect(try Coder.default.jsonDecoder.decode(String.self, from: data, at: key) == "found", "key \(key)")
            #expect(try foundation.decode(String.self, from: data, at: key) == "found", "key \(key)")
        }
    }

    @Test func usesTheDecodersDateStrategyAndUserInfo() throws {
        struct Stamped: Decodable {
            var at: Date
            var tag: String
            static let tagKey = CodingUserInfoKey(rawValue: "tag")!
            enum CodingKeys: CodingKey { case at }
            init(from decoder: any Decoder) throws {
                at = try decoder.container(keyedBy: CodingKeys.self).decode(Date.self, forKey: .at)
                tag = decoder.userInfo[Self.tagKey] as? String ?? "none"
            }
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .formatted(.nonISO8601UTC)
        decoder.userInfo[Stamped.tagKey] = "tagged"
        let data = Data(#"{"result": {"at": "1970-01-02 00:00:00"}}"#.utf8)
        let stamped = try decoder.decode(Stamped.self, from: data, at: "result")
        #expect(stamped.at == Date(timeIntervalSince1970: 86_400))
        #expect(stamped.tag == "tagged")
    }

    @Test func nestedPathDecodingInsideAModel() throws {
        struct Outer: Decodable {
            var inner: String
            init(from decoder: any Decoder) throws {
                inner = try JSONDecoder().decode(String.self, from: Data(#"{"a": {"b": "deep"}}"#.utf8), at: "a.b")
            }
        }
        #expect(try JSONDecoder().decode(Outer.self, from: users, at: "result.0").inner == "deep")
    }

    @Test func aPathOfComponentsIsThePathOfTheirJoinedText() throws {
        let cases: [[String]] = [["steps", "q1", "records", "0", "sys_id"], [], ["a.b", "c"], ["é", "x"], ["a", ""]]
        for components in cases {
            let joined = Result { () throws(DotPathError) in try DotPath(components.joined(separator: ".")) }
            let built = Result { () throws(DotPathError) in try DotPath(components: components) }
            #expect(built == joined, "\(components)")
        }
        #expect(try DotPath(components: ["a.b", "c"]).components == ["a", "b", "c"])
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
