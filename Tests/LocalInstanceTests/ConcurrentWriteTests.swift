import Foundation
import NowData
import Testing

@testable import LocalInstance

@Suite struct ConcurrentWriteTests {
    @Test func concurrentCreatesAllLandWithDistinctNumbers() async throws {
        let harness = try Harness(seed: false)
        let numbers = try await withThrowingTaskGroup(of: [String].self) { group in
            for client in 0..<8 {
                group.addTask {
                    var numbers: [String] = []
                    for index in 0..<25 {
                        let response = try await harness.send(
                            "POST", "/api/now/table/incident", body: #"{"short_description":"c\#(client) r\#(index)"}"#)
                        numbers.append(try #require(try Harness.result(response)["number"] as? String))
                    }
                    return numbers
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(numbers.count == 200)
        #expect(Set(numbers).count == 200)
        let listed = try await harness.send("GET", "/api/now/table/incident", query: [("sysparm_limit", "1")])
        #expect(listed.headers["X-Total-Count"] == "200")
    }
}
