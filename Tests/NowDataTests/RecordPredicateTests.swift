import Foundation
import NowData
import Testing

/// ``RecordPredicate`` on hand-made records: what it refuses and why, what it says of a condition an instance
/// ignores, and dot-walks through empty and dangling references. (Its agreement with the local instance's SQL is
/// the property test in LocalInstanceTests.)
@Suite struct RecordPredicateTests {
    static let types: [String: [String: FieldType]] = [
        "incident": [
            "sys_id": .string, "number": .string, "state": .integer, "active": .boolean, "category": .choice,
            "caller_id": .reference(table: "sys_user"), "opened_at": .dateTime, "work_notes": .other("journal_input"),
            "price": .decimal,
        ],
        "sys_user": ["sys_id": .string, "name": .string],
    ]

    static func predicate(_ query: String, timeZone: TimeZone? = nil) throws -> RecordPredicate {
        try RecordPredicate(
            try EncodedQuery.parse(query), table: "incident", clock: .init(now: Date(), timeZone: timeZone)
        ) { field, table in types[table]?[field] }
    }

    static func refusal(_ query: String) -> String? {
        do {
            _ = try predicate(query)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func refusesWhatARealInstanceCouldAnswerOtherwise() {
        #expect(
            Self.refusal("JOINincident.caller_id=sys_user.sys_id!name=Abel")
                == "cannot check 'JOINincident.caller_id=sys_user.sys_id!name=Abel' itself: a JOIN matches records of another table, which are not read")
        #expect(
            Self.refusal("RLQUERYsys_user.manager,>0^ENDRLQUERY")
                == "cannot check 'RLQUERYsys_user.manager,>0' itself: an RLQUERY counts related records, which are not read")
        #expect(
            Self.refusal("work_notesLIKEdisk")
                == "cannot check 'work_notesLIKEdisk' itself: work_notes is a field of type journal_input, whose comparisons are not known here")
        #expect(
            Self.refusal("activeLIKEtru")
                == "cannot check 'activeLIKEtru' itself: LIKE on a boolean field compares its stored text, which differs between instances")
        #expect(
            Self.refusal("opened_atONToday")
                == "cannot check 'opened_atONToday' itself: 'Today' is a day in the session user's time zone, which is not known here")
        #expect(
            Self.refusal("opened_at>javascript:gs.daysAgoStart(3)")
                == "cannot check 'opened_at>javascript:gs.daysAgoStart(3)' itself: 'javascript:gs.daysAgoStart(3)' is computed in the session user's time zone, which is not known here")
        #expect(
            Self.refusal("stateRELATIVEGT@hour@ago@3")
                == "cannot check 'stateRELATIVEGT@hour@ago@3' itself: the operator RELATIVEGT is not supported by the local instance")
        #expect(
            Self.refusal("123TEXTQUERY321=disk")
                == "cannot check '123TEXTQUERY321=disk' itself: a keyword search runs on the instance's text index")
        #expect(
            Self.refusal("stateSAMEAScategory")
                == "cannot check 'stateSAMEAScategory' itself: it compares the integer field state with the choice field category, which instances convert differently")
        // The same instant in every zone: computed.
        #expect(Self.refusal("opened_at>javascript:gs.hoursAgo(3)") == nil)
        #expect(Self.refusal("opened_atONToday") != nil)
    }

    @Test func namesTheConditionAnInstanceIgnores() throws {
        let predicate = try Self.predicate("category=network^state=Resolved^ORstate=7")
        #expect(predicate.fields == ["sys_id", "category", "state"])
        #expect(predicate.ignoredConditions == ["'state=Resolved': state is an integer field, 'Resolved' is not an integer"])
        let record: JSONObject = ["sys_id": "a1", "category": "Network", "state": "2"]
        let unmet = try #require(try predicate.unmet(in: record))
        #expect(unmet.text == "state=Resolved^ORstate=7")
        #expect(unmet.ignoredBecause == "state is an integer field, 'Resolved' is not an integer")
        #expect(unmet.keys == ["state"])
        #expect(try predicate.matches(["sys_id": "a2", "category": "NETWORK", "state": "7"]))
        #expect(try Self.predicate("nothing=1").ignoredConditions == ["'nothing=1': incident has no field 'nothing'"])
        #expect(try Self.predicate("nothing!=1").matches(["sys_id": "a1"]))
    }

    @Test func walksThroughReferences() throws {
        let named = try Self.predicate("caller_id.name=abel tuter")
        let unnamed = try Self.predicate("caller_id.name!=Abel Tuter")
        #expect(named.fields == ["sys_id", "caller_id", "caller_id.sys_id", "caller_id.name"])
        let abel: JSONObject = [
            "sys_id": "a1", "caller_id": ["link": "…", "value": "u1"], "caller_id.sys_id": "u1",
            "caller_id.name": "Abel Tuter",
        ]
        let nobody: JSONObject = ["sys_id": "a2", "caller_id": "", "caller_id.sys_id": "", "caller_id.name": ""]
        let dangling: JSONObject = ["sys_id": "a3", "caller_id": "gone", "caller_id.sys_id": "", "caller_id.name": ""]
        #expect(try named.matches(abel) && !named.matches(nobody) && !named.matches(dangling))
        #expect(try !unnamed.matches(abel) && unnamed.matches(nobody) && !unnamed.matches(dangling))
        let missing = #expect(throws: RecordPredicate.Refusal.self) { try named.matches(["sys_id": "a4"]) }
        #expect(missing?.description == "cannot check 'caller_id.name=abel tuter' itself: the record read has no 'caller_id'")
    }
}
