import NowData
import Testing

@testable import LocalInstance

/// The list view's links write a parsed query back as text (NowData's printer): the same text, a term removed,
/// another sort.
@Suite struct EncodedQueryLinksTests {
    @Test func aParsedQueryIsWrittenBackAsItWasGiven() throws {
        let text = "active=true^priority<=2^ORcaller_id.name=Abel Tuter^NQshort_description*a^^b^ORDERBYDESCnumber"
        let query = try EncodedQuery.parse(text)
        #expect(query.text == text)
        #expect(query.conditionsText == "active=true^priority<=2^ORcaller_id.name=Abel Tuter^NQshort_description*a^^b")
        #expect(
            query.removing(group: 0, clause: 1, term: 0).text
                == "active=true^caller_id.name=Abel Tuter^NQshort_description*a^^b^ORDERBYDESCnumber")
        #expect(
            query.removing(group: 1, clause: 0, term: 0).text
                == "active=true^priority<=2^ORcaller_id.name=Abel Tuter^ORDERBYDESCnumber")
        #expect(
            query.removingOrdering(0).text
                == "active=true^priority<=2^ORcaller_id.name=Abel Tuter^NQshort_description*a^^b")
        #expect(try EncodedQuery.parse("ORDERBYnumber").text(sortedBy: "state", descending: true) == "ORDERBYDESCstate")
        #expect(try EncodedQuery.parse("ORDERBYnumber").text(adding: "active=true") == "active=true^ORDERBYnumber")
        #expect(try EncodedQuery.parse("nonsense^active=true").text == "nonsense^active=true")
        for text in [
            "JOINsys_user.sys_id=sys_user_group.manager!active=true^ORDERBYname",
            "RLQUERYsys_group_has_role.group,>0,m2m^role.nameLIKEadmin^ENDRLQUERY^active=true",
            "RLQUERYtask.assigned_to,=0^ENDRLQUERY",
        ] {
            #expect(try EncodedQuery.parse(text).text == text)
        }
    }
}
