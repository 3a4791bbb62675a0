import Foundation
import NowData
import Testing

@testable import LocalInstance

/// How passwords, API key tokens and OAuth client secrets are stored: PBKDF2-HMAC-SHA256 with the instance's work
/// factor, and the salted SHA-256 hashes of earlier versions upgraded by the next login that verifies them.
@Suite struct PasswordStorageTests {
    private static let form = [("Content-Type", "application/x-www-form-urlencoded")]

    private static func basic(_ user: String, _ password: String) -> [(String, String)] {
        [("Authorization", "Basic " + Data("\(user):\(password)".utf8).base64EncodedString())]
    }

    /// The stored value of `field` in the `table` record `sysID`.
    private static func stored(_ harness: Harness, _ table: String, _ sysID: String, _ field: String) throws -> String {
        let definition = try #require(harness.instance.dictionary.table(table))
        let value = try harness.instance.database.read { db in
            try harness.instance.store.fetch(definition, sysID: sysID, db)?[field]
        }
        return try #require(value)
    }

    /// Replaces the stored value of `field` in the `table` record `sysID` (as an earlier version wrote it).
    private static func store(
        _ harness: Harness, _ table: String, _ sysID: String, _ field: String, _ value: String
    ) throws {
        let definition = try #require(harness.instance.dictionary.table(table))
        _ = try harness.instance.database.write { db in
            try harness.instance.store.update(definition, sysID: sysID, [field: value], db)
        }
    }

    /// The salted SHA-256 hash of earlier versions: `sha256$<salt>$<SHA-256 of salt + secret>`.
    private static func legacyHash(_ secret: String, salt: String = "00112233445566778899aabbccddeeff") -> String {
        "sha256$\(salt)$\(SHA256.hex(salt + secret))"
    }

    /// The parts of a stored hash, checked against the documented format.
    private static func parts(_ hash: String) throws -> (iterations: Int, salt: String, key: String) {
        let parts = hash.split(separator: "$", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 4)
        #expect(parts[0] == "pbkdf2-sha256")
        #expect(parts[2].count == 32 && parts[2].allSatisfy(\.isHexDigit))
        #expect(parts[3].count == 64 && parts[3].allSatisfy(\.isHexDigit))
        return (try #require(Int(parts[1])), parts[2], parts[3])
    }

    @Test func pbkdf2GivesTheKnownAnswers() {
        // RFC 7914 section 11 (PBKDF2-HMAC-SHA256, 64-byte keys: their first 32 bytes) and the common c=4096 vector.
        #expect(
            SHA256.hexText(SHA256.pbkdf2(password: Array("passwd".utf8), salt: Array("salt".utf8), iterations: 1))
                == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc")
        #expect(
            SHA256.hexText(SHA256.pbkdf2(password: Array("password".utf8), salt: Array("salt".utf8), iterations: 4096))
                == "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a")
    }

