import Foundation
import Testing

@testable import LocalInstance

@Suite struct TokenStoreTests {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aGrantCheckedBeforeARevocationBeganIssuesNothing() throws {
        var store = TokenStore()
        let checked = store.generation
        store.beginRevocation()
        let stale = store.issue(
            userName: "ops", clientID: "", passwordHash: "old", refreshable: true, lifetime: 1800, now: now,
            checkedIn: checked)
        #expect(stale == nil)
        #expect(store.count == 0)
        let afterRevocation = store.issue(
            userName: "ops", clientID: "", passwordHash: "new", refreshable: true, lifetime: 1800, now: now,
            checkedIn: store.generation)
        let fresh = try #require(afterRevocation)
        #expect(store.user(forAccessToken: fresh.access, now: now) == "ops")
        let refresh = try #require(fresh.refresh)
        #expect(store.grant(forRefreshToken: refresh, now: now)?.passwordHash == "new")
    }

    /// A grant issued before the revocation began is in the store when the revocation checks its users, and ends.
    @Test func aTokenIssuedBeforeARevocationEndsWithIt() throws {
        var store = TokenStore()
        let beforeRevocation = store.issue(
            userName: "ops", clientID: "", passwordHash: "old", refreshable: false, lifetime: 1800, now: now,
            checkedIn: store.generation)
        let issued = try #require(beforeRevocation)
        #expect(issued.refresh == nil)
        store.beginRevocation()
        #expect(store.userNames == ["ops"])
        store.revoke(userName: "ops", keeping: "new")
        #expect(store.user(forAccessToken: issued.access, now: now) == nil)
        #expect(store.count == 0)
    }

    @Test func expiredTokensAreDroppedWhenATokenIsIssued() throws {
        var store = TokenStore()
        _ = store.issue(
            userName: "ops", clientID: "", passwordHash: "h", refreshable: false, lifetime: 60, now: now,
            checkedIn: store.generation)
        #expect(store.count == 1)
        let later = now.addingTimeInterval(61)
        let afterExpiry = store.issue(
            userName: "itil", clientID: "", passwordHash: "h", refreshable: false, lifetime: 60, now: later,
            checkedIn: store.generation)
        let next = try #require(afterExpiry)
        #expect(store.count == 1)
        #expect(store.user(forAccessToken: next.access, now: later) == "itil")
    }
}
