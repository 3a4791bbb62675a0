import Foundation

/// Creates, reads, moves and deletes change requests and their tasks through the Change Management API
/// (`/api/sn_chg_rest/change`), which follows each change's model: a move the model does not allow, or whose
/// conditions the change does not meet, fails with the instance's `Change Request cannot move to state: ...`.
///
/// ```swift
/// let changes = NowChangeService(configuration: configuration)
/// let templates = try await changes.standardChangeTemplates(query: "name=Reboot Windows Server")
/// let change = try await changes.createStandardChange(template: templates[0].sysId ?? "")
/// print(change["number"] ?? "", change.displayValue("state") ?? "")   // CHG0030001 New
/// _ = try await changes.updateChange(sysId: change.sysId ?? "", fields: ["state": "scheduled"])
/// ```
///
/// Records come as ``NowRecord``s, every field a `{display_value, value}` pair: `record["state"]` is the value as
/// text (`-5`), `record.displayValue("state")` its label (`New`), and `record.json` keeps each value typed as the
/// instance sent it (a number for a state, a boolean for `active`).
///
/// Every operation comes as `async throws` and with a completion handler; both fail with ``NowDataError``
/// only (`badResponse` carries the instance's message and detail). Reads are retried as the configuration's
/// ``RetryPolicy`` says; creates and updates are sent once.
public final class NowChangeService: Sendable {
    /// The configuration the service was created with.
    public let configuration: NowServiceConfiguration
    /// The core services associated with this service, if any.
    public let coreServiceProvider: NowCoreServiceProviding?
    let pipeline: RequestPipeline

    /// The Change Management API's path.
    static let basePath = "/api/sn_chg_rest/change"

    /// Creates a change service.
    public init(configuration: NowServiceConfiguration, coreServiceProvider: NowCoreServiceProviding? = nil) {
        self.configuration = configuration
        self.coreServiceProvider = coreServiceProvider
        pipeline = RequestPipeline(configuration: configuration, coreServiceProvider: coreServiceProvider)
    }

    // MARK: - Changes

    /// Creates a change of the model named `model` (`Normal`, `Emergency`, `Standard`, or a model's sys_id; the
    /// instance's default, Normal, when nil) with `fields` (`POST /change`).
    public func createChange(model: String? = nil, fields: [FieldName: FieldValue] = [:]) async throws
        -> NowRecord
    {
        try await record(Self.createChangeRequest(model: model, fields: fields))
    }

    /// Creates a standard change from the standard change template `template` (a `std_change_record_producer`
    /// sys_id), with `fields` besides the template's values (`POST /change/standard/{template}`).
    public func createStandardChange(template: SysID, fields: [FieldName: FieldValue] = [:]) async throws
        -> NowRecord
    {
        try await record(try Self.createStandardChangeRequest(template: template, fields: fields))
    }

    /// The change `sysId` (`GET /change/{sys_id}`).
    public func change(sysId: SysID) async throws -> NowRecord {
        try await record("GET", try Self.path(sysId))
    }

    /// The changes an encoded query selects (all when nil), at most `limit` from `offset` (`GET /change`).
    public func changes(query: String? = nil, limit: Int? = nil, offset: Int? = nil) async throws
        -> [NowRecord]
    {
        try await records(Self.basePath, query: query, limit: limit, offset: offset)
    }

    /// Sets `fields` on the change; a new `state` (a value, `-2`, or a label, `scheduled`) must be a move its
    /// model allows (`PATCH /change/{sys_id}`).
    public func updateChange(sysId: SysID, fields: [FieldName: FieldValue]) async throws -> NowRecord {
        try await record(try Self.updateChangeRequest(sysId: sysId, fields: fields))
    }

    /// Deletes the change (`DELETE /change/{sys_id}`): the change as it was.
    @discardableResult
    public func deleteChange(sysId: SysID) async throws -> NowRecord {
        try await record("DELETE", try Self.path(sysId))
    }

    // MARK: - Tasks, models and templates

    /// The tasks of the change (`GET /change/{sys_id}/task`).
    public func tasks(ofChange sysId: SysID) async throws -> [NowRecord] {
        try await records(try Self.path(sysId, "task"))
    }

