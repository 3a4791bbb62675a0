import Foundation
import NowData
import Testing

@Suite struct NowDataErrorTests {
    @Test func badResponseWithTheServersMessageAndDetail() {
        let body = Data(
            #"{"error":{"message":"No Record found","detail":"Record doesn't exist or ACL restricts the record retrieval"},"status":"failure"}"#
                .utf8)
        let error = NowDataError.badResponse(
            statusCode: HTTPStatusCode(code: 404, responseBody: body, method: "GET", path: "/api/now/table/incident/abc"))
        #expect(
            error.description
                == "bad response 404 from GET /api/now/table/incident/abc: No Record found (Record doesn't exist or ACL restricts the record retrieval)"
        )
        #expect(error.localizedDescription == error.description)
        #expect(error.statusCode == 404)
        #expect(error.serverMessage == "No Record found")
        #expect(error.serverDetail == "Record doesn't exist or ACL restricts the record retrieval")
    }

    @Test(arguments: [
        (#"{"error":{"message":"User Not Authenticated","detail":null},"status":"failure"}"#, "bad response 401 from GET /api/now/table/incident: User Not Authenticated"),
        (#"{"error":{"message":"User Not Authenticated","detail":""},"status":"failure"}"#, "bad response 401 from GET /api/now/table/incident: User Not Authenticated"),
        (#"{"error":{"detail":"Required to provide Auth information"},"status":"failure"}"#, "bad response 401 from GET /api/now/table/incident: Required to provide Auth information"),
        ("<html>Unauthorized</html>", "bad response 401 from GET /api/now/table/incident: the instance did not accept the credentials (its error message was not received)"),
        ("", "bad response 401 from GET /api/now/table/incident: the instance did not accept the credentials (its error message was not received)"),
        (#"{"error":"server_error","error_description":"access_denied"}"#, "bad response 401 from GET /api/now/table/incident: server_error (access_denied)"),
    ])
    func badResponseBodies(body: String, description: String) {
        let status = HTTPStatusCode(code: 401, responseBody: Data(body.utf8), method: "GET", path: "/api/now/table/incident")
        #expect(NowDataError.badResponse(statusCode: status).description == description)
    }

    @Test func badResponseWithoutContextAndPatternMatching() {
        let error = NowDataError.badResponse(statusCode: 503)
        #expect(error.description == "bad response 503")
        #expect(error.serverMessage == nil)
        if case .badResponse(statusCode: 503) = error {} else { Issue.record("pattern match by code failed") }
        #expect(NowDataError.missingSysID.statusCode == nil)
    }

    @Test func malformedJSON() throws {
        let error = try #require(throws: DecodingError.self) {
            try Coder.default.jsonDecoder.decode([String].self, from: Data(#"{"result": ["a", }"#.utf8), at: "result")
        }
        #expect(
            NowDataError.cannotDecodeModel(error).description
                == "cannot decode model: The given data was not valid JSON: Invalid value around line 1, column 18.")
        let multiline = try #require(throws: DecodingError.self) {
            try Coder.default.jsonDecoder.decode([String].self, from: Data("{\n  \"result\": [\n    \"a\" \"b\"]}".utf8), at: "")
        }
        #expect(
            NowDataError.cannotDecodeModel(multiline).description
                == "cannot decode model: The given data was not valid JSON: Invalid value around line 3, column 9.")
    }

    @Test func wrongTypeMissingKeyAndNull() throws {
        struct User: Decodable { var name: String }
        let cases = [
            (#"{"result": [{"name": "a"}, {"name": ["b"]}]}"#, "cannot decode model at result[1].name: Expected to decode String but found an array instead."),
            (#"{"result": [{"name": "a"}, {"nom": "b"}]}"#, "cannot decode model at result[1]: key 'name' not found"),
            (#"{"result": [{"name": null}]}"#, "cannot decode model at result[0].name: expected String, found null"),
            (#"{"result": {"name": "a"}}"#, "cannot decode model at result: Expected to decode Array<Any> but found a dictionary instead."),
        ]
        for (json, message) in cases {
            let error = try #require(throws: DecodingError.self) {
                try Coder.default.jsonDecoder.decode([User].self, from: Data(json.utf8), at: "result")
            }
            #expect(NowDataError.cannotDecodeModel(error).description == message)
        }
    }

    @Test func dateInAnotherFormat() throws {
        struct Incident: Decodable { var openedAt: Date }
        let data = Data(#"{"result": [{"opened_at": "2024-08-01T12:00:00Z"}]}"#.utf8)
        let error = try #require(throws: DecodingError.self) {
            try Coder.default.jsonDecoder.decode([Incident].self, from: data, at: "result")
        }
        #expect(
            NowDataError.cannotDecodeModel(error).description
                == #"cannot decode model at result[0].openedAt: expected a date as yyyy-MM-dd HH:mm:ss or yyyy-MM-dd (UTC), found "2024-08-01T12:00:00Z""#
        )
    }

    @Test func cannotDecodePropertyAndEncodeModel() {
        #expect(NowDataError.cannotDecodeProperty(type: Int.self, from: "high").description == #"cannot decode Int from "high""#)
        let encodingError = EncodingError.invalidValue(
            Double.infinity,
            EncodingError.Context(codingPath: [], debugDescription: "Unable to encode Double.infinity directly in JSON."))
        #expect(
            NowDataError.cannotEncodeModel(encodingError).description
                == "cannot encode model: Unable to encode Double.infinity directly in JSON.")
    }

    @Test func encodingAnInfiniteNumberNamesThePath() throws {
        struct Reading: Encodable { var value: Double }
        let error = try #require(throws: EncodingError.self) {
            try JSONEncoder().encode(["result": [Reading(value: .infinity)]])
        }
        #expect(
            NowDataError.cannotEncodeModel(error).description
                == "cannot encode model at result[0].value: Unable to encode Double.inf directly in JSON.")
    }

    /// A network error names the host and port it concerns (from the URL that failed) and says in words what
    /// failed, with the system's reason when there is one.
    @Test func networkErrorsNameTheHostAndPort() throws {
        let api = try #require(URL(string: "https://127.0.0.1:8443/api/now/table/incident?sysparm_limit=1"))
        let named = try #require(URL(string: "https://dev0.example.invalid/api/now/table/incident"))
        func text(_ code: URLError.Code, _ url: URL, reason: String? = nil) -> String {
            var details: [String: Any] = [NSURLErrorFailingURLErrorKey: url]
            if let reason { details[NSLocalizedFailureReasonErrorKey] = reason }
            return NowDataError.network(.systemError(URLError(code, userInfo: details))).description
        }
        #expect(text(.cannotConnectToHost, api, reason: "Connection refused") == "network error: system error: connection refused at 127.0.0.1:8443")
        #expect(text(.cannotConnectToHost, api, reason: "No route to host") == "network error: system error: no route to host at 127.0.0.1:8443")
        #expect(text(.cannotConnectToHost, api) == "network error: system error: could not connect to 127.0.0.1:8443")
        #expect(text(.cannotFindHost, named) == "network error: system error: host name not found: dev0.example.invalid")
        #expect(text(.timedOut, named) == "network error: system error: timed out waiting for the server at dev0.example.invalid:443")
        #expect(text(.secureConnectionFailed, named) == "network error: system error: the TLS handshake with dev0.example.invalid:443 failed")
        #expect(
            text(.serverCertificateUntrusted, api)
                == "network error: system error: the TLS certificate of 127.0.0.1:8443 is not trusted (for an instance "
                + "with its own CA, give its CA file: NowTLSSettings.caFile, a profile's ca_file)")
        #expect(text(.serverCertificateHasUnknownRoot, api) == "network error: system error: the TLS certificate of 127.0.0.1:8443 is not trusted")
        #expect(text(.networkConnectionLost, api, reason: "Connection reset by peer") == "network error: system error: the connection to 127.0.0.1:8443 was lost (connection reset by peer)")
        #expect(text(.badServerResponse, api) == "network error: system error: the connection to 127.0.0.1:8443 closed without a valid HTTP response")
    }

    @Test func networkErrors() {
        #expect(
            NowDataError.network(.systemError(URLError(.networkConnectionLost))).description
                == "network error: system error: the connection was lost")
        #expect(
            NowDataError.network(.systemError(URLError(.timedOut))).description
                == "network error: system error: timed out waiting for the server")
        #expect(
            NowDataError.network(.serverError(URLError(.cannotConnectToHost))).description
                == "network error: server error: could not connect to the server")
        #expect(NowDataError.network(.operationCancelled).description == "network error: the operation was cancelled")
        #expect(NowDataError.network(.serviceDisabled).description == "network error: the service is disabled on this instance")
        #expect(NowDataError.network(.genericError("proxy refused the tunnel")).description == "network error: proxy refused the tunnel")
        #expect(NetworkServiceError.systemError(URLError(.badURL)).description == "system error: the URL is not valid")
        #expect(
            NetworkServiceError.systemError(URLError(.badServerResponse)).description
                == "system error: the connection closed without a valid HTTP response")
        let socketError = NSError(domain: NSPOSIXErrorDomain, code: 104, userInfo: [NSDebugDescriptionErrorKey: "connection reset by peer"])
        #expect(NetworkServiceError.systemError(socketError).description == "system error: connection reset by peer")
    }

    @Test func accessTokenErrors() {
        struct SessionExpired: Error, CustomStringConvertible { var description: String { "the session expired" } }
        #expect(NowDataError.accessToken(.accessTokenRetrievalFailed).description == "access token error: no access token could be obtained")
        #expect(
            NowDataError.accessToken(.userSessionError(SessionExpired())).description
                == "access token error: the user session failed: the session expired")
        #expect(AccessTokenProviderError.accessTokenRetrievalFailed.localizedDescription == "no access token could be obtained")
    }

    @Test func casesWithoutContext() {
        #expect(NowDataError.attachmentValidation.description == "the attachment failed validation")
        #expect(NowDataError.cannotParseResponse.description == "cannot parse the response: it is not the JSON the Table API sends")
        #expect(
            NowDataError.invalidURL.description
                == "invalid URL: the instance URL and table name do not form a valid URL (the table name is empty, or the instance URL has no scheme or host, or is plain http:// for a host that is not loopback without allowsInsecureHTTP)")
        #expect(NowDataError.missingAttachmentMetadata.description == "the attachment metadata header is missing")
        #expect(NowDataError.missingServiceConfiguration.description == "the service configuration is missing")
        #expect(NowDataError.missingSysID.description == "missing sys_id: the operation needs the sys_id of a record")
    }
}
