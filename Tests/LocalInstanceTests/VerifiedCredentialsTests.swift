import Testing

@testable import LocalInstance

@Suite struct VerifiedCredentialsTests {
    @Test func rememberedCredentialsAreForgottenAtOnce() {
        var credentials = VerifiedCredentials()
        credentials.remember("Basic b3BzOnB3MQ==", user: "ops", verifiedIn: credentials.generation)
        #expect(credentials.user(for: "Basic b3BzOnB3MQ==") == "ops")
        #expect(credentials.user(for: "Basic b3BzOnB3Mg==") == nil)
        credentials.forgetAll()
        #expect(credentials.user(for: "Basic b3BzOnB3MQ==") == nil)
    }

    /// A verification that read the user before a write to sys_user, and finishes after the write forgot every
    /// credential, must not put its (maybe stale) answer back.
    @Test func aVerificationThatStartedBeforeAWriteIsNotRemembered() {
        var credentials = VerifiedCredentials()
        let before = credentials.generation
        credentials.forgetAll()
        credentials.remember("Basic b3BzOnB3MQ==", user: "ops", verifiedIn: before)
        #expect(credentials.user(for: "Basic b3BzOnB3MQ==") == nil)
        credentials.remember("Basic b3BzOnB3MQ==", user: "ops", verifiedIn: credentials.generation)
        #expect(credentials.user(for: "Basic b3BzOnB3MQ==") == "ops")
    }

    @Test func pastItsCapacityTheCacheStartsAgain() {
        var credentials = VerifiedCredentials()
        for index in 0..<VerifiedCredentials.capacity {
            credentials.remember("Basic \(index)", user: "u\(index)", verifiedIn: credentials.generation)
        }
        #expect(credentials.user(for: "Basic 0") == "u0")
        credentials.remember("Basic new", user: "new", verifiedIn: credentials.generation)
        #expect(credentials.user(for: "Basic 0") == nil)
        #expect(credentials.user(for: "Basic new") == "new")
    }
}
