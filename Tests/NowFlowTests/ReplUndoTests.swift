import Foundation
import LocalInstance
import NowData
import Testing

@testable import NowFlow

/// `:history` and `:undo`: a create, an update and a delete taken back, one by one and as a chain, and the refusal
/// when the record changed in between.
@Suite struct ReplUndoTests {
    @Test func aChainOfThreeWritesIsUndoneLastFirst() async throws {
        let harness = try ReplHarness()
        let transcript = await harness.transcript([
            #"create incident short_description="Undo me" urgency=2 id=made"#,
            "update incident ${steps.made.sys_id} urgency=1 short_description=Changed",
            "delete incident ${steps.made.sys_id}",
            ":history",
            ":undo",
            "get incident ${steps.made.sys_id} fields=short_description,urgency",
            ":undo",
            "get incident ${steps.made.sys_id} fields=short_description,urgency",
            ":history",
            ":undo",
            "query incident short_description=\"Undo me\"",
            ":undo",
        ])
        #expect(harness.normalized(transcript) == """
            nowflow> create incident short_description="Undo me" urgency=2 id=made
            made (create): created incident <sys_id>
            number      short_description  state  sys_id                            urgency
            ----------  -----------------  -----  --------------------------------  -------
            INC0010061  Undo me            1      <sys_id>  2
            1 record
            nowflow> update incident ${steps.made.sys_id} urgency=1 short_description=Changed
            _1 (update): updated incident <sys_id>
            number      short_description  state  sys_id                            urgency
            ----------  -----------------  -----  --------------------------------  -------
            INC0010061  Changed            1      <sys_id>  1
            1 record
            nowflow> delete incident ${steps.made.sys_id}
            _2 (delete): deleted incident <sys_id>
            nowflow> :history
            1. made create incident <sys_id>  undo deletes it
            2. _1 update incident <sys_id> (urgency, short_description)  undo restores urgency, short_description
            3. _2 delete incident <sys_id>  undo re-creates it
            nowflow> :undo
            undid 3 (_2 delete incident <sys_id>): re-created it with its sys_id and fields
            nowflow> get incident ${steps.made.sys_id} fields=short_description,urgency
            _3 (get): incident <sys_id>
            short_description  Changed
            urgency            1
            nowflow> :undo
            undid 2 (_1 update incident <sys_id>): restored urgency, short_description
            nowflow> get incident ${steps.made.sys_id} fields=short_description,urgency
            _4 (get): incident <sys_id>
            short_description  Undo me
            urgency            2
            nowflow> :history
            1. made create incident <sys_id>  undo deletes it
            2. _1 update incident <sys_id> (urgency, short_description)  undone
            3. _2 delete incident <sys_id>  undone
            nowflow> :undo
            undid 1 (made create incident <sys_id>): deleted it
            nowflow> query incident short_description="Undo me"
            _5 (query): 0 records from incident
            no records
            nowflow> :undo
            error: nothing to undo (:history lists the writes)

            """)
    }

    @Test func undoAllTakesEveryWriteBackAndAChangedRecordIsRefused() async throws {
        let harness = try ReplHarness()
        let first = await harness.transcript([
            #"create incident short_description="Watched" id=watched"#,
            "update incident ${steps.watched.sys_id} urgency=1",
        ])
        #expect(!first.contains("error"))
        // Someone else changes the record in between.
        let sysID = try #require(await harness.session.scope.steps["watched"]?.json["sys_id"]?.text)
        let other = NowTableService(configuration: NowServiceConfiguration(
            instanceURL: URL(string: "http://127.0.0.1")!, authentication: .basic(user: "admin", password: "admin"),
            transport: harness.instance.transport))
        _ = try await other.updateRecord(sysId: sysID, in: "incident", with: ["impact": FieldValue.string("1")])
        let refused = await harness.transcript([":undo", ":undo all", ":undo 7", ":undo two"])
        #expect(harness.normalized(refused).replacingOccurrences(of: #"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"#, with: "<time>", options: .regularExpression) == """
            nowflow> :undo
            error: not undone: 2 (_1 update incident <sys_id>): the record changed since (sys_mod_count 1 → 2, sys_updated_on <time> → <time>); look at it, then write it back by hand
            nowflow> :undo all
            error: not undone: 2 (_1 update incident <sys_id>): the record changed since (sys_mod_count 1 → 2, sys_updated_on <time> → <time>); look at it, then write it back by hand
            nowflow> :undo 7
            error: :undo takes nothing, a number from :history or all, not '7'
            nowflow> :undo two
            error: :undo takes nothing, a number from :history or all, not 'two'

            """)

        let fresh = try ReplHarness()
        let chain = await fresh.transcript([
            #"create incident short_description="All of it" id=a"#,
            "update incident ${steps.a.sys_id} urgency=1",
            "update incident ${steps.a.sys_id} urgency=3",
            ":undo all",
            ":history",
            "query incident short_description=\"All of it\"",
        ])
        #expect(fresh.normalized(chain).hasSuffix("""
            nowflow> :undo all
            undid 3 (_2 update incident <sys_id>): restored urgency
            undid 2 (_1 update incident <sys_id>): restored urgency
            undid 1 (a create incident <sys_id>): deleted it
            nowflow> :history
            1. a create incident <sys_id>  undone
            2. _1 update incident <sys_id> (urgency)  undone
            3. _2 update incident <sys_id> (urgency)  undone
            nowflow> query incident short_description="All of it"
            _3 (query): 0 records from incident
            no records

            """))
    }

    /// A write by query is kept with every record it wrote, as each was before: `:undo` restores the fields of each
    /// record an update by query wrote, and re-creates each record a delete by query removed.
    @Test func writesByQueryAreUndoneRecordByRecord() async throws {
        let harness = try ReplHarness(width: 120)
        let transcript = await harness.transcript([
            #"create incident short_description="Batch A" urgency=2 impact=2 id=a"#,
            #"create incident short_description="Batch B" urgency=3 impact=2 id=b"#,
            #"update incident query="short_descriptionSTARTSWITHBatch " max=5 urgency=1 id=bump"#,
            #"delete incident query="short_descriptionSTARTSWITHBatch " max=5 id=drop"#,
            ":history",
            ":undo",
            #"query: { table: incident, query: "short_descriptionSTARTSWITHBatch ^ORDERBYshort_description", fields: [short_description, urgency] }"#,
            ":undo",
            #"query: { table: incident, query: "short_descriptionSTARTSWITHBatch ^ORDERBYshort_description", fields: [short_description, urgency] }"#,
            ":history",
        ])
        #expect(harness.normalized(transcript) == """
            nowflow> create incident short_description="Batch A" urgency=2 impact=2 id=a
            a (create): created incident <sys_id>
            number      short_description  state  sys_id                            urgency  impact
            ----------  -----------------  -----  --------------------------------  -------  ------
            INC0010061  Batch A            1      <sys_id>  2        2
            1 record
            nowflow> create incident short_description="Batch B" urgency=3 impact=2 id=b
            b (create): created incident <sys_id>
            number      short_description  state  sys_id                            urgency  impact
            ----------  -----------------  -----  --------------------------------  -------  ------
            INC0010062  Batch B            1      <sys_id>  3        2
            1 record
            nowflow> update incident query="short_descriptionSTARTSWITHBatch " max=5 urgency=1 id=bump
            bump (update): updated 2 incident records
            number      short_description  state  sys_id                            urgency
            ----------  -----------------  -----  --------------------------------  -------
            INC0010061  Batch A            1      <sys_id>  1
            INC0010062  Batch B            1      <sys_id>  1
            2 records
            nowflow> delete incident query="short_descriptionSTARTSWITHBatch " max=5 id=drop
            drop (delete): deleted 2 incident records
            nowflow> :history
            1. a create incident <sys_id>  undo deletes it
            2. b create incident <sys_id>  undo deletes it
            3. bump update incident 2 records by query (urgency)  undo restores urgency of each
            4. drop delete incident 2 records by query  undo re-creates them
            nowflow> :undo
            undid 4 (drop delete incident 2 records by query): re-created 2 records with their sys_ids and fields
            nowflow> query: { table: incident, query: "short_descriptionSTARTSWITHBatch ^ORDERBYshort_description", fields: [short_description, urgency] }
            _1 (query): 2 records from incident
            short_description  urgency
            -----------------  -------
            Batch A            1
            Batch B            1
            2 records
            nowflow> :undo
            undid 3 (bump update incident 2 records by query): restored urgency of 2 records
            nowflow> query: { table: incident, query: "short_descriptionSTARTSWITHBatch ^ORDERBYshort_description", fields: [short_description, urgency] }
            _2 (query): 2 records from incident
            short_description  urgency
            -----------------  -------
            Batch A            2
            Batch B            3
            2 records
            nowflow> :history
            1. a create incident <sys_id>  undo deletes it
            2. b create incident <sys_id>  undo deletes it
            3. bump update incident 2 records by query (urgency)  undone
            4. drop delete incident 2 records by query  undone

            """)
    }

    /// A record of a write by query that changed since is refused, and then none of the write's records is changed.
    @Test func aWriteByQueryIsRefusedWholeWhenOneOfItsRecordsChanged() async throws {
        let harness = try ReplHarness()
        _ = await harness.transcript([
            #"create incident short_description="Pair A" urgency=2 id=a"#,
            #"create incident short_description="Pair B" urgency=2 id=b"#,
            #"update incident query="short_descriptionSTARTSWITHPair " max=5 urgency=1"#,
        ])
        let sysID = try #require(await harness.session.scope.steps["b"]?.json["sys_id"]?.text)
        let other = NowTableService(configuration: NowServiceConfiguration(
            instanceURL: URL(string: "http://127.0.0.1")!, authentication: .basic(user: "admin", password: "admin"),
            transport: harness.instance.transport))
        _ = try await other.updateRecord(sysId: sysID, in: "incident", with: ["impact": FieldValue.string("1")])
        let refused = await harness.transcript([
            ":undo",
            #"query: { table: incident, query: "short_descriptionSTARTSWITHPair ^ORDERBYshort_description", fields: [short_description, urgency] }"#,
        ])
        #expect(harness.normalized(refused).replacingOccurrences(of: #"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"#, with: "<time>", options: .regularExpression) == """
            nowflow> :undo
            error: not undone: 3 (_1 update incident 2 records by query): incident <sys_id>: the record changed since (sys_mod_count 1 → 2, sys_updated_on <time> → <time>); look at it, then write it back by hand
            nowflow> query: { table: incident, query: "short_descriptionSTARTSWITHPair ^ORDERBYshort_description", fields: [short_description, urgency] }
            _2 (query): 2 records from incident
            short_description  urgency
            -----------------  -------
            Pair A             1
            Pair B             1
            2 records

            """)
    }
}
