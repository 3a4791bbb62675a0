import Foundation
import LocalInstance
import NowData
import Testing

/// The SDK's NowTableService examples, pasted as far as they compile (see docs/sdk-service.md), against the
/// local instance.
@Suite struct SeedServiceExampleTests {
    struct User: SysIdentifiableModel {
        var sysId: String = ""
        var name: String
    }

    @Test func userExamples() async throws {
        let instance = try makeLocalInstance()
        defer { instance.close() }
        let service: NowTableService = makeService(on: instance)

        let user = User(name: "Ash Williams")
        let result = try await service.create(user, in: "sys_user")
        #expect(!result.sysId.isEmpty)

        let users = try await service.model([User].self, from: "sys_user", path: "result")
        #expect(users.map(\.name).contains("Ash Williams"))
        let single = try await service.model(User.self, with: result.sysId, from: "sys_user", path: "result")
        #expect(single.name == "Ash Williams")
        let inferred: [User] = try await service.model(from: "sys_user")
        #expect(inferred.count == users.count)

        let fetched = await completed { completion in
            service.model(User.self, with: result.sysId, from: "sys_user", path: "result") { result in
                completion(result)
            }
        }
        #expect(try fetched.get().name == "Ash Williams")

        let renamed = User(sysId: result.sysId, name: "abel")
        let coder: Coder = .default
        let updated = try await service.update(renamed, in: "sys_user")
        let data = try coder.jsonEncoder.encode(updated)
        #expect(String(decoding: data, as: UTF8.self) == #"{"name":"abel","sys_id":"\#(result.sysId)"}"#)

        let paginator: Paginator<[User]> = service.paginator(from: "sys_user", path: "result")
        #expect(try await paginator.first().map(\.name).contains("abel"))

        try await service.delete(updated, from: "sys_user")
    }

    @Test func recordExamples() async throws {
        let instance = try makeLocalInstance()
        defer { instance.close() }
        let tableService = makeService(on: instance)
        let tableName = "incident"

        let fields = ["short_description": "test description"]
        let writeOptions: FieldWriteOptions = [.suppressAutoSysField, .treatInputValuesAsDisplayValues]
        let readConfiguration = FieldReadConfiguration(includeFields: ["number", "short_description"])
        let dataResult: Data = try await tableService.createRecord(
            with: fields, in: tableName, writeOptions: writeOptions, configuration: readConfiguration)
        let recordResult: NowRecord = dataResult.convertToRecord()
        #expect(recordResult.fieldNames == ["number", "short_description"])

        let created = try await completed { completion in
            tableService.createRecord(
                with: fields, in: tableName, writeOptions: writeOptions,
                configuration: readConfiguration
            ) { result in completion(result) }
        }.get()
        #expect(created.convertToRecord()["short_description"] == "test description")

        func fetchTableRecords(
            tableName: String, filterQuery: String, includeFields: [FieldName] = [FieldName](),
            readOptions: FieldReadConfiguration.Options = [], limit: Int?
        ) async throws -> [NowRecord] {
            let readConfig = FieldReadConfiguration(includeFields: includeFields, options: readOptions)
            let config = FetchConfiguration(Filter(query: filterQuery), limit, readConfig)
            let dataResult: Data = try await tableService.records(from: tableName, configuration: config)
            return dataResult.convertToRecords()
        }
        let records = try await fetchTableRecords(
            tableName: tableName, filterQuery: "short_description=test description", includeFields: ["sys_id"], limit: 5
        )
        #expect(records.count == 2)

        let sysId = try #require(records.first?.sysId)
        let updated = try await tableService.updateRecord(
            sysId: sysId, in: tableName, with: ["short_description": "changed"], writeOptions: writeOptions,
            configuration: readConfiguration)
        #expect(updated.convertToRecord()["short_description"] == "changed")
        try await tableService.deleteRecord(sysId: sysId, from: tableName)
    }
}
