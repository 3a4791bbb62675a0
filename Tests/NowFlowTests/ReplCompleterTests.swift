import Foundation
import LocalInstance
import NowData
import Synchronization
import Testing

@testable import NowFlow

@Suite struct ReplCompleterTests {
    static let catalog: CompletionCatalog = {
        var catalog = CompletionCatalog()
        catalog.saw(
            table: "incident",
            records: [NowRecord(fields: ["number": .init(value: "INC1"), "short_description": .init(value: "x"), "state": .init(value: "1")])])
        catalog.steps = ["_1": .value(.object(["count": .number(JSONNumber(1)), "records": .array([.object(["number": .string("INC1"), "sys_id": .string("a")])])]))]
        catalog.vars = ["caller": .string("abel.tuter"), "team": .string("Network")]
        return catalog
    }()

    func complete(_ prefix: String) -> [String] {
        ReplCompleter.completions(for: prefix, catalog: Self.catalog)
    }

    @Test func theFirstWordCompletesToKindsAndCommands() {
        #expect(complete("cr") == ["create"])
        #expect(complete("de") == ["delete"])
        #expect(complete(":f") == [":format"])
        #expect(complete(":") == SessionCommand.completed.sorted())
        #expect(complete("") == (StepKind.names + SessionCommand.completed).sorted())
    }

    @Test func theSecondWordOfAShortFormCompletesToTables() {
        #expect(complete("query inc") == ["incident"])
        #expect(complete("get sys_user_") == ["sys_user_grmember", "sys_user_group"])
        #expect(complete("query: { table: cha") == ["change_request", "change_task"])
    }

    @Test func laterWordsCompleteToFieldsOfTheTableParametersAndReferences() {
        #expect(complete("query incident sh") == ["short_description="])
        #expect(complete("query incident li") == ["limit="])
        #expect(complete("query incident fields=number,st") == ["state"])
        #expect(complete("update incident abc s") == ["short_description=", "state=", "steps.", "suppress_auto_sys_field=", "sys_id="])
        #expect(complete("query: { table: incident, where: { sta") == ["state"])
        #expect(complete("query incident caller_id=") == ["steps.", "vars."])
        #expect(complete("query problem sh") == [])
    }

    @Test func referencesCompleteIntoResultsAndVariables() {
        #expect(complete("get incident ${steps.") == ["steps._1"])
        #expect(complete(":show steps._1.") == ["steps._1.count", "steps._1.records"])
        #expect(complete(":show steps._1.records.") == ["steps._1.records.0"])
        #expect(complete(":show steps._1.records.0.s") == ["steps._1.records.0.sys_id"])
        #expect(complete("query sys_user user_name=${vars.c") == ["vars.caller"])
    }

    @Test func commandArgumentsComplete() {
        #expect(complete(":format y") == ["yaml"])
        #expect(complete(":tz Europe/Pa") == ["Europe/Paris"])
        #expect(complete(":save ") == [])
    }

    @Test func theTableOfALineIsFound() {
        #expect(ReplCompleter.table(in: "query incident active=true") == "incident")
        #expect(ReplCompleter.table(in: "query: { table: sys_user, where: {") == "sys_user")
        #expect(ReplCompleter.table(in: ":show steps") == nil)
    }

