import Testing

@testable import NowFlow

/// The second opinion before a write by query: the records the instance returns are checked against the query by
/// the runner, and a write whose query the instance partly ignored writes nothing. The queries are templated, so
/// that no check of the job file catches the value before the run: only the second opinion can.
@Suite struct SecondOpinionTests {
    @Test func anUpdateWhoseLabelTheInstanceIgnoredWritesNothing() async throws {
        let harness = try RunHarness()
        let untouched = try harness.count("incident", "urgency=3")
        let result = try await harness.run(
            """
            name: Close network incidents
            vars: { state: Resolved }
            steps:
              - update: { table: incident, query: "category=network^state=${vars.state}", max: 40, fields: { urgency: 3 } }
            """)
        #expect(result.status == .failed)
        #expect(result.status.exitCode == 3)
        #expect(
            result.error
                == "step 1 (update): the instance ignored the condition 'state=Resolved' (state is an integer field, 'Resolved' is not an integer): it returned INC0010002, whose state is '2'; nothing was updated"
        )
        #expect(try harness.count("incident", "urgency=3") == untouched)
    }

    @Test func aDeleteWhoseBooleanTheInstanceIgnoredDeletesNothing() async throws {
        let harness = try RunHarness()
        let users = try harness.count("sys_user", "")
        let result = try await harness.run(
            """
            name: Purge
            vars: { flag: "yes" }
            steps:
              - delete: { table: sys_user, query: "active=${vars.flag}^ORvip=${vars.flag}", max: 1000 }
            """)
        #expect(
            result.error
                == "step 1 (delete): the instance ignored the condition 'active=yes^ORvip=yes' (active is a boolean field, 'yes' is not true or false): it returned System Administrator, whose active is 'true' and vip is 'false'; nothing was deleted"
        )
        #expect(try harness.count("sys_user", "") == users)
    }

    @Test func aFieldNameFromATemplateThatTheTableLacksWritesNothing() async throws {
        let harness = try RunHarness()
        let untouched = try harness.count("incident", "urgency=3")
        let result = try await harness.run(
            """
            name: Typo
            vars: { field: u_categroy }
            steps:
              - update: { table: incident, query: "${vars.field}=network", max: 1000, fields: { urgency: 3 } }
            """)
        #expect(
            result.error
                == "step 1 (update): the instance ignored the condition 'u_categroy=network' (incident has no field 'u_categroy'): it returned INC0010001; nothing was updated"
        )
        #expect(try harness.count("incident", "urgency=3") == untouched)
    }

    @Test func aVerifiedUpdateWritesExactlyTheMatchingRecords() async throws {
        let harness = try RunHarness()
        let query = "caller_id.nameSTARTSWITHa^priority<=3^NQcategory=DATABASE"
        let matching = try harness.sysIDs("incident", query)
        #expect(matching.count > 1)
        let result = try await harness.run(
            """
            name: Raise
            steps:
              - id: raise
                update: { table: incident, query: "\(query)", max: 1000, fields: { urgency: 1 } }
            """)
        #expect(result.status == .passed)
        #expect(harness.lines == ["ok   step 1 'raise' (update): updated \(matching.count) incident records (N ms)"])
        #expect(Set(try harness.sysIDs("incident", "urgency=1^" + query)) == Set(matching))
    }

    /// A run reads each dictionary entry once: the second opinion starts from what the name check read, and reads
    /// only what it lacks (here `sys_user`'s fields, which the templated queries walk to and the name check could
    /// not see), once for the two writes that need it.
    @Test func aRunReadsTheDictionaryOnce() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Raise
            vars: { first: a, second: b }
            steps:
              - update: { table: incident, query: "caller_id.nameSTARTSWITH${vars.first}^category=network", max: 1000, fields: { urgency: 1 } }
              - delete: { table: sys_user_grmember, where: { group.name: No such group }, max: 5 }
              - update: { table: incident, query: "caller_id.nameSTARTSWITH${vars.second}^category=network", max: 1000, fields: { urgency: 2 } }
            """, checkingNames: true)
        #expect(result.status == .passed, "\(result.error ?? "")")
        // Every read with a query, in order: the name check's, then each write's dictionary entries and records.
        let reads = harness.requests.filter { $0.method == "GET" }.map { request in
            request.path.dropFirst("/api/now/table/".count) + " "
                + (request.queryItems.first { $0.name == "sysparm_query" }?.value ?? "")
        }
        #expect(
            reads == [
                "sys_db_object ",
                "sys_dictionary nameINincident,sys_user_grmember,task^elementISNOTEMPTY",
                "sys_choice nameINincident,sys_user_grmember,task^inactive=false^ORDERBYsequence",
                "sys_dictionary nameINsys_user_group^elementISNOTEMPTY",
                "sys_choice nameINsys_user_group^inactive=false^ORDERBYsequence",
                "sys_dictionary nameINsys_user^elementISNOTEMPTY",
                "sys_choice nameINsys_user^inactive=false^ORDERBYsequence",
                "incident caller_id.nameSTARTSWITHa^category=network",
                "sys_user_grmember group.name=No such group",
                "incident caller_id.nameSTARTSWITHb^category=network",
            ])
    }

    @Test func aQueryTheRunnerCannotCheckWritesNothing() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Join
            vars: { flag: "true" }
            steps:
              - delete: { table: incident, query: "JOINincident.caller_id=sys_user.sys_id!vip=${vars.flag}", max: 1000 }
            """)
        #expect(
            result.error
                == "step 1 (delete): cannot check 'JOINincident.caller_id=sys_user.sys_id!vip=true' itself: a JOIN matches records of another table, which are not read; nothing was deleted"
        )
    }

    @Test func aDryRunRefusesAsTheRunWould() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Join
            vars: { flag: "true" }
            steps:
              - create: { table: incident, fields: { short_description: withheld } }
              - delete: { table: incident, query: "JOINincident.caller_id=sys_user.sys_id!vip=${vars.flag}", max: 1000 }
            """, dryRun: true)
        #expect(
            result.error
                == "step 2 (delete): cannot check 'JOINincident.caller_id=sys_user.sys_id!vip=true' itself: a JOIN matches records of another table, which are not read; nothing was deleted"
        )
    }

    @Test func anEnsureWhoseMatchTheInstanceIgnoredWritesNothing() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Ensure
            vars: { number: INC0010001, state: Closed }
            steps:
              - ensure: { table: incident, query: "number=${vars.number}^state=${vars.state}", fields: { urgency: 3 } }
            """)
        #expect(
            result.error
                == "step 1 (ensure): the instance ignored the condition 'state=Closed' (state is an integer field, 'Closed' is not an integer): it returned INC0010001, whose state is '1'; nothing was written"
        )
    }

    /// In the REPL as in a run, a choice label is translated to its value before it is sent; a condition the session
    /// could not check (on a table its dictionary reads did not reach) and the instance ignored writes nothing.
    @Test func aREPLUpdateWhoseConditionTheInstanceIgnoredWritesNothing() async throws {
        let harness = try ReplHarness(
            job: """
                name: Session
                vars: { state: Resolved, flag: "yes" }
                steps: []
                """)
        let transcript = await harness.transcript([
            #"update: { table: incident, query: "category=network^state=${vars.state}^caller_id.active=${vars.flag}", max: 40, fields: { urgency: 3 } }"#
        ])
        #expect(
            transcript == """
                nowflow> update: { table: incident, query: "category=network^state=${vars.state}^caller_id.active=${vars.flag}", max: 40, fields: { urgency: 3 } }
                error: (update): the instance ignored the condition 'caller_id.active=yes' (active is a boolean field, 'yes' is not true or false): it returned INC0010005, whose caller_id.active is 'true'; nothing was updated

                """)
    }
}
