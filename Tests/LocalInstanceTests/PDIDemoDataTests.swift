import Foundation
import NowData
import Testing

@testable import LocalInstance

/// The demo records public tests written against a fresh Personal Developer Instance rely on (PySNC's suite among
/// them): the same sys_ids, users, departments and tables.
@Suite struct PDIDemoDataTests {
    let harness: Harness

    init() throws {
        harness = try Harness()
    }

    @Test func adminIsAtThePDIsSysIDInFinanceWithItsHead() async throws {
        let response = try await harness.send(
            "GET", "/api/now/table/sys_user/6816f79cc0a8016401c5a33be04be441",
            query: [
                ("sysparm_fields", "sys_id,user_name,email,department,department.name,department.dept_head.email"),
                ("sysparm_exclude_reference_link", "true"),
            ])
        #expect(
            Harness.text(response)
                == #"{"result":{"sys_id":"6816f79cc0a8016401c5a33be04be441","user_name":"admin","#
                + #""email":"admin@example.com","department":"a581ab703710200044e0bfc8bcbe5de8","#
                + #""department.name":"Finance","department.dept_head.email":"natasha.ingram@example.com"}}"#)
        #expect(DemoData.sysID("sys_user", "admin") == "6816f79cc0a8016401c5a33be04be441")
    }

    @Test func theRolesPDISetupsLookUpByNameExist() async throws {
        // servicenow.itsm's itsm_service_catalog target reads sys_user_role?name=snc_basic_auth_api_access and grants
        // it; guides for a PDI's Basic auth restriction name the others.
        let response = try await harness.send(
            "GET", "/api/now/table/sys_user_role",
            query: [
                (
                    "sysparm_query",
                    "nameINsnc_basic_auth_api_access,snc_platform_rest_api_access,security_admin,web_service_admin,"
                        + "oauth_admin,snc_required_script_writer_permission^ORDERBYname"
                ),
                ("sysparm_fields", "name,elevated_privilege"),
            ])
        #expect(
            Harness.text(response)
                == #"{"result":[{"name":"oauth_admin","elevated_privilege":"false"},"#
                + #"{"name":"security_admin","elevated_privilege":"true"},"#
                + #"{"name":"snc_basic_auth_api_access","elevated_privilege":"false"},"#
                + #"{"name":"snc_platform_rest_api_access","elevated_privilege":"false"},"#
                + #"{"name":"snc_required_script_writer_permission","elevated_privilege":"false"},"#
                + #"{"name":"web_service_admin","elevated_privilege":"false"}]}"#)
    }

    @Test func problemUsersAndDepartmentHead() async throws {
        let response = try await harness.send(
            "GET", "/api/now/table/sys_user",
            query: [
                ("sysparm_query", "user_nameSTARTSWITHproblem.^ORuser_name=natasha.ingram^ORDERBYuser_name"),
                ("sysparm_fields", "user_name,name,sys_id"),
            ])
        #expect(
            Harness.text(response)
                == #"{"result":[{"user_name":"natasha.ingram","name":"Natasha Ingram","#
                + #""sys_id":"46c5bf6ca9fe1981010713e3ac7d3384"},"#
                + #"{"user_name":"problem.admin","name":"Problem Administrator","#
                + #""sys_id":"26fbff173b331300ad3cc9bb34efc4bd"},"#
                + #"{"user_name":"problem.manager","name":"Problem Manager","#
                + #""sys_id":"\#(DemoData.sysID("sys_user", "problem.manager"))"}]}"#)
    }

    @Test func departmentsAreRecordsWithHeads() async throws {
        let response = try await harness.send(
            "GET", "/api/now/table/cmn_department",
            query: [
                ("sysparm_query", "ORDERBYname"), ("sysparm_fields", "name,dept_head"),
                ("sysparm_display_value", "true"), ("sysparm_exclude_reference_link", "true"),
            ])
        #expect(
            Harness.text(response)
                == #"{"result":[{"name":"Customer Support","dept_head":"Tanya Moore"},"#
                + #"{"name":"Development","dept_head":"Luke Wilson"},{"name":"Executive","dept_head":"Fred Luddy"},"#
                + #"{"name":"Finance","dept_head":"Natasha Ingram"},"#
                + #"{"name":"Human Resources","dept_head":"Sophie Turner"},{"name":"IT","dept_head":"Fred Luddy"},"#
                + #"{"name":"Marketing","dept_head":"Sam Sorokin"},{"name":"Sales","dept_head":"Abel Tuter"}]}"#)
    }

    @Test func tablesAPDIListsAndTheirRowCounts() async throws {
        let tables = try await harness.send(
            "GET", "/api/now/table/sys_db_object",
            query: [("sysparm_query", "name=alm_asset^ORname=bsm_chart^ORDERBYname"), ("sysparm_fields", "name,label")])
        #expect(
            Harness.text(tables)
                == #"{"result":[{"name":"alm_asset","label":"Asset"},{"name":"bsm_chart","label":"Chart"}]}"#)
        let counts = try await ["syslog", "sys_metadata", "problem"].asyncMap { table in
            try await harness.send("GET", "/api/now/table/\(table)", query: [("sysparm_limit", "1")])
                .headers["X-Total-Count"] ?? ""
        }
        #expect(counts == ["1000", "3492", "10"])
        let log = try await harness.send(
            "GET", "/api/now/table/syslog",
            query: [("sysparm_query", "ORDERBYsys_created_on"), ("sysparm_fields", "level,source,message,sys_created_on"),
                ("sysparm_limit", "2")])
        #expect(
            Harness.text(log)
                == #"{"result":[{"level":"0","source":"Scheduler","message":"Job 'Clean up expired sessions' completed (1)","#
                + #""sys_created_on":"2025-12-29 09:20:00"},{"level":"0","source":"REST API","#
                + #""message":"Table API request served (2)","sys_created_on":"2025-12-29 09:30:00"}]}"#)
    }

    @Test func sysMetadataListsTheDictionaryRecordsWithTheirClass() async throws {
        let response = try await harness.send(
            "GET", "/api/now/table/sys_metadata",
            query: [("sysparm_query", "sys_class_name=sys_db_object"), ("sysparm_fields", "sys_class_name")])
        #expect(response.headers["X-Total-Count"] == "88")
        let labels = try await harness.send(
            "GET", "/api/now/table/sys_documentation",
            query: [
                ("sysparm_query", "name=sys_dictionary^ORname=incident^elementISEMPTY^ORDERBYname"),
                ("sysparm_fields", "name,element,label,plural,language"),
            ])
        #expect(
            Harness.text(labels)
                == #"{"result":[{"name":"incident","element":"","label":"Incident","plural":"Incidents","#
                + #""language":"en"},{"name":"sys_dictionary","element":"","label":"Dictionary Entry","#
                + #""plural":"Dictionary Entries","language":"en"}]}"#)
        let written = try await harness.send("POST", "/api/now/table/sys_metadata", body: "{}")
        #expect(written.statusCode == 403)
        #expect(
            Harness.text(written)
                == #"{"error":{"message":"The local instance's dictionary is read-only","detail":"sys_metadata is "#
                + #"generated from the table definitions: the built-in tables and the dictionary file "#
                + #"(nowflow serve --schema FILE); to add a table or a field, edit the dictionary file and restart"},"#
                + #""status":"failure"}"#)
    }
}

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
