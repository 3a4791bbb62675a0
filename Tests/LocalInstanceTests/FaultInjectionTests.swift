import Foundation
import NowData
import Testing

@testable import LocalInstance

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct FaultInjectionTests {
    let harness: Harness

    init() throws {
        harness = try Harness(seed: false)
    }

    private func incidentCount() throws -> Int {
        try harness.instance.database.read { db in
            try harness.instance.store.count(TableDictionary.incident, where: "", [], db)
        }
    }

    private func isConnectionLost(_ error: any Error) -> Bool {
        guard case NetworkServiceError.systemError(let inner) = error, let urlError = inner as? URLError else {
            return false
        }
        return urlError.code == .networkConnectionLost
    }

    @Test func scriptedStatusesComeInOrderWithRealBodies() async throws {
        harness.instance.setFaults(
            FaultInjection(scripted: [
                .status(429, retryAfterSeconds: 7), .status(500, retryAfterSeconds: nil),
                .status(503, retryAfterSeconds: nil),
            ]))
        let limited = try await harness.send("GET", "/api/now/table/incident")
        #expect(limited.statusCode == 429)
        #expect(limited.headers["Retry-After"] == "7")
        #expect(
            Harness.text(limited)
                == #"{"error":{"message":"Rate limit exceeded","detail":"Rate limit of 100 requests per hour for Table API exceeded"},"status":"failure"}"#
        )
        let failed = try await harness.send("GET", "/api/now/table/incident")
        #expect(failed.statusCode == 500)
        #expect(
            Harness.text(failed)
                == #"{"error":{"message":"Transaction cancelled: maximum execution time exceeded","detail":"Check logs for error trace or enable glide.rest.debug property to verify REST request processing"},"status":"failure"}"#
        )
        let unavailable = try await harness.send("GET", "/api/now/table/incident")
        #expect(unavailable.statusCode == 503)
        #expect(
            Harness.text(unavailable)
                == #"{"error":{"message":"Service Unavailable","detail":"The instance is temporarily unable to service the request"},"status":"failure"}"#
        )
        #expect(try await harness.send("GET", "/api/now/table/incident").statusCode == 200)
    }

    @Test func droppedConnectionDoesNotHandleTheRequest() async throws {
        harness.instance.setFaults(FaultInjection(scripted: [.drop]))
        await #expect { try await harness.send("POST", "/api/now/table/incident", body: "{}") } throws: {
            isConnectionLost($0)
        }
        #expect(try incidentCount() == 0)
    }

    @Test func lostResponseHandlesTheRequestThenDrops() async throws {
        harness.instance.setFaults(FaultInjection(scripted: [.lostResponse]))
        await #expect { try await harness.send("POST", "/api/now/table/incident", body: "{}") } throws: {
            isConnectionLost($0)
        }
        #expect(try incidentCount() == 1)
    }

    @Test func scriptedLatencyDelaysTheAnswer() async throws {
        harness.instance.setFaults(FaultInjection(scripted: [.latency(.milliseconds(5))]))
        let request = NowHTTPRequest(
            method: "GET", path: "/api/now/table/incident", headers: ["Authorization": Harness.adminAuth])
        guard case .respond(let response, let delay) = harness.instance.reply(to: request) else {
            Issue.record("expected a response")
            return
        }
        #expect(delay == .milliseconds(5))
        #expect(response.statusCode == 200)
        #expect(try await harness.send("GET", "/api/now/table/incident").statusCode == 200)
    }

    @Test func ratesOfOneAlwaysFault() async throws {
        harness.instance.setFaults(FaultInjection(statusRate: 1, status: 429, retryAfterSeconds: 3))
        let response = try await harness.send("GET", "/api/now/table/incident")
        #expect(response.statusCode == 429)
        #expect(response.headers["Retry-After"] == "3")
        harness.instance.setFaults(FaultInjection(dropRate: 1))
        await #expect { try await harness.send("GET", "/api/now/table/incident") } throws: { isConnectionLost($0) }
        harness.instance.setFaults(FaultInjection(lostResponseRate: 1))
        await #expect { try await harness.send("POST", "/api/now/table/incident", body: "{}") } throws: {
            isConnectionLost($0)
        }
        #expect(try incidentCount() == 1)
        harness.instance.setFaults(.none)
        #expect(try await harness.send("GET", "/api/now/table/incident").statusCode == 200)
    }

    @Test func faultsFromOptionsApplyFromTheStart() async throws {
        let faulty = try Harness(seed: false) {
            $0.faults = FaultInjection(scripted: [.status(503, retryAfterSeconds: nil)])
        }
        #expect(try await faulty.send("GET", "/api/now/table/incident").statusCode == 503)
        #expect(try await faulty.send("GET", "/api/now/table/incident").statusCode == 200)
    }

    @Test func cancellationDuringLatencyThrowsOperationCancelled() async throws {
        harness.instance.setFaults(FaultInjection(latency: .seconds(30)))
        let task = Task { try await harness.send("GET", "/api/now/table/incident") }
        task.cancel()
        await #expect {
            try await task.value
        } throws: { error in
            if case NetworkServiceError.operationCancelled = error { return true }
            return false
        }
    }
}