    /// Creates a task of the change with `fields` (`POST /change/{sys_id}/task`).
    public func createTask(ofChange sysId: SysID, fields: [FieldName: FieldValue] = [:]) async throws
        -> NowRecord
    {
        try await record("POST", try Self.path(sysId, "task"), body: TableRequest.fields(fields))
    }

    /// Sets `fields` on the task `taskSysId` of the change (`PATCH /change/{sys_id}/task/{task_sys_id}`).
    public func updateTask(ofChange sysId: SysID, taskSysId: SysID, fields: [FieldName: FieldValue]) async throws
        -> NowRecord
    {
        try await record("PATCH", try Self.path(sysId, "task", taskSysId), body: TableRequest.fields(fields))
    }

    /// The change models (`GET /change/model`).
    public func changeModels(query: String? = nil) async throws -> [NowRecord] {
        try await records(Self.basePath + "/model", query: query)
    }

    /// The standard change templates an encoded query selects (`GET /change/standard/template`).
    public func standardChangeTemplates(query: String? = nil) async throws -> [NowRecord] {
        try await records(Self.basePath + "/standard/template", query: query)
    }

    // MARK: - Approvals and risk

    /// Approves (`state` `approved`) or rejects (`rejected`, with the `comments` a rejection needs) the current
    /// user's requested approvals of the change (`PATCH /change/{sys_id}/approvals`): the change, whose `approval`
    /// follows all of its approvals. A user with no requested approval of it gets the instance's 400.
    public func setApproval(ofChange sysId: SysID, state: String, comments: String? = nil) async throws
        -> NowRecord
    {
        var body: JSONObject = ["state": .string(state)]
        if let comments { body["comments"] = .string(comments) }
        return try await record("PATCH", try Self.path(sysId, "approvals"), body: body)
    }

    /// Sets the change's `risk` and `impact` from the instance's risk conditions (`PATCH /change/{sys_id}/risk`):
    /// the change.
    public func assessRisk(ofChange sysId: SysID) async throws -> NowRecord {
        try await record("PATCH", try Self.path(sysId, "risk"))
    }

    // MARK: - Schedules

    /// The slots, as long as the change's planned window, from its planned start, in which its configuration item
    /// is free (`GET /change/{sys_id}/schedule`, then its worker until it completes). A change without a
    /// configuration item or planned window gets the instance's 400.
    public func availableSlots(ofChange sysId: SysID) async throws -> [NowChangeSlot] {
        try await slots(NowHTTPRequest(method: "GET", path: try Self.path(sysId, "schedule")))
    }

    /// The slots of `durationInSeconds` from `plannedStart` (UTC `yyyy-MM-dd HH:mm:ss`; now when nil) in which
    /// the configuration item `sysId` is free (`GET /change/ci/{sys_id}/schedule`, then its worker).
    public func availableSlots(
        forConfigurationItem sysId: SysID, durationInSeconds: Int, plannedStart: String? = nil
    ) async throws -> [NowChangeSlot] {
        var items = [URLQueryItem(name: "duration_in_seconds", value: String(durationInSeconds))]
        if let plannedStart { items.append(URLQueryItem(name: "planned_start_time", value: plannedStart)) }
        return try await slots(
            NowHTTPRequest(method: "GET", path: try Self.path("ci", sysId, "schedule"), queryItems: items))
    }

    /// How many times, a second apart, the schedule worker is read before a slot search that has not completed
    /// fails.
    static let workerReads = 60

    /// Sends a schedule request and reads its worker until it completes: its `payload.spans`. A worker in error,
    /// or not complete after ``workerReads`` reads, fails with ``NowDataError/badResponse(statusCode:)`` naming it.
    private func slots(_ request: NowHTTPRequest) async throws -> [NowChangeSlot] {
        try await NowTableService.mappingErrors {
            let accepted = try Self.result(try await pipeline.send(request, mode: .idempotent).body)
            guard let worker = accepted.object?["worker"]?.object?["sysId"]?.string, !worker.isEmpty else {
                throw NowDataError.cannotParseResponse
            }
            let path = try Self.path("worker", worker)
            for read in 1...Self.workerReads {
                let result = try Self.result(
                    try await pipeline.send(NowHTTPRequest(method: "GET", path: path), mode: .idempotent).body)
                let state = result.object?["state"]?.object?["value"]
                if state == .number(JSONNumber(3)) {
                    return (result.object?["payload"]?.object?["spans"]?.array ?? []).compactMap(NowChangeSlot.init)
                }
                if state == .number(JSONNumber(4)) {
                    let messages = result.object?["messages"]?.object?["errorMessages"]?.array ?? []
                    throw NowDataError.badResponse(
                        statusCode: HTTPStatusCode(
                            code: 200, message: "The schedule worker failed",
                            detail: messages.compactMap(\.string).joined(separator: "; "), method: "GET", path: path))
                }
                if read < Self.workerReads { try await Task.sleep(nanoseconds: 1_000_000_000) }
            }
            throw NowDataError.badResponse(
                statusCode: HTTPStatusCode(
                    code: 200, message: "The schedule worker did not complete",
                    detail: "still not complete after \(Self.workerReads) reads a second apart", method: "GET",
                    path: path))
        }
    }

