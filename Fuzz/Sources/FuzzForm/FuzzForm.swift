// Form-encoded bodies: the OAuth token request (POST /oauth_token.do) and the web views' login form (POST
// /login.do, with its security token) answer any body well-formed, never a crash; any text, encoded as a form
// value, decodes to itself; and any text read as a JWT bearer assertion is decoded or refused, never a crash.
import Foundation
import FuzzInstance
import FuzzSupport
@testable import LocalInstance
import NowData

@main
enum FuzzForm {
    nonisolated(unsafe) static var instance: FuzzInstance?

    static let formType = "application/x-www-form-urlencoded"

    static func main() {
        instance = FuzzInstance()
        Fuzzer.run { start, count in
            let text = Fuzzer.text(start, count)
            FuzzForm.instance?.answer(
                NowHTTPRequest(
                    method: "POST", path: "/oauth_token.do", headers: ["Content-Type": FuzzForm.formType],
                    body: Data(text.utf8)))
            FuzzForm.instance?.answer(
                NowHTTPRequest(
                    method: "POST", path: "/login.do",
                    headers: ["Content-Type": FuzzForm.formType, "Cookie": "\(WebInterface.loginCookie)=fuzztoken"],
                    body: Data(("sysparm_ck=fuzztoken&" + text).utf8)))
            _ = LocalInstance.formFields(text)
            _ = try? JWTAssertion(text)
            let encoded = "a=" + WebForm.encode(text) + "&b=2"
            let form = WebForm(body: Data(encoded.utf8))
            guard form["a"] == text, form["b"] == "2" else {
                fatalError("'\(text)' encoded as '\(encoded)' decodes to '\(form["a"] ?? "nil")', b '\(form["b"] ?? "nil")'")
            }
            return 0
        }
    }
}
