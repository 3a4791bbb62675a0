import Foundation
import LocalInstance
import NowData
import Testing

@testable import NowFlow

/// The `http` step: any API of the job's instance with its credentials; `expect` on status, headers and JSON;
/// the dry run; the REPL's short form.
@Suite struct HTTPStepTests {
    @Test func aRequestAndItsExpectations() async throws {
        let harness = try RunHarness()
        let active = try harness.count("incident", "active=true")
        let result = try await harness.run(
            """
            name: Stats
            vars:
              active: \(active)
            steps:
              - id: stats
                http:
                  path: /api/now/stats/incident
                  query: { sysparm_count: true, sysparm_query: "active=true" }
                  headers: { X-Trace: nowflow }
                  expect:
                    status: 200
                    headers: { Content-Type: application/json }
                    json: { result.stats.count: "${vars.active}" }
              - assert: "steps.stats.body.result.stats.count == vars.active"
              - id: created
                http:
                  method: POST
                  path: /api/now/table/incident
                  body: { short_description: made by http }
                  expect: { status: [200, 201] }
              - id: gone
                http:
                  method: DELETE
                  path: "/api/now/table/incident/${steps.created.body.result.sys_id}"
                  expect: { status: 204 }
            """)
        #expect(result.status == .passed, "\(result.error ?? "")")
        #expect(result.results["stats"]?["status"] == 200)
        #expect(result.results["gone"]?["body"] == .null)
        let request = try #require(harness.requests.first { $0.path == "/api/now/stats/incident" })
        #expect(request.queryItems.map { "\($0.name)=\($0.value ?? "")" } == ["sysparm_count=true", "sysparm_query=active=true"])
        #expect(request.headers["X-Trace"] == "nowflow")
        #expect(request.headers["Authorization"]?.hasPrefix("Basic ") == true)
        #expect(
            harness.lines.map { $0.replacingOccurrences(of: #"\d+ bytes"#, with: "N bytes", options: .regularExpression) } == [
                "ok   step 1 'stats' (http): GET /api/now/stats/incident: 200, N bytes (N ms)",
                "ok   step 2 (assert): holds: steps.stats.body.result.stats.count == vars.active (N ms)",
                "ok   step 3 'created' (http): POST /api/now/table/incident: 201, N bytes (N ms)",
                "ok   step 4 'gone' (http): DELETE /api/now/table/incident/<sys_id>: 204, N bytes (N ms)",
            ])
        #expect(try harness.count("incident", "short_description=made by http") == 0)
    }

    @Test func anExpectationThatDoesNotHoldFailsAsAnAssertion() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Checks
            steps:
              - http: { path: /api/now/table/incident/missing, expect: { status: 200 } }
                continue_on_error: true
              - http: { path: /api/now/stats/incident, query: { sysparm_count: true }, expect: { headers: { Content-Type: text/html } } }
                continue_on_error: true
              - http: { path: /api/now/stats/incident, query: { sysparm_count: true }, expect: { json: { result.stats.count: 0 } } }
                continue_on_error: true
              - http: { path: /api/now/table/incident/missing }
            """)
        #expect(result.status == .failed)
        let total = try harness.count("incident", "")
        #expect(
            harness.lines == [
                "ASSERT (continued) step 1 (http): GET /api/now/table/incident/missing: expected status 200, got 404: No Record found (N ms)",
                "ASSERT (continued) step 2 (http): GET /api/now/stats/incident: expected header Content-Type to contain 'text/html', got 'application/json;charset=UTF-8' (N ms)",
                "ASSERT (continued) step 3 (http): GET /api/now/stats/incident: expected result.stats.count == 0 in the body, got '\(total)' (N ms)",
                "FAIL step 4 (http): GET /api/now/table/incident/missing: expected a 2xx status, got 404: No Record found (N ms)",
            ])
    }

    @Test func aDryRunSendsTheReadsAndKeepsTheOtherRequests() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Plan
            steps:
              - http: { path: /api/now/stats/incident, query: { sysparm_count: true } }
              - http: { method: POST, path: /api/x_acme/close, body: { days: 7 } }
            """, dryRun: true)
        #expect(result.status == .passed)
        #expect(result.plannedWrites.map(\.description) == [#"POST /api/x_acme/close {"days":7}"#])
        #expect(harness.requests.map(\.path) == ["/api/now/stats/incident"])
        #expect(harness.lines.last == "ok   step 2 (http): would send POST /api/x_acme/close (dry run) (N ms)")
    }

    @Test func theShortFormIsTheStepMapping() throws {
        #expect(
            YAMLEmitter.text(of: try ShortForm.node("http GET /api/now/stats/incident sysparm_count=true id=stats")) == """
                id: stats
                http:
                  method: GET
                  path: /api/now/stats/incident
                  query:
                    sysparm_count: true

                """)
        #expect(throws: ReplInputError.self) { try ShortForm.node("http GET") }
    }

    @Test func theShortFormRunsInTheRepl() async throws {
        let harness = try ReplHarness(width: 80)
        let count = try RunHarness().count("incident", "")
        let transcript = await harness.transcript([
            "http GET /api/now/stats/incident sysparm_count=true id=stats",
            ":show steps.stats.status",
            "http GET /api/now/table/incident/missing",
        ])
        let body = #"{"result":{"stats":{"count":"\#(count)"}}}"#
        #expect(
            harness.normalized(transcript) == """
                nowflow> http GET /api/now/stats/incident sysparm_count=true id=stats
                stats (http): GET /api/now/stats/incident: 200, \(body.utf8.count) bytes
                result:
                  stats:
                    count: '\(count)'
                nowflow> :show steps.stats.status
                200
                nowflow> http GET /api/now/table/incident/missing
                error: (http): GET /api/now/table/incident/missing: expected a 2xx status, got 404: No Record found

                """)
    }

    @Test func badHTTPStepsAreDiagnosed() {
        let text = """
            name: Bad
            steps:
              - http: { method: FETCH, path: api/now/stats/incident }
              - http: { path: /x, expect: { status: 700, json: { "a..b": 1 } }, query: { q: [1] } }
            """
        do {
            _ = try JobFile.parse(text, file: "job.yaml")
            Issue.record("the job was valid")
        } catch {
            #expect(
                error.description == """
                    job.yaml:3:21: error: http.method must be one of OPTIONS, GET, HEAD, POST, PUT, PATCH, DELETE, TRACE or CONNECT, not 'FETCH'
                    job.yaml:3:34: error: http.path starts with '/', as in /api/now/stats/incident
                    job.yaml:4:41: error: http.expect.status must be an HTTP status (100-599), not 700
                    job.yaml:4:54: error: http.expect.json: invalid path 'a..b': empty component; write names between dots, as in result.0.name
                    job.yaml:4:81: error: http.query.q must be a value, not a list
                    """)
        }
    }
}
