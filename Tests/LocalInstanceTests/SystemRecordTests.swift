import Testing

@testable import LocalInstance

/// The typed system records read from stored rows, and the system fields every new record is stamped with.
@Suite struct SystemRecordTests {
    @Test func aUserReadsItsFieldsAndMayLogInOnlyActiveAndNotLockedOut() {
        let user = UserRecord([
            "sys_id": "6816f79cc0a8016401c5a33be04be441", "user_name": "abel.tuter", "active": "true",
            "locked_out": "false", "user_password": "pbkdf2:1000:c2FsdA==:aGFzaA==", "time_zone": "Europe/Paris",
            "date_format": "dd/MM/yyyy",
        ])
        #expect(user.sysID == "6816f79cc0a8016401c5a33be04be441")
        #expect(user.userName == "abel.tuter")
        #expect(user.passwordHash == "pbkdf2:1000:c2FsdA==:aGFzaA==")
        #expect(user.timeZone == "Europe/Paris")
        #expect(user.dateFormat == "dd/MM/yyyy")
        #expect(user.mayLogIn)
        #expect(!UserRecord(["active": "true", "locked_out": "true"]).mayLogIn)
        #expect(!UserRecord(["active": "false"]).mayLogIn)
        #expect(!UserRecord([:]).mayLogIn)
        #expect(UserRecord([:]).passwordHash == "")
    }

    @Test func aCertificateFingerprintIsComparedLowercaseWithoutSeparators() {
        let mapping = UserCertificateRecord(["fingerprint": "AB:cd 0F", "user": "u1"])
        #expect(mapping.fingerprint == "abcd0f")
        #expect(mapping.userSysID == "u1")
    }

    @Test func aBusinessRuleHasAMessageOnlyWhenItAddsOne() {
        #expect(BusinessRuleRecord(["name": "r", "add_message": "true", "message": "No"]).message == "No")
        #expect(BusinessRuleRecord(["name": "r", "add_message": "true"]).message == "")
        #expect(BusinessRuleRecord(["name": "r", "add_message": "false", "message": "No"]).message == nil)
    }

    @Test func aSystemRecordIsStampedAsCreatedBySystem() {
        let record = StoredRecord.system(
            ["sys_id": "0123456789abcdef0123456789abcdef", "name": "x"], of: TableDictionary.sysChoice,
            at: "2026-12-05 02:30:00")
        #expect(
            record == [
                "sys_id": "0123456789abcdef0123456789abcdef", "name": "x", "sys_created_on": "2026-12-05 02:30:00",
                "sys_created_by": "system", "sys_updated_on": "2026-12-05 02:30:00", "sys_updated_by": "system",
                "sys_mod_count": "0", "sys_class_name": "sys_choice",
            ])
    }
}
