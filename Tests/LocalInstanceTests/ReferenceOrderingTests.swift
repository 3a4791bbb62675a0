import Foundation
import NowData
import Testing

@testable import LocalInstance

@Suite struct ReferenceOrderingTests {
    @Test func orderByReferenceSortsByDisplayValue() async throws {
        let harness = try Harness()
        let response = try await harness.send(
            "GET", "/api/now/table/incident",
            query: [
                ("sysparm_query", "ORDERBYcaller_id^ORDERBYnumber"), ("sysparm_fields", "caller_id.name"),
                ("sysparm_limit", "1"),
            ])
        #expect(Harness.text(response) == #"{"result":[{"caller_id.name":"Abel Tuter"}]}"#)
        let descending = try await harness.send(
            "GET", "/api/now/table/incident",
            query: [
                ("sysparm_query", "ORDERBYDESCcaller_id"), ("sysparm_fields", "caller_id.name"), ("sysparm_limit", "1"),
            ])
        #expect(Harness.text(descending) == #"{"result":[{"caller_id.name":"Tanya Moore"}]}"#)
    }
}
