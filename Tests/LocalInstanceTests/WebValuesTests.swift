import Foundation
import Testing

@testable import LocalInstance

/// How the web views show values: date-times in the user's zone with UTC on hover, references as links, text
/// escaped, passwords masked.
@Suite struct WebValuesTests {
    let dictionary = TableDictionary.builtIn

    func values(_ zone: String) throws -> WebValues {
        WebValues(dictionary: dictionary, timeZone: try #require(TimeZone(identifier: zone)))
    }

    @Test func aDateTimeIsShownInTheUsersZoneWithUTCOnHover() throws {
        #expect(
            try values("Europe/Paris").time("2026-01-05 08:00:00")
                == #"<time datetime="2026-01-05T08:00:00Z" title="2026-01-05 08:00:00 UTC">2026-01-05 09:00:00 GMT+1</time>"#
        )
        #expect(
            try values("UTC").time("2026-07-05 23:30:00")
                == #"<time datetime="2026-07-05T23:30:00Z" title="2026-07-05 23:30:00 UTC">2026-07-05 23:30:00 UTC</time>"#
        )
        #expect(try values("UTC").time("<b>") == "&lt;b&gt;")
    }

    @Test func referencesLinkToTheirRecordAndTextIsEscaped() throws {
        let incident = try #require(dictionary.table("incident"))
        let values = try values("UTC")
        #expect(
            values.html(
                ["display_value": "Abel <Tuter>", "value": "dbbd5520a9542c7bfd1b56b7cc0fb54a"],
                field: incident.field("caller_id"))
                == #"<a href="/sys_user.do?sys_id=dbbd5520a9542c7bfd1b56b7cc0fb54a">Abel &lt;Tuter&gt;</a>"#)
        #expect(
            values.html(
                ["display_value": "\"quoted\" & 'single'", "value": "x"], field: incident.field("short_description"))
                == "&quot;quoted&quot; &amp; &#39;single&#39;")
        #expect(values.label("caller_id.manager.name", on: incident) == "Caller.Manager.Name")
        #expect(values.field("caller_id.email", on: incident)?.name == "email")
        let users = try #require(dictionary.table("sys_user"))
        #expect(
            values.html(["display_value": "x", "value": "hash"], field: users.field("user_password")) == "********")
    }
}
