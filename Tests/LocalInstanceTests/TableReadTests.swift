import Foundation
import NowData
import Testing

@testable import LocalInstance

@Suite struct TableReadTests {
    let harness: Harness
    let abel = DemoData.sysID("sys_user", "abel.tuter")

    init() throws {
        harness = try Harness()
    }

    @Test func defaultLimitReturnsEveryIncidentOnOnePage() async throws {
        let response = try await harness.send("GET", "/api/now/table/incident")
        #expect(response.statusCode == 200)
        #expect(try Harness.results(response).count == 60)
        #expect(response.headers["X-Total-Count"] == "60")
        #expect(response.headers["Link"] == nil)
        #expect(response.headers["Content-Type"] == "application/json;charset=UTF-8")
    }

    @Test func getBySysIDReturnsEveryFieldAsString() async throws {
        let response = try await harness.send("GET", "/api/now/table/sys_user/\(abel)")
        let user = try Harness.result(response)
        #expect(user["user_name"] as? String == "abel.tuter")
        #expect(user["name"] as? String == "Abel Tuter")
        #expect(user["active"] as? String == "true")
        #expect(user["sys_mod_count"] as? String == "0")
        #expect(user["user_password"] as? String == "")
        let domain = try #require(user["sys_domain"] as? [String: Any])
        #expect(domain["value"] as? String == "global")
        let department = try #require(user["department"] as? [String: Any])
        #expect(department["value"] as? String == DemoData.sysID("cmn_department", "Sales"))
        #expect(user.filter { !["department", "sys_domain"].contains($0.key) }.values.allSatisfy { $0 is String })
    }

