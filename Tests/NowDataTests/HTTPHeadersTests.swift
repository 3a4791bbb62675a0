import Testing

@testable import NowData

/// Header fields are looked up and replaced whatever the letter case of their ASCII name, and only so.
@Suite struct HTTPHeadersTests {
    @Test func aFieldIsFoundInAnyLetterCase() {
        let headers: HTTPHeaders = ["X-RateLimit-Rule": "rule", "content-type": "application/json"]
        #expect(headers["x-ratelimit-rule"] == "rule")
        #expect(headers["X-RATELIMIT-RULE"] == "rule")
        #expect(headers["Content-Type"] == "application/json")
        #expect(headers["X-RateLimit-Rul"] == nil)
        #expect(headers["X-RateLimit-Rules"] == nil)
    }

    /// Only letters differ by case: `@` and `` ` ``, `[` and `{` are 0x20 apart too, and are different characters.
    @Test func onlyLettersMatchAcrossCase() {
        #expect(HTTPHeaders.sameName("X-@", "x-`") == false)
        #expect(HTTPHeaders.sameName("A[", "a{") == false)
        #expect(HTTPHeaders.sameName("Retry-After", "rETRY-aFTER"))
        #expect(HTTPHeaders.sameName("Ünïcode", "Ünïcode"))
        #expect(HTTPHeaders.sameName("é", "É") == false)
    }

    @Test func settingReplacesEveryFieldOfThatName() {
        var headers = HTTPHeaders([("Set-Cookie", "a=1"), ("set-cookie", "b=2"), ("Accept", "*/*")])
        headers["SET-COOKIE"] = "c=3"
        #expect(Array(headers).map { "\($0.name): \($0.value)" } == ["Accept: */*", "SET-COOKIE: c=3"])
    }
}