    @Test func fieldsComeFromTheInstancesDictionaryAskedOncePerTable() async throws {
        let asked = Mutex<[String]>([])
        let transport = ClosureTransport { request in
            let query = request.queryItems.first { $0.name == "sysparm_query" }?.value ?? ""
            asked.withLock { $0.append("\(request.path)?\(query)") }
            let body = #"{"result":[{"name":"u_cmdb_thing","element":"u_asset_tag"},{"name":"u_cmdb_thing","element":"u_location"},{"element":""}]}"#
            return NowHTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
        let options = RunOptions(instanceURL: URL(string: "http://127.0.0.1")!, transport: transport, environment: [:], retryPolicy: .none)
        let session = try ReplSession(options: options)
        await session.loadDictionary(for: "u_cmdb_thing")
        #expect(session.completions(for: "query u_cmdb_thing u_") == ["u_asset_tag=", "u_location="])
        #expect(session.completions(for: "query u_cmdb_thing fields=u_l") == ["u_location"])
        #expect(asked.withLock { $0 } == [
            "/api/now/table/sys_db_object?",
            "/api/now/table/sys_dictionary?nameINu_cmdb_thing^elementISNOTEMPTY",
            "/api/now/table/sys_choice?nameINu_cmdb_thing^inactive=false^ORDERBYsequence",
        ])
    }

    @Test func tablesAndFieldsComeFromTheLocalInstancesDictionary() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString).json").path
        let schema = #"{"tables": [{"name": "u_ci_audit", "fields": [{"name": "u_name"}, {"name": "u_result", "type": "integer"}]}]}"#
        try Data(schema.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let instance = try LocalInstance(options: LocalInstance.Options(schemaFile: path, log: { _ in }))
        defer { instance.close() }
        let session = try ReplSession(options: .inProcess(on: instance))
        _ = session.completions(for: "query u_")
        await session.tableLoad().value
        // The custom table, and the demo's import set tables.
        #expect(
            session.completions(for: "query u_") == ["u_ci_audit", "u_cmdb_ci_server_import", "u_incident_import"])
        #expect(session.completions(for: "query: { table: sys_db") == ["sys_db_object"])
        await session.loadDictionary(for: "incident")
        #expect(session.completions(for: "query incident sh") == ["short_description="])
        #expect(session.completions(for: "query incident cal") == ["calendar_duration=", "calendar_stc=", "caller_id="])
        #expect(session.completions(for: "query incident sys_c") == ["sys_class_name=", "sys_created_by=", "sys_created_on="])
        await session.loadDictionary(for: "u_ci_audit")
        #expect(session.completions(for: "query u_ci_audit u_") == ["u_name=", "u_result="])
    }

    @Test func theCommonTablesStayWhenTheInstanceRefusesItsTableList() async throws {
        let asked = Mutex<[String]>([])
        let transport = ClosureTransport { request in
            asked.withLock { $0.append(request.path) }
            let body = #"{"error":{"message":"Operation Failed","detail":"ACL Exception"},"status":"failure"}"#
            return NowHTTPResponse(statusCode: 403, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
        let options = RunOptions(instanceURL: URL(string: "http://127.0.0.1")!, transport: transport, environment: [:], retryPolicy: .none)
        let session = try ReplSession(options: options)
        _ = session.completions(for: "get sys_user_")
        await session.tableLoad().value
        _ = session.completions(for: "query inc")
        #expect(session.completions(for: "get sys_user_") == ["sys_user_grmember", "sys_user_group"])
        #expect(asked.withLock { $0 } == ["/api/now/table/sys_db_object"])
    }

    @Test func valuesCompleteWhereTheyAreKnown() async throws {
        let instance = try LocalInstance(options: LocalInstance.Options(log: { _ in }))
        defer { instance.close() }
        let session = try ReplSession(options: .inProcess(on: instance))
        await session.tableLoad().value
        await session.loadDictionary(for: "incident")
        #expect(session.completions(for: "query incident active=") == ["false", "steps.", "true", "vars."])
        #expect(session.completions(for: "query incident state=") == [
            "1", "2", "3", "6", "7", "8", "Canceled", "Closed", "New", "Resolved", "steps.", "vars.",
        ])
        #expect(session.completions(for: "create incident impact=") == ["1", "2", "3", "steps.", "vars."])
        // The labels: one with a space after an opening quote, closed by it.
        #expect(session.completions(for: "update incident abc state=Re") == ["Resolved"])
        #expect(session.completions(for: "update incident abc state=\"In") == ["In Progress"])
        #expect(session.completionEnding(of: "In Progress", prefix: "update incident abc state=\"In") == "\"")
        #expect(session.completions(for: "create incident impact=\"1") == ["1", "1 - High"])
        #expect(session.completions(for: "query incident display_value=") == ["all", "false", "true"])
        #expect(session.completions(for: "query incident continue_on_error=t") == ["true"])
        #expect(session.completions(for: "query sys_dictionary name=incident element=sh") == [])
        #expect(session.completions(for: "query sys_choice table=inc") == ["incident", "incident_task"])
        #expect(session.completions(for: "query incident short_description=") == ["steps.", "vars."])
        #expect(session.completions(for: "query incident subcategory=in") == [])
        #expect(session.completions(for: "query incident subcategory=\"in") == ["internal application"])
        #expect(session.completionEnding(of: "internal application", prefix: "query incident subcategory=\"in") == "\"")
    }

    @Test func fieldListsAndDotWalksCompleteToValidInput() async throws {
        let instance = try LocalInstance(options: LocalInstance.Options(log: { _ in }))
        defer { instance.close() }
        let session = try ReplSession(options: .inProcess(on: instance))
        await session.tableLoad().value
        for table in ["incident", "sys_user_group", "sys_user"] { await session.loadDictionary(for: table) }
        let list = "query incident fields=number,short_d"
        #expect(session.completions(for: list) == ["short_description"])
        #expect(session.completionEnding(of: "short_description", prefix: list) == "")
        #expect(session.completionEnding(of: "number", prefix: "aggregate incident group_by=numb") == "")
        let walk = "query incident fields=number,assignment_group.na"
        #expect(session.completions(for: walk) == ["assignment_group.name"])
        #expect(session.completionEnding(of: "assignment_group.name", prefix: walk) == "")
        #expect(session.completions(for: "query incident assignment_group.manager.user_n") == ["assignment_group.manager.user_name="])
        #expect(session.completions(for: "query incident order_by=caller_id.user_n") == ["caller_id.user_name"])
        // Not a reference, and not a condition: nothing.
        #expect(session.completions(for: "query incident short_description.na") == [])
        #expect(session.completions(for: "update incident abc assignment_group.na") == [])
        #expect(session.completionNotice() == nil)
    }

    @Test func optionsBeforeTheKindCompleteAsAfterIt() {
        #expect(complete("id=opened cr") == ["create"])
        #expect(complete("id=opened query inc") == ["incident"])
        #expect(complete("id=opened continue_on_error=") == ["false", "true"])
        #expect(complete("id=opened query incident sh") == ["short_description="])
    }

    @Test func theOnlyCompletionIsFollowedByWhatTheLineNeeds() {
        func ending(_ match: String, _ prefix: String) -> String {
            ReplCompleter.ending(of: match, prefix: prefix, catalog: Self.catalog)
        }
        #expect(ending("limit=", "query incident li") == "")
        #expect(ending("steps._1", "get incident ${steps.") == ".")
        #expect(ending("steps._1.records", "get incident ${steps._1.rec") == ".")
        #expect(ending("steps._1.records.0.sys_id", "get incident ${steps._1.records.0.sys") == "}")
        #expect(ending("steps._1.records.0.number", ":show steps._1.records.0.numb") == " ")
        #expect(ending("incident", "query inc") == " ")
        #expect(ReplCompleter.completesPath(":save wa"))
        #expect(ReplCompleter.completesPath(":save! wa"))
        #expect(!ReplCompleter.completesPath(":show wa"))
    }
}