    // MARK: - Requests

    /// `/api/sn_chg_rest/change/` and the segments, each percent-encoded; an empty one is ``NowDataError/invalidURL``.
    static func path(_ segments: String...) throws -> String {
        guard !segments.contains(where: \.isEmpty) else { throw NowDataError.invalidURL }
        return Self.basePath + "/" + segments.map(NowHTTPRequest.percentEncodedPathSegment).joined(separator: "/")
    }

    /// The request ``createChange(model:fields:)`` sends: what a dry run records instead.
    public static func createChangeRequest(model: String?, fields: [FieldName: FieldValue]) -> NowHTTPRequest {
        var body = TableRequest.fields(fields)
        if let model { body["chg_model"] = .string(model) }
        return request("POST", basePath, body: body)
    }

    /// The request ``createStandardChange(template:fields:)`` sends.
    public static func createStandardChangeRequest(template: SysID, fields: [FieldName: FieldValue]) throws
        -> NowHTTPRequest
    {
        request("POST", try path("standard", template), body: TableRequest.fields(fields))
    }

    /// The request ``updateChange(sysId:fields:)`` sends.
    public static func updateChangeRequest(sysId: SysID, fields: [FieldName: FieldValue]) throws -> NowHTTPRequest {
        request("PATCH", try path(sysId), body: TableRequest.fields(fields))
    }

    private static func request(_ method: String, _ path: String, body: JSONObject? = nil) -> NowHTTPRequest {
        NowHTTPRequest(
            method: method, path: path, headers: body == nil ? HTTPHeaders() : ["Content-Type": "application/json"],
            body: body.map { JSONValue.object($0).jsonData() })
    }

    private func record(_ method: String, _ path: String, body: JSONObject? = nil) async throws -> NowRecord {
        try await record(Self.request(method, path, body: body))
    }

    private func record(_ request: NowHTTPRequest) async throws -> NowRecord {
        try await NowTableService.mappingErrors {
            let response = try await pipeline.send(request, mode: request.method == "GET" ? .idempotent : .once)
            return try Self.record(try Self.result(response.body))
        }
    }

    private func records(_ path: String, query: String? = nil, limit: Int? = nil, offset: Int? = nil) async throws
        -> [NowRecord]
    {
        try await NowTableService.mappingErrors {
            var items: [URLQueryItem] = []
            if let query { items.append(URLQueryItem(name: "sysparm_query", value: query)) }
            if let limit { items.append(URLQueryItem(name: "sysparm_limit", value: String(limit))) }
            if let offset { items.append(URLQueryItem(name: "sysparm_offset", value: String(offset))) }
            let request = NowHTTPRequest(method: "GET", path: path, queryItems: items)
            let response = try await pipeline.send(request, mode: .idempotent)
            guard case .array(let elements) = try Self.result(response.body) else {
                throw NowDataError.cannotParseResponse
            }
            return try elements.map(Self.record)
        }
    }

    /// The record an answer's `result` holds: ``NowDataError/cannotParseResponse`` for anything but an object.
    private static func record(_ result: JSONValue) throws -> NowRecord {
        guard case .object = result else { throw NowDataError.cannotParseResponse }
        return try NowRecord(result)
    }

    /// The `result` of an answer.
    static func result(_ body: Data) throws -> JSONValue {
        guard let root = try? JSONValue(json: body), let result = root.object?["result"] else {
            throw NowDataError.cannotParseResponse
        }
        return result
    }
}
