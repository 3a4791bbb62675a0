import Foundation
import LocalInstance
import NowData
import Testing

@testable import NowFlow

/// A session checks its steps' conditions with the instance's dictionary as a run does: a choice label is sent as
/// its value, and says so; a value that is neither is an error naming the choices, and nothing is sent.
extension ReplSessionTests {
    @Test func choiceLabelsAreTranslatedAsInARun() async throws {
        let harness = try ReplHarness()
        let transcript = await harness.transcript([
            "query incident category=network state=Resolved fields=number,state",
            "query incident state=Resolvd",
            "update: { table: incident, where: { category: network, state: Resolved }, max: 40, fields: { close_notes: swept } }",
        ])
        #expect(harness.normalized(transcript) == """
            nowflow> query incident category=network state=Resolved fields=number,state
            _1 (query): 3 records from incident (incident.state: Resolved = 6)
            number      state
            ----------  -----
            INC0010005  6
            INC0010017  6
            INC0010053  6
            3 records
            nowflow> query incident state=Resolvd
            error: (query): where: 'Resolvd' is not one of incident.state's choices (1 = New, 2 = In Progress, 3 = On Hold, 6 = Resolved, 7 = Closed, 8 = Canceled); did you mean 6 (Resolved)?; nothing was sent
            nowflow> update: { table: incident, where: { category: network, state: Resolved }, max: 40, fields: { close_notes: swept } }
            _2 (update): updated 3 incident records (incident.state: Resolved = 6)
            number      short_description                   state  sys_id                            close_notes
            ----------  ----------------------------------  -----  --------------------------------  -----------
            INC0010005  Cannot access shared drive          6      <sys_id>  swept
            INC0010017  Unable to connect to VPN (2)        6      <sys_id>  swept
            INC0010053  Wireless drops in conference room…  6      <sys_id>  swept
            3 records

            """)
    }
}