    /// A password that is set is answered as `********` in every display-value mode, as on the platform; one
    /// that is not set is empty.
    @Test(arguments: [
        ("false", #"{"result":{"user_name":"admin","user_password":"********"}}"#),
        ("true", #"{"result":{"user_name":"admin","user_password":"********"}}"#),
        ("all", #"{"result":{"user_name":{"display_value":"admin","value":"admin"},"#
            + #""user_password":{"display_value":"********","value":"********"}}}"#),
    ])
    func passwordsAreAnsweredMasked(displayValue: String, expected: String) async throws {
        let response = try await harness.send(
            "GET", "/api/now/table/sys_user/\(DemoData.sysID("sys_user", "admin"))",
            query: [("sysparm_fields", "user_name,user_password"), ("sysparm_display_value", displayValue)])
        #expect(Harness.text(response) == expected)
        let walked = try await harness.send(
            "GET", "/api/now/table/incident/\(DemoData.sysID("incident", "INC5"))",
            query: [("sysparm_fields", "closed_by.user_password")])
        #expect(Harness.text(walked) == #"{"result":{"closed_by.user_password":"********"}}"#)
    }

    @Test func fieldsWithDotWalkingComeBackAsFlatKeysInOrder() async throws {
        let response = try await harness.send(
            "GET", "/api/now/table/incident",
            query: [
                ("sysparm_query", "ORDERBYnumber"), ("sysparm_limit", "1"),
                ("sysparm_fields", "number,caller_id.name,caller_id.manager,nonsense,caller_id.user_password"),
            ])
        #expect(
            Harness.text(response)
                == #"{"result":[{"number":"INC0010001","caller_id.name":"Abel Tuter","caller_id.manager":"","#
                + #""caller_id.user_password":""}]}"#)
    }

    @Test func referenceShapes() async throws {
        let fields = ("sysparm_fields", "caller_id")
        let query = ("sysparm_query", "number=INC0010001")
        let link = "http://localhost/api/now/table/sys_user/\(abel)"
        let plain = try await harness.send("GET", "/api/now/table/incident", query: [query, fields])
        #expect(Harness.text(plain) == #"{"result":[{"caller_id":{"link":"\#(link)","value":"\#(abel)"}}]}"#)
        let excluded = try await harness.send(
            "GET", "/api/now/table/incident", query: [query, fields, ("sysparm_exclude_reference_link", "True")])
        #expect(Harness.text(excluded) == #"{"result":[{"caller_id":"\#(abel)"}]}"#)
        let display = try await harness.send(
            "GET", "/api/now/table/incident", query: [query, fields, ("sysparm_display_value", "true")])
        #expect(
            Harness.text(display) == #"{"result":[{"caller_id":{"display_value":"Abel Tuter","link":"\#(link)"}}]}"#)
        let all = try await harness.send(
            "GET", "/api/now/table/incident",
            query: [query, ("sysparm_fields", "caller_id,state,priority,number"), ("sysparm_display_value", "ALL")])
        #expect(
            Harness.text(all)
                == #"{"result":[{"caller_id":{"display_value":"Abel Tuter","value":"\#(abel)","link":"\#(link)"},"state":{"display_value":"New","value":"1"},"priority":{"display_value":"1 - Critical","value":"1"},"number":{"display_value":"INC0010001","value":"INC0010001"}}]}"#
        )
        let displayNoLink = try await harness.send(
            "GET", "/api/now/table/incident",
            query: [query, fields, ("sysparm_display_value", "true"), ("sysparm_exclude_reference_link", "true")])
        #expect(Harness.text(displayNoLink) == #"{"result":[{"caller_id":"Abel Tuter"}]}"#)
    }

    @Test func linkHeaderHasFirstPrevNextLastWithOffsets() async throws {
        let response = try await harness.send(
            "GET", "/api/now/v2/table/incident",
            query: [("sysparm_query", "active=true"), ("sysparm_limit", "10"), ("sysparm_offset", "20")],
            headers: [("Authorization", Harness.adminAuth), ("Host", "127.0.0.1:8080")])
        let total = try #require(Int(response.headers["X-Total-Count"] ?? ""))
        #expect(total == 45)
        let base = "http://127.0.0.1:8080/api/now/v2/table/incident?sysparm_query=active%3Dtrue"
        #expect(
            response.headers["Link"]
                == "<\(base)&sysparm_limit=10&sysparm_offset=0>;rel=\"first\","
                + "<\(base)&sysparm_limit=10&sysparm_offset=10>;rel=\"prev\","
                + "<\(base)&sysparm_limit=10&sysparm_offset=30>;rel=\"next\","
                + "<\(base)&sysparm_limit=10&sysparm_offset=40>;rel=\"last\"")
        #expect(try Harness.results(response).count == 10)
    }

    @Test func lastPageHasNoNext() async throws {
        let response = try await harness.send(
            "GET", "/api/now/table/incident", query: [("sysparm_limit", "25"), ("sysparm_offset", "50")])
        #expect(try Harness.results(response).count == 10)
        let link = try #require(response.headers["Link"])
        #expect(link.contains("rel=\"prev\""))
        #expect(!link.contains("rel=\"next\""))
        #expect(link.contains("sysparm_offset=50>;rel=\"last\""))
    }

    @Test func noCountAndSuppressPaginationHeader() async throws {
        let response = try await harness.send(
            "GET", "/api/now/table/incident",
            query: [
                ("sysparm_limit", "5"), ("sysparm_no_count", "TRUE"), ("sysparm_suppress_pagination_header", "tRuE"),
            ])
        #expect(response.headers["X-Total-Count"] == nil)
        #expect(response.headers["Link"] == nil)
        #expect(try Harness.results(response).count == 5)
        let counted = try await harness.send(
            "GET", "/api/now/table/incident", query: [("sysparm_limit", "5"), ("sysparm_no_count", "false")])
        #expect(counted.headers["X-Total-Count"] == "60")
        #expect(counted.headers["Link"] != nil)
    }

    @Test func nameValuePairsAcceptDisplayValues() async throws {
        let response = try await harness.send(
            "GET", "/api/now/table/incident",
            query: [("caller_id", "Abel Tuter"), ("state", "New"), ("sysparm_fields", "number")])
        let rows = try Harness.results(response)
        #expect(rows.count == 10)
        let byID = try await harness.send("GET", "/api/now/table/incident", query: [("caller_id", abel)])
        #expect(try Harness.results(byID).count == 10)
    }

    @Test func encodedQueryWithDotWalkingAndOrdering() async throws {
        let response = try await harness.send(
            "GET", "/api/now/table/incident",
            query: [
                ("sysparm_query", "caller_id.user_name=abel.tuter^ORDERBYDESCnumber"), ("sysparm_fields", "number"),
                ("sysparm_limit", "2"),
            ])
        #expect(Harness.text(response) == #"{"result":[{"number":"INC0010055"},{"number":"INC0010049"}]}"#)
    }

    @Test func versionOneAnswersAnEmptyListWith404() async throws {
        let query = [("sysparm_query", "number=INC9999999")]
        let v1 = try await harness.send("GET", "/api/now/v1/table/incident", query: query)
        #expect(v1.statusCode == 404)
        #expect(
            Harness.text(v1)
                == #"{"error":{"message":"No Record found","detail":"Record doesn't exist or ACL restricts the record retrieval"},"status":"failure"}"#
        )
        let v2 = try await harness.send("GET", "/api/now/v2/table/incident", query: query)
        #expect(v2.statusCode == 200)
        #expect(Harness.text(v2) == #"{"result":[]}"#)
        let latest = try await harness.send("GET", "/api/now/table/incident", query: query)
        #expect(Harness.text(latest) == #"{"result":[]}"#)
    }

