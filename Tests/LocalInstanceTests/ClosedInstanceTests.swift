import Foundation
import NowData
import Testing

@testable import LocalInstance

@Suite struct ClosedInstanceTests {
    @Test func requestsAfterCloseAnswer500() async throws {
        let harness = try Harness(seed: false)
        harness.instance.close()
        let response = try await harness.send("GET", "/api/now/table/incident")
        #expect(response.statusCode == 500)
        #expect(
            Harness.text(response)
                == #"{"error":{"message":"Internal Server Error","detail":"Check logs for error trace or enable glide.rest.debug property to verify REST request processing"},"status":"failure"}"#
        )
        #expect(
            harness.log.all == [
                "local instance: GET /api/now/table/incident failed: SQLite error 21: the database is closed - while executing `SELECT * FROM \"sys_user\" WHERE \"user_name\" = ? ORDER BY rowid LIMIT ? OFFSET ?`"
            ])
    }
}
