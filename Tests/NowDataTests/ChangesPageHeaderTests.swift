import Foundation
import Testing

@testable import NowData

/// The page of what changed an answer names in `X-Nowflow-Changes`: a path of the server's own, or nothing.
@Suite struct ChangesPageHeaderTests {
    @Test func onlyAPathOfTheServersOwnIsTaken() {
        func page(_ value: String?) -> String? {
            var response = NowHTTPResponse(statusCode: 200)
            response.headers[NowHTTPResponse.changesPageHeader] = value
            return response.changesPage
        }
        #expect(page("/changes.do") == "/changes.do")
        #expect(page("/nowflow/changes-2.do") == "/nowflow/changes-2.do")
        for refused in [
            nil, "", "changes.do", "//evil.example/changes.do", "https://evil.example/changes.do", "/changes.do?x=1",
            "/changes do", "/changes.do)", "/chang\u{E9}s.do", "/" + String(repeating: "a", count: 200),
        ] {
            #expect(page(refused) == nil, "\(refused ?? "nil")")
        }
    }
}