    /// A reference's link names the API version the request named, as a PDI's answer to `/api/now/v2/table/...`
    /// does (servicenow-rest-api's README records one).
    @Test func referenceLinksFollowTheRequestsVersion() async throws {
        let query = [("sysparm_query", "number=INC0010001"), ("sysparm_fields", "caller_id")]
        let caller = "dbbd5520a9542c7bfd1b56b7cc0fb54a"
        for (path, api) in [("/api/now/table/incident", "/api/now/"), ("/api/now/v1/table/incident", "/api/now/v1/"),
                            ("/api/now/v2/table/incident", "/api/now/v2/")] {
            let response = try await harness.send("GET", path, query: query)
            #expect(
                Harness.text(response)
                    == #"{"result":[{"caller_id":{"link":"http://localhost\#(api)table/sys_user/\#(caller)","#
                    + #""value":"\#(caller)"}}]}"#, "\(path)")
        }
    }

    @Test func invalidQueryPartIsIgnoredAndLogged() async throws {
        let response = try await harness.send(
            "GET", "/api/now/table/incident", query: [("sysparm_query", "no_such_field=1^active=false")])
        #expect(try Harness.results(response).count == 15)
        #expect(harness.log.all.count == 1)
        #expect(harness.log.all.first?.contains("no_such_field=1") == true)
    }

    @Test func invalidQueryReturnsNoRowsWhenConfigured() async throws {
        let strict = try Harness { $0.invalidQueryReturnsNoRows = true }
        let response = try await strict.send(
            "GET", "/api/now/table/incident", query: [("sysparm_query", "no_such_field=1^active=false")])
        #expect(Harness.text(response) == #"{"result":[]}"#)
    }

