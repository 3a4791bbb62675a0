import Foundation
import NowData
import Testing

@Suite struct NowTableServiceRetryTests {
    let one = #"{"result":{"sys_id":"0123456789abcdef0123456789abcdef","short_description":"x"}}"#
    let busy =
        #"{"error":{"message":"Rate limit exceeded","detail":"Rate limit of 100 requests per hour for Table API exceeded"},"status":"failure"}"#

    @Test func readsAreRetriedOnPassingStatusesAndDroppedConnections() async throws {
        let statuses = [429, 502, 503, 504]
        let transport = RecordingTransport { [one] _, index in
            if index < statuses.count { return json(statuses[index], "{}") }
            if index == statuses.count { throw NetworkServiceError.systemError(URLError(.networkConnectionLost)) }
            return json(200, one)
        }
        let service = makeService(transport, retryPolicy: RetryPolicy(maxAttempts: 6, baseDelay: .milliseconds(1), totalBudget: .seconds(3600)))

        let data = try await service.record(with: "0123456789abcdef0123456789abcdef", from: "incident")

        #expect(String(decoding: data, as: UTF8.self) == one)
        #expect(transport.recorded.count == 6)
    }

    /// A `Retry-After` date holding a combining mark, on which Foundation's DateFormatter traps on Linux, is no
    /// date: the retries keep the policy's own delays (found by Fuzz/run.sh dates).
    @Test func aRetryAfterWithACombiningMarkIsNoDate() async throws {
        let transport = RecordingTransport { [busy] _, _ in
            json(429, busy, headers: ["Retry-After": "Wed, 2\u{301}1 Oct 2015 07:28:00 GMT"])
        }
        let service = makeService(transport, retryPolicy: RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(1)))

        await #expect { _ = try await service.records(from: "incident") } throws: { error in
            guard case NowDataError.badResponse(let status) = error else { return false }
            return status == 429
        }
        #expect(transport.recorded.count == 2)
    }

    @Test func retriesStopAtTheMaximumAndThrowTheLastFailure() async throws {
        let transport = RecordingTransport { [busy] _, _ in json(429, busy, headers: ["Retry-After": "0"]) }
        let service = makeService(transport, retryPolicy: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(1), totalBudget: .seconds(3600)))

        await #expect { _ = try await service.records(from: "incident") } throws: { error in
            guard case NowDataError.badResponse(let status) = error else { return false }
            return status == 429 && status.message == "Rate limit exceeded"
        }
        #expect(transport.recorded.count == 3)
    }

    /// A `Retry-After` or an `X-RateLimit-Reset` an hour away, beyond the budget, ends the retries at once; so do
    /// delays no `Duration` holds (`4E20` trapped; found by Fuzz/run.sh dates).
    @Test(arguments: [
        ("Retry-After", "3600"), ("X-RateLimit-Reset", String(Int(Date().timeIntervalSince1970) + 3600)),
        ("Retry-After", "4E20"), ("Retry-After", "inf"), ("X-RateLimit-Reset", "1e300"),
    ])
    func aRequestedDelayBeyondTheBudgetIsNotWaitedFor(header: String, value: String) async throws {
        let transport = RecordingTransport { [busy] _, _ in json(429, busy, headers: HTTPHeaders([(header, value)])) }
        let service = makeService(
            transport, retryPolicy: RetryPolicy(maxAttempts: 5, baseDelay: .milliseconds(1), totalBudget: .seconds(5)))

        await #expect { _ = try await service.records(from: "incident") } throws: { error in
            if case NowDataError.badResponse(statusCode: 429) = error { true } else { false }
        }
        #expect(transport.recorded.count == 1)
    }

    @Test func otherStatusesAndRetryPolicyNoneFailAtOnce() async throws {
        let forbidden = RecordingTransport { _, _ in json(500, "{}") }
        await #expect(throws: NowDataError.self) { _ = try await makeService(forbidden).records(from: "incident") }
        #expect(forbidden.recorded.count == 1)

        let unavailable = RecordingTransport { _, _ in json(503, "{}") }
        await #expect(throws: NowDataError.self) {
            _ = try await makeService(unavailable, retryPolicy: .none).records(from: "incident")
        }
        #expect(unavailable.recorded.count == 1)
    }

    @Test func aCreateWhoseResponseWasLostIsReadBackNotRepeated() async throws {
        let transport = RecordingTransport { [one] request, index in
            switch index {
            case 0: throw NetworkServiceError.systemError(URLError(.networkConnectionLost))
            default:
                #expect(request.method == "GET")
                return json(200, one)
            }
        }
        let service = makeService(transport)

        let created = try await service.create(Incident(shortDescription: "x"), in: "incident")

        #expect(created.sysId == "0123456789abcdef0123456789abcdef")
        let requests = transport.recorded
        #expect(requests.map(\.method) == ["POST", "GET"])
        let sent = try #require(sysID(in: requests[0]))
        #expect(requests[1].path == "/api/now/table/incident/\(sent)")
    }

    @Test func aCreateThatDidNotHappenIsSentAgainWithTheSameSysID() async throws {
        let transport = RecordingTransport { [one] request, index in
            switch index {
            case 0: json(503, "{}")
            case 1: json(404, #"{"error":{"message":"No Record found","detail":null},"status":"failure"}"#)
            default: json(201, one)
            }
        }
        let service = makeService(transport)

        _ = try await service.createRecord(with: ["short_description": "x"], in: "incident")

        let requests = transport.recorded
        #expect(requests.map(\.method) == ["POST", "GET", "POST"])
        #expect(sysID(in: requests[0]) == sysID(in: requests[2]))
        #expect(requests[0].body == requests[2].body)
    }

    @Test func aDeleteWhoseResponseWasLostSucceeds() async throws {
        let transport = RecordingTransport { _, index in
            if index == 0 { throw NetworkServiceError.systemError(URLError(.networkConnectionLost)) }
            return json(404, #"{"error":{"message":"No Record found"},"status":"failure"}"#)
        }
        try await makeService(transport).deleteRecord(sysId: "0123456789abcdef0123456789abcdef", from: "incident")
        #expect(transport.recorded.map(\.method) == ["DELETE", "DELETE"])

        let missing = RecordingTransport { _, _ in json(404, "{}") }
        await #expect {
            try await makeService(missing).deleteRecord(sysId: "0123456789abcdef0123456789abcdef", from: "incident")
        } throws: { error in
            if case NowDataError.badResponse(statusCode: 404) = error { true } else { false }
        }
    }

    @Test func cancellingTheTaskIsOperationCancelled() async throws {
        let transport = RecordingTransport { _, _ in json(503, "{}", headers: ["Retry-After": "30"]) }
        let service = makeService(
            transport, retryPolicy: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(1), totalBudget: .seconds(3600)))
        let task = Task { try await service.records(from: "incident") }
        await transport.waitUntilRecorded(1)
        task.cancel()

        await #expect { _ = try await task.value } throws: { error in
            if case NowDataError.network(.operationCancelled) = error { true } else { false }
        }
    }
}