    @Test func aPasswordIsStoredAsPBKDF2WithTheWorkFactorAndItsOwnSalt() async throws {
        let harness = try Harness(seed: false)
        var salts: Set<String> = []
        for name in ["ann", "bob"] {
            let created = try await harness.send(
                "POST", "/api/now/table/sys_user", query: [("sysparm_fields", "sys_id,user_name,user_password")],
                body: #"{"user_name":"\#(name)","user_password":"same-pa55"}"#)
            let sysID = try #require(try Harness.result(created)["sys_id"] as? String)
            #expect(
                Harness.text(created)
                    == #"{"result":{"sys_id":"\#(sysID)","user_name":"\#(name)","user_password":"********"}}"#)
            let hash = try Self.stored(harness, "sys_user", sysID, "user_password")
            let (iterations, salt, key) = try Self.parts(hash)
            #expect(iterations == Harness.passwordIterations)
            let expected = SHA256.pbkdf2(
                password: Array("same-pa55".utf8), salt: try #require(Self.bytes(salt)), iterations: iterations)
            #expect(key == SHA256.hexText(expected))
            salts.insert(salt)
        }
        #expect(salts.count == 2)
    }

    @Test func theDefaultWorkFactorIsOWASPs600000Rounds() throws {
        #expect(LocalInstance.Options().passwordIterations == 600_000)
        let instance = try LocalInstance(options: .init(adminPassword: "slow-but-once", seedDemoData: false, log: { _ in }))
        defer { instance.close() }
        let users = try #require(instance.dictionary.table("sys_user"))
        let hash = try #require(
            try instance.database.read { db in
                try instance.store.fetch(users, sysID: DemoData.sysID("sys_user", "admin"), db)?["user_password"]
            })
        #expect(try Self.parts(hash).iterations == 600_000)
    }

    @Test func anOldSaltedSHA256PasswordIsUpgradedByTheNextLogin() async throws {
        let harness = try Harness(seed: false)
        let created = try await harness.send(
            "POST", "/api/now/table/sys_user", body: #"{"user_name":"old.timer","user_password":"placeholder"}"#)
        #expect(created.statusCode == 201)
        let sysID = try #require(try Harness.result(created)["sys_id"] as? String)
        let legacy = Self.legacyHash("0ld-pa55")
        try Self.store(harness, "sys_user", sysID, "user_password", legacy)

        let wrong = try await harness.send("GET", "/api/now/table/sys_user/\(sysID)", headers: Self.basic("old.timer", "nope"))
        #expect(wrong.statusCode == 401)
        #expect(try Self.stored(harness, "sys_user", sysID, "user_password") == legacy)

        let right = try await harness.send(
            "GET", "/api/now/table/sys_user/\(sysID)", query: [("sysparm_fields", "user_name")],
            headers: Self.basic("old.timer", "0ld-pa55"))
        #expect(Harness.text(right) == #"{"result":{"user_name":"old.timer"}}"#)
        let upgraded = try Self.stored(harness, "sys_user", sysID, "user_password")
        #expect(try Self.parts(upgraded).iterations == Harness.passwordIterations)
        #expect(PasswordHash.verify("0ld-pa55", against: upgraded))

        // The new hash serves the logins after it: a token grant, and Basic on a new connection's header.
        let grant = try await harness.send(
            "POST", "/oauth_token.do", body: "grant_type=password&username=old.timer&password=0ld-pa55",
            headers: Self.form)
        #expect(grant.statusCode == 200)
        #expect(try Self.stored(harness, "sys_user", sysID, "user_password") == upgraded)
    }

    @Test func aHashWithFewerRoundsThanTheInstancesIsUpgradedToThem() async throws {
        let harness = try Harness(seed: false) { $0.passwordIterations = Harness.passwordIterations * 2 }
        let admin = DemoData.sysID("sys_user", "admin")
        let weaker = PasswordHash.make("secret", iterations: Harness.passwordIterations)
        try Self.store(harness, "sys_user", admin, "user_password", weaker)
        #expect(try await harness.send("GET", "/api/now/table/sys_user/\(admin)").statusCode == 200)
        let stored = try Self.stored(harness, "sys_user", admin, "user_password")
        #expect(try Self.parts(stored).iterations == Harness.passwordIterations * 2)
        #expect(PasswordHash.verify("secret", against: stored))
    }

    @Test func anOldAPIKeyTokenAndClientSecretAreVerifiedThenUpgraded() async throws {
        let harness = try Harness(seed: false) { $0.oauthClients = ["ansible": "placeholder"] }
        let key = try await harness.send(
            "POST", "/api/now/table/sys_api_key", query: [("sysparm_fields", "sys_id,token")],
            body: #"{"name":"CI","token":"placeholder","user":"\#(DemoData.sysID("sys_user", "admin"))"}"#)
        let keyID = try #require(try Harness.result(key)["sys_id"] as? String)
        #expect(Harness.text(key) == #"{"result":{"sys_id":"\#(keyID)","token":"********"}}"#)
        let keyHash = try Self.stored(harness, "sys_api_key", keyID, "token")
        #expect(try Self.parts(keyHash).iterations == Harness.passwordIterations)
        try Self.store(harness, "sys_api_key", keyID, "token", Self.legacyHash("k3y-0ld"))
        let client = String(SHA256.hex("nowflow-oauth:ansible").prefix(32))
        #expect(try Self.parts(try Self.stored(harness, "oauth_entity", client, "client_secret")).iterations > 0)
        try Self.store(harness, "oauth_entity", client, "client_secret", Self.legacyHash("s3cret-0ld"))

        let byKey = try await harness.send(
            "GET", "/api/now/table/sys_user", query: [("sysparm_fields", "user_name"), ("sysparm_limit", "1")],
            headers: [("x-sn-apikey", "k3y-0ld")])
        #expect(Harness.text(byKey) == #"{"result":[{"user_name":"admin"}]}"#)
        let newKey = try Self.stored(harness, "sys_api_key", keyID, "token")
        #expect(try Self.parts(newKey).iterations == Harness.passwordIterations)
        #expect(PasswordHash.verify("k3y-0ld", against: newKey))

        let granted = try await harness.send(
            "POST", "/oauth_token.do",
            body: "grant_type=client_credentials&client_id=ansible&client_secret=s3cret-0ld", headers: Self.form)
        #expect(granted.statusCode == 200)
        let newSecret = try Self.stored(harness, "oauth_entity", client, "client_secret")
        #expect(try Self.parts(newSecret).iterations == Harness.passwordIterations)
        #expect(PasswordHash.verify("s3cret-0ld", against: newSecret))
    }

    @Test func aValueInNeitherFormatOrWithAbsurdRoundsNeverMatches() {
        #expect(!PasswordHash.verify("", against: ""))
        #expect(!PasswordHash.verify("pw", against: "pw"))
        #expect(!PasswordHash.verify("pw", against: "pbkdf2-sha256$0$00$00"))
        #expect(!PasswordHash.verify("pw", against: "pbkdf2-sha256$999999999999$0011$00"))
        #expect(!PasswordHash.verify("pw", against: "pbkdf2-sha256$10$zz$00"))
        #expect(PasswordHash.verify("pw", against: Self.legacyHash("pw")))
        #expect(PasswordHash.needsUpgrade(Self.legacyHash("pw"), iterations: 1))
    }

    private static func bytes(_ hex: String) -> [UInt8]? {
        let digits = Array(hex)
        guard digits.count.isMultiple(of: 2) else { return nil }
        return stride(from: 0, to: digits.count, by: 2).compactMap { UInt8(String(digits[$0...$0 + 1]), radix: 16) }
    }
}