    @Test func javascriptInQueryIsRefused() async throws {
        let response = try await harness.send(
            "GET", "/api/now/table/incident", query: [("sysparm_query", "opened_at>javascript:new GlideDateTime()")])
        #expect(response.statusCode == 400)
        #expect(
            Harness.text(response)
                == #"{"error":{"message":"Invalid query","detail":"encoded query condition 'opened_at>javascript:new GlideDateTime()' has a javascript: value; the local instance does not run scripts"},"status":"failure"}"#
        )
    }

    @Test func negativeOffsetIsRefused() async throws {
        let response = try await harness.send("GET", "/api/now/table/incident", query: [("sysparm_offset", "-1")])
        #expect(response.statusCode == 400)
        #expect(
            Harness.text(response)
                == #"{"error":{"message":"Invalid sysparm_offset value","detail":"sysparm_offset must not be negative: -1"},"status":"failure"}"#
        )
    }

    @Test func viewAndQueryNoDomainAreAccepted() async throws {
        let response = try await harness.send(
            "GET", "/api/now/table/problem",
            query: [("sysparm_view", "mobile"), ("sysparm_query_no_domain", "true"), ("sysparm_limit", "100")])
        #expect(response.statusCode == 200)
        #expect(try Harness.results(response).count == 10)
    }

    @Test func unknownTableGetsThePlatformError() async throws {
        let response = try await harness.send("GET", "/api/now/table/u_nothing")
        #expect(response.statusCode == 400)
        #expect(
            Harness.text(response)
                == #"{"error":{"message":"Invalid table u_nothing","detail":null},"status":"failure"}"#)
    }

    @Test func unknownPathAndMethod() async throws {
        let path = try await harness.send("GET", "/api/now/tables/incident")
        #expect(path.statusCode == 400)
        #expect(
            Harness.text(path)
                == #"{"error":{"message":"Requested URI does not represent any resource","detail":null},"status":"failure"}"#
        )
        let method = try await harness.send("DELETE", "/api/now/table/incident")
        #expect(method.statusCode == 405)
        #expect(
            Harness.text(method)
                == #"{"error":{"message":"Method not Supported","detail":"DELETE method not supported for API"},"status":"failure"}"#
        )
        let override = try await harness.send(
            "POST", "/api/now/table/incident/\(DemoData.sysID("incident", "INC0"))",
            headers: [("Authorization", Harness.adminAuth), ("X-HTTP-Method-Override", "GET")])
        #expect(override.statusCode == 200)
    }

    @Test func noCountLinkHasNoLastAndNextOnlyOnAFullPage() async throws {
        let full = try await harness.send(
            "GET", "/api/now/table/problem",
            query: [("sysparm_limit", "3"), ("sysparm_offset", "3"), ("sysparm_no_count", "true")])
        let base = "http://localhost/api/now/table/problem?sysparm_no_count=true"
        #expect(
            full.headers["Link"]
                == "<\(base)&sysparm_limit=3&sysparm_offset=0>;rel=\"first\","
                + "<\(base)&sysparm_limit=3&sysparm_offset=0>;rel=\"prev\","
                + "<\(base)&sysparm_limit=3&sysparm_offset=6>;rel=\"next\"")
        let short = try await harness.send(
            "GET", "/api/now/table/problem",
            query: [("sysparm_limit", "4"), ("sysparm_offset", "8"), ("sysparm_no_count", "true")])
        #expect(short.headers["Link"]?.contains("rel=\"next\"") == false)
    }

    @Test func queriesOnPasswordsMatchNothingSpecialAndAreNotLogged() async throws {
        let response = try await harness.send(
            "GET", "/api/now/table/sys_user", query: [("sysparm_query", "user_password=secret^user_name=admin")])
        #expect(try Harness.results(response).count == 1)
        #expect(
            harness.log.all == ["local instance: sys_user: ignored a condition on the password field 'user_password'"])
    }

    /// Whether a warning hides its condition is decided by the field the condition is on, not by its text: a
    /// condition the parser could not read that starts with a password field is hidden, one that only mentions a
    /// password field in its value is logged as written.
    @Test func onlyConditionsOnPasswordFieldsAreHiddenFromTheLog() async throws {
        let response = try await harness.send(
            "GET", "/api/now/table/sys_user",
            query: [("sysparm_query", "user_passwordsecret^foo=user_password^user_name=admin")])
        #expect(try Harness.results(response).count == 1)
        #expect(
            harness.log.all == [
                "local instance: sys_user: ignored a condition on the password field 'user_password'",
                "local instance: sys_user: ignored invalid condition 'foo=user_password': sys_user has no field 'foo'",
            ])
    }

    /// A password reached through a dot-walk is kept out of the log too, and with `invalidQueryReturnsNoRows` the
    /// line says that the query matches nothing.
    @Test func dotWalkedPasswordConditionsAreNotLogged() async throws {
        let query = [("sysparm_query", "caller_id.user_password=secret")]
        let ignoring = try await harness.send("GET", "/api/now/table/incident", query: query)
        #expect(try Harness.results(ignoring).count == 60)
        #expect(
            harness.log.all == ["local instance: incident: ignored a condition on the password field 'user_password'"])
        let strict = try Harness { $0.invalidQueryReturnsNoRows = true }
        let none = try await strict.send("GET", "/api/now/table/incident", query: query)
        #expect(try Harness.results(none).isEmpty)
        #expect(
            strict.log.all == [
                "local instance: incident: a condition on the password field 'user_password' makes the query match no rows"
            ])
    }
}
