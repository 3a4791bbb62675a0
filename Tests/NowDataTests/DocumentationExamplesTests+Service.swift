import Foundation
import LocalInstance
import NowData
import Testing

/// The examples of docs/sdk.md's table service section, verbatim, run against the in-process local instance
/// (the values they assume, `service`, `ash`, `sysId`, ..., are set up around them), each followed by checks.
extension DocumentationExamplesTests {
    struct User: SysIdentifiableModel { var sysId: String = ""; var name: String }

    /// The section's opening example, compiled but not run: it reaches a real instance over HTTPS.
    private func tableServiceOverview(secret: String) async throws {
        struct User: SysIdentifiableModel { var sysId: String = ""; var name: String }

        let service = NowTableService(configuration: NowServiceConfiguration(
            instanceURL: URL(string: "https://example.service-now.com")!,
            authentication: .basic(user: "admin", password: secret)))

        let ash = try await service.create(User(name: "Ash Williams"), in: "sys_user")
        let users = try await service.model([User].self, from: "sys_user")
        try await service.delete(ash, from: "sys_user")
        _ = users
    }

    @Test func serviceCreate() async throws {
        let instance = try makeLocalInstance()
        defer { instance.close() }
        let service = makeService(on: instance)

        let newUser = try await service.create(User(name: "Ash Williams"), in: "sys_user")

        service.create(User(name: "Laurie Strode"), in: "sys_user") { result in
            if case .success(let user) = result { print(user.sysId) }
        }

        #expect(newUser.sysId.count == 32)
        #expect(newUser.name == "Ash Williams")
        try await eventually("the completion handler's create is stored") {
            try await service.model([User].self, from: "sys_user").contains { $0.name == "Laurie Strode" }
        }
    }

    @Test func serviceCreateRecord() async throws {
        let instance = try makeLocalInstance()
        defer { instance.close() }
        let tableService = makeService(on: instance)

        let fields = ["short_description" : "test description"]
        let writeOptions: FieldWriteOptions = [.suppressAutoSysField, .treatInputValuesAsDisplayValues]
        let readConfiguration = FieldReadConfiguration(includeFields: ["number", "short_description"])
        let data = try await tableService.createRecord(with: fields, in: "incident", writeOptions: writeOptions,
                                                       configuration: readConfiguration)
        let record: NowRecord = data.convertToRecord()

        #expect(record.fieldNames == ["number", "short_description"])
        #expect(record["short_description"] == "test description")
    }

    @Test func serviceDelete() async throws {
        let instance = try makeLocalInstance()
        defer { instance.close() }
        let service = makeService(on: instance)
        let ash = try await service.create(User(name: "Ash Williams"), in: "sys_user")
        let sysId = try #require(
            try await service.createRecord(with: ["short_description": "Printer on fire"], in: "incident")
                .convertToRecord().sysId)

        try await service.delete(ash, from: "sys_user")
        service.deleteRecord(sysId: sysId, from: "incident") { result in
            if case .failure(let error) = result { print("Deletion failed: \(error)") }
        }

        #expect(try await service.model([User].self, from: "sys_user").map(\.name) == ["System Administrator"])
        try await eventually("the completion handler's delete is done") {
            try await countIncidents("Printer on fire", through: service) == 0
        }
    }

    @Test func serviceModel() async throws {
        let instance = try makeLocalInstance()
        defer { instance.close() }
        let service = makeService(on: instance)
        _ = try await service.createRecord(
            with: ["sys_id": "5137153cc611227c000bbd1bd8cd2005", "name": "Ash Williams"], in: "sys_user")
        _ = try await service.create(User(name: "Lionel Cosgrove"), in: "sys_user")

        let users = try await service.model([User].self, from: "sys_user", path: "result")
        let one = try await service.model(User.self, with: "5137153cc611227c000bbd1bd8cd2005", from: "sys_user")
        let inferred: [User] = try await service.model(from: "sys_user")

        #expect(Set(users.map(\.name)) == ["System Administrator", "Ash Williams", "Lionel Cosgrove"])
        #expect(one.name == "Ash Williams")
        #expect(inferred.map(\.sysId) == users.map(\.sysId))
    }

    @Test func serviceRecords() async throws {
        let instance = try makeLocalInstance()
        defer { instance.close() }
        let tableService = makeService(on: instance)
        for (description, active) in [("Printer on fire", true), ("Mouse lost", true), ("Old ticket", false)] {
            _ = try await tableService.createRecord(
                with: ["short_description": .string(description), "active": .bool(active)], in: "incident")
        }
        let readConfig = FieldReadConfiguration(includeFields: ["short_description"])

        let data = try await tableService.records(
            from: "incident", configuration: FetchConfiguration(Filter(query: "active=true"), 50, readConfig))
        let records: [NowRecord] = data.convertToRecords()

        #expect(Set(records.compactMap { $0["short_description"] }) == ["Printer on fire", "Mouse lost"])
    }

    /// Against a transport that answers a PATCH with the fields it sent and the record's sys_id: the example's
    /// sys_id `12345` is not one the local instance accepts (it assigns 32 hexadecimal digits).
    @Test func serviceUpdate() async throws {
        let transport = RecordingTransport { request, _ in
            let body = request.body ?? Data("{}".utf8)
            var fields = try JSONSerialization.jsonObject(with: body) as? [String: Any] ?? [:]
            fields["sys_id"] = request.path.split(separator: "/").last.map(String.init)
            let result = try JSONSerialization.data(withJSONObject: ["result": fields])
            return NowHTTPResponse(statusCode: 200, body: result)
        }
        let tableService = makeService(transport)
        let sysId = "9d385017c611228701d22104cc95c371"
        let writeOptions: FieldWriteOptions = [.suppressAutoSysField]
        let readConfiguration = FieldReadConfiguration(includeFields: ["state"])

        let updated = try await tableService.update(User(sysId: "12345", name: "abel"), in: "sys_user")
        let data = try await tableService.updateRecord(sysId: sysId, in: "incident", with: ["state": 2],
                                                       writeOptions: writeOptions, configuration: readConfiguration)

        #expect(
            transport.rendered == [
                "PATCH /api/now/table/sys_user/12345\n{\"name\":\"abel\"}",
                "PATCH /api/now/table/incident/9d385017c611228701d22104cc95c371?sysparm_suppress_auto_sys_field=true&sysparm_fields=state\n{\"state\":\"2\"}",
            ])
        #expect(updated.sysId == "12345")
        #expect(updated.name == "abel")
        #expect(data.convertToRecord()["state"] == "2")
    }

    @Test func servicePagination() async throws {
        let instance = try makeLocalInstance()
        defer { instance.close() }
        let service = makeService(on: instance)
        for index in 0..<3 {
            _ = try await service.createRecord(with: ["name": .string("User \(index)"), "active": true], in: "sys_user")
        }
        _ = try await service.createRecord(with: ["name": "Gone", "active": false], in: "sys_user")

        let paginator: Paginator<[User]> = service.paginator(from: "sys_user",
            configuration: FetchConfiguration(filter: Filter(query: "active=true^ORDERBYname"), limit: 100))
        paginator.maxRecords = 1_000          // optional: stop after this many records
        for try await users in paginator {     // from the first page to the last
            print(users.map(\.name))
        }

        #expect(paginator.isFinished)
        #expect(paginator.numberOfPages == 1)
        #expect(try await paginator.first().map(\.name) == ["System Administrator", "User 0", "User 1", "User 2"])
    }
}
