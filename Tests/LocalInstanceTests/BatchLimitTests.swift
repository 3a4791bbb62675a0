import Foundation
import NowData
import Testing

@testable import LocalInstance

/// Issue 23's batches: bounded in requests and answer, no password grants and no batch inside, and no way around
/// the access rules of the requests they hold.
@Suite struct BatchLimitTests {
    static func item(_ id: String, _ method: String, _ url: String, body: String? = nil) -> String {
        var fields = [#""id":"\#(id)""#, #""method":"\#(method)""#, #""url":"\#(url)""#]
        if let body {
            fields.append(#""headers":[{"name":"Content-Type","value":"application/json"}]"#)
            fields.append(#""body":"\#(Data(body.utf8).base64EncodedString())""#)
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    static func batch(_ items: [String]) -> String {
        #"{"batch_request_id":"b","rest_requests":["# + items.joined(separator: ",") + "]}"
    }

    /// Each serviced request as id, status and decoded body; the unserviced ids.
    static func answer(_ response: NowHTTPResponse) throws -> (serviced: [(String, Int, String)], unserviced: [String])
    {
        let object = try Harness.json(response)
        let serviced = try #require(object["serviced_requests"] as? [[String: Any]]).map { item in
            (
                item["id"] as? String ?? "", item["status_code"] as? Int ?? 0,
                String(decoding: Data(base64Encoded: item["body"] as? String ?? "") ?? Data(), as: UTF8.self)
            )
        }
        return (serviced, try #require(object["unserviced_requests"] as? [String]))
    }

    @Test func aBatchCarriesNoPasswordGuessesAndNoBatch() async throws {
        let attack = try await AttackHarness()
        let grant = "grant_type=password&username=admin&password=guess"
        let inner = Self.batch([Self.item("i", "GET", "/api/now/table/incident?sysparm_limit=1")])
        let response = try await attack.send(
            .joe, "POST", "/api/now/v1/batch",
            body: Self.batch([
                Self.item("1", "POST", "/oauth_token.do?\(grant)"),
                Self.item("2", "POST", "/api/now/v1/batch", body: inner),
                Self.item("3", "GET", "/login.do"),
            ]))
        #expect(response.statusCode == 200)
        let answer = try Self.answer(response)
        #expect(answer.unserviced == [])
        #expect(answer.serviced.map(\.0) == ["1", "2", "3"])
        #expect(answer.serviced.map(\.1) == [400, 400, 400])
        #expect(
            answer.serviced[0].2
                == #"{"error":{"message":"Requested URI does not represent any resource","detail":"A batch runs REST "#
                + #"API requests (/api/...) other than batches; /oauth_token.do is not one"},"status":"failure"}"#)
        #expect(answer.serviced[1].2.contains("/api/now/v1/batch is not one"))
    }

    @Test func aBatchHoldsAtMostAThousandRequests() async throws {
        let attack = try await AttackHarness()
        let items = (0...1000).map { Self.item(String($0), "GET", "/api/now/table/sys_user?sysparm_limit=1") }
        let refused = try await attack.send(.joe, "POST", "/api/now/v1/batch", body: Self.batch(items))
        #expect(refused.statusCode == 400)
        #expect(
            Harness.text(refused)
                == #"{"error":{"message":"Too many batch requests","detail":"The batch has 1001 rest_requests; the "#
                + #"local instance runs at most 1000 in one batch"},"status":"failure"}"#)
        let most = try await attack.send(.joe, "POST", "/api/now/v1/batch", body: Self.batch(Array(items.prefix(1000))))
        #expect(try Self.answer(most).serviced.count == 1000)
    }

    @Test func aBatchAnswerStopsAtSixteenMegabytesOfBodies() async throws {
        let attack = try await AttackHarness()
        let description = String(repeating: "d", count: 1_000_000)
        let created = try await attack.send(
            .admin, "POST", "/api/now/table/incident", body: #"{"description":"\#(description)"}"#)
        let sysID = try AttackHarness.sysID(created)
        let items = (1...20).map {
            Self.item(String($0), "GET", "/api/now/table/incident/\(sysID)?sysparm_fields=description")
        }
        let response = try await attack.send(.joe, "POST", "/api/now/v1/batch", body: Self.batch(items))
        #expect(response.statusCode == 200)
        let answer = try Self.answer(response)
        // Each body is 1,000,029 bytes: 16 fit in 16 MB (16,777,216 bytes), the 17th would pass it.
        #expect(answer.serviced.map(\.0) == (1...16).map(String.init))
        #expect(answer.serviced.allSatisfy { $0.1 == 200 && $0.2.utf8.count == 1_000_029 })
        #expect(answer.unserviced == (17...20).map(String.init))
    }

    @Test func aBatchReachesNoSecretAndNoRecordItsUserCannotWrite() async throws {
        let attack = try await AttackHarness()
        let incident = DemoData.sysID("incident", "INC0")
        let response = try await attack.send(
            .joe, "POST", "/api/now/v1/batch",
            body: Self.batch([
                Self.item("1", "GET", "/api/now/stats/sys_user?sysparm_group_by=user_password&sysparm_count=true"),
                Self.item("2", "GET", "/api/now/v1/stats/sys_user?sysparm_max_fields=user_password"),
                Self.item("3", "DELETE", "/api/now/table/incident/\(incident)"),
                Self.item(
                    "4", "GET", "/api/now/table/sys_user?sysparm_query=user_name=admin&sysparm_fields=user_password"),
            ]))
        let answer = try Self.answer(response)
        #expect(answer.serviced.map(\.1) == [403, 403, 403, 200])
        #expect(answer.serviced[0].2 == AttackHarness.secretField("sys_user", "user_password"))
        #expect(answer.serviced[1].2 == AttackHarness.secretField("sys_user", "user_password"))
        #expect(answer.serviced[2].2 == AttackHarness.refusal("Delete"))
        #expect(answer.serviced[3].2 == #"{"result":[{"user_password":"********"}]}"#)
    }

    @Test func anItemURLWithCharactersAURLMayNotHoldIsRunNotACrash() async throws {
        let attack = try await AttackHarness()
        let response = try await attack.send(
            .joe, "POST", "/api/now/v1/batch",
            body: Self.batch([
                Self.item(
                    "1", "GET",
                    "/api/now/table/sys_user?sysparm_query=user_name=admin^active=true&sysparm_fields=user_name"),
                Self.item(
                    "2", "GET", "/api/now/table/sys_user?sysparm_query=user_name=no one|%zz&sysparm_fields=user_name"),
            ]))
        let answer = try Self.answer(response)
        #expect(answer.serviced.map(\.1) == [200, 200])
        #expect(answer.serviced[0].2 == #"{"result":[{"user_name":"admin"}]}"#)
        #expect(answer.serviced[1].2 == #"{"result":[]}"#)
    }
}
