import Foundation
import LocalInstance
import NowData
import Testing

@testable import NowFlow

/// The smaller behaviours of a session: options before the kind, ids of failed steps, `:display`.
extension ReplSessionTests {
    @Test func optionsMayComeBeforeTheKind() async throws {
        let harness = try ReplHarness()
        let transcript = await harness.transcript([
            "id=opened create incident short_description=\"Printer on fire\" urgency=1",
            "continue_on_error=true id=missing get incident 0123456789abcdef0123456789abcdef",
            "id=two query incident number=INC0010002 fields=number",
            "id=x",
            ":show steps.opened.record.urgency",
        ])
        #expect(harness.normalized(transcript) == """
            nowflow> id=opened create incident short_description="Printer on fire" urgency=1
            opened (create): created incident <sys_id>
            number      short_description  state  sys_id                            urgency
            ----------  -----------------  -----  --------------------------------  -------
            INC0010061  Printer on fire    1      <sys_id>  1
            1 record
            nowflow> continue_on_error=true id=missing get incident <sys_id>
            error: missing (get): bad response 404 from GET /api/now/table/incident/<sys_id>: No Record found (Record doesn't exist or ACL restricts the record retrieval) (continue_on_error: going on)
            nowflow> id=two query incident number=INC0010002 fields=number
            two (query): 1 record from incident
            number
            ----------
            INC0010002
            1 record
            nowflow> id=x
            error at column 1: a short-form step starts with its kind (query, get, create, update, delete, set, assert, http, attach, download, attachments or aggregate)
            nowflow> :show steps.opened.record.urgency
            1

            """)
    }

    @Test func aFailedStepUsesUpNoID() async throws {
        let harness = try ReplHarness()
        let transcript = await harness.transcript([
            "query incident number=INC0010001 fields=number",
            "get incident 0123456789abcdef0123456789abcdef",
            "query incident number=INC0010002 fields=number",
            ":vars",
        ])
        #expect(harness.normalized(transcript) == """
            nowflow> query incident number=INC0010001 fields=number
            _1 (query): 1 record from incident
            number
            ----------
            INC0010001
            1 record
            nowflow> get incident <sys_id>
            error: (get): bad response 404 from GET /api/now/table/incident/<sys_id>: No Record found (Record doesn't exist or ACL restricts the record retrieval)
            nowflow> query incident number=INC0010002 fields=number
            _2 (query): 1 record from incident
            number
            ----------
            INC0010002
            1 record
            nowflow> :vars
            steps._1 = {"count":1,"records":[{"number":"INC0010001","sys_id":"77...
            steps._2 = {"count":1,"records":[{"number":"INC0010002","sys_id":"9d...
            steps._ is steps._2

            """)
        #expect(await harness.session.stepFailed)
        #expect(await !harness.session.assertionFailed)
    }

    @Test func displayValuesAreChosenForTheSession() async throws {
        let harness = try ReplHarness()
        let transcript = await harness.transcript([
            ":display",
            ":display on",
            "query incident number=INC0010002 fields=number,state,assigned_to",
            "query incident number=INC0010002 fields=number,state display_value=false",
            ":display all",
            "query incident number=INC0010002 fields=state",
            ":format json",
            ":show steps._.records.0.state",
            ":display off",
            ":format table",
            "query incident number=INC0010002 fields=state",
            ":display sometimes",
            "assert steps._.count == 2",
        ])
        #expect(harness.normalized(transcript) == """
            nowflow> :display
            display values: off
            nowflow> :display on
            display values: on (steps without display_value ask for display values)
            nowflow> query incident number=INC0010002 fields=number,state,assigned_to
            _1 (query): 1 record from incident
            number      state        assigned_to
            ----------  -----------  -----------
            INC0010002  In Progress  Bud Richman
            1 record
            nowflow> query incident number=INC0010002 fields=number,state display_value=false
            _2 (query): 1 record from incident
            number      state
            ----------  -----
            INC0010002  2
            1 record
            nowflow> :display all
            display values: all (steps without display_value ask for values and display values)
            nowflow> query incident number=INC0010002 fields=state
            _3 (query): 1 record from incident
            state
            -----------
            In Progress
            1 record
            nowflow> :format json
            format: json
            nowflow> :show steps._.records.0.state
            {
              "display_value": "In Progress",
              "value": "2"
            }
            nowflow> :display off
            display values: off
            nowflow> :format table
            format: table
            nowflow> query incident number=INC0010002 fields=state
            _4 (query): 1 record from incident
            state
            -----
            2
            1 record
            nowflow> :display sometimes
            error: :display takes on, off or all, not 'sometimes'
            nowflow> assert steps._.count == 2
            error: (assert): assertion failed: steps._.count == 2 (1 == 2 is false)

            """)
        #expect(await harness.session.assertionFailed)
        #expect(await !harness.session.stepFailed)
    }

    @Test func unknownTablesAndFieldsAreCaughtBeforeTheRequest() async throws {
        let harness = try ReplHarness()
        let transcript = await harness.transcript([
            "query incidnt active=true",
            "query incident actve=true limit=1",
            "query incident active=true fields=number,shrt_description limit=1",
            "create incident short_descripton=x",
            "query: { table: incident, where: { priorty: 1 }, limit: 1 }",
            "query incident caller_id.name=x order_by=numbr",
            "query incident caller_id.name=x fields=number limit=1",
            "query u_nothing_like_it",
        ])
        #expect(transcript == """
            nowflow> query incidnt active=true
            error at column 7: the instance has no table 'incidnt'; did you mean 'incident'?
            nowflow> query incident actve=true limit=1
            error at column 16: incident has no field 'actve'; did you mean 'active'?
            nowflow> query incident active=true fields=number,shrt_description limit=1
            error at column 35: incident has no field 'shrt_description'; did you mean 'short_description'?
            nowflow> create incident short_descripton=x
            error at column 17: incident has no field 'short_descripton'; did you mean 'short_description'?
            nowflow> query: { table: incident, where: { priorty: 1 }, limit: 1 }
            error at column 36: incident has no field 'priorty'; did you mean 'priority'?
            nowflow> query incident caller_id.name=x order_by=numbr
            error at column 42: incident has no field 'numbr'; did you mean 'number'?
            nowflow> query incident caller_id.name=x fields=number limit=1
            _1 (query): 0 records from incident
            no records
            nowflow> query u_nothing_like_it
            error at column 7: the instance has no table 'u_nothing_like_it'

            """)
    }

    /// The REPL checks a step's names as the name check of a job file reads them (``NameUse``): the fields of an
    /// encoded `query:` and those inside `or:`, not `or` itself.
    @Test func encodedQueriesAndOrConditionsAreCheckedAsInAJobFile() async throws {
        let harness = try ReplHarness()
        let transcript = await harness.transcript([
            "query incident query=actve=true",
            #"query: { table: incident, query: "active=true^priorty=1", limit: 1 }"#,
            "query: { table: incident, where: { or: [ { priorty: 1 }, { active: true } ] } }",
            "query: { table: incident, where: { or: [ { priority: 1 }, { active: true } ] }, limit: 1, fields: number }",
        ])
        #expect(transcript == """
            nowflow> query incident query=actve=true
            error at column 22: incident has no field 'actve'; did you mean 'active'?
            nowflow> query: { table: incident, query: "active=true^priorty=1", limit: 1 }
            error at column 47: incident has no field 'priorty'; did you mean 'priority'?
            nowflow> query: { table: incident, where: { or: [ { priorty: 1 }, { active: true } ] } }
            error at column 44: incident has no field 'priorty'; did you mean 'priority'?
            nowflow> query: { table: incident, where: { or: [ { priority: 1 }, { active: true } ] }, limit: 1, fields: number }
            _1 (query): 1 record from incident
            number
            ----------
            INC0010001
            1 record

            """)
    }
}
