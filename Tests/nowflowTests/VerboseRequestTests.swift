import Foundation
import Testing

/// `nowflow run --verbose` lists every request it sends, each attempt of a retried one included, with its status
/// and time, secrets masked.
@Suite struct VerboseRequestTests {
    @Test func everyRequestIsListedWithItsStatusAndTimeMasked() async throws {
        let server = try await ServeProcess(["--db", ":memory:", "--password", "pw\"q%"])
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
        name: Verbose
        vars:
          tag: sekrit-tag
        secrets: [tag]
        steps:
          - id: open
            query: { table: incident, where: { short_description: "${vars.tag}" }, fields: [number], limit: 1 }
          - id: missing
            get: { table: incident, sys_id: nope }
            continue_on_error: true
        """.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let result = try ToolInvocation.run(
            ["run", "job.yaml", "--verbose", "--instance", "http://127.0.0.1:\(server.port)"], in: directory,
            environment: ["NOW_USER": "admin", "NOW_PASSWORD": "pw\"q%"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.replacingOccurrences(of: #"\(\d+ ms\)"#, with: "(N ms)", options: .regularExpression)
        #expect(lines == """
                 GET /api/now/table/sys_db_object?sysparm_limit=10000&sysparm_fields=name,super_class.name → 200 (N ms)
                 GET /api/now/table/sys_dictionary?sysparm_query=nameINincident,task^elementISNOTEMPTY&sysparm_limit=10000&sysparm_fields=name,element,reference,reference.name,internal_type,display → 200 (N ms)
                 GET /api/now/table/sys_choice?sysparm_query=nameINincident,task^inactive=false^ORDERBYsequence&sysparm_limit=10000&sysparm_fields=name,element,value,label → 200 (N ms)
                 GET /api/now/table/incident?sysparm_query=short_description=***&sysparm_fields=number,sys_id&sysparm_limit=1&sysparm_offset=0 → 200 (N ms)
            ok   step 1 'open' (query): 0 records from incident (N ms)
                 GET /api/now/table/incident/nope → 404 (N ms)
            FAIL (continued) step 2 'missing' (get): bad response 404 from GET /api/now/table/incident/nope: No Record found (Record doesn't exist or ACL restricts the record retrieval) (N ms)

            """)
        #expect(!result.stdout.contains("sekrit"))
    }
}
