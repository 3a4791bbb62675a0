import NowData
import Testing

@testable import LocalInstance

@Suite struct HTTPHeadersLookupTests {
    @Test func findsTheFirstFieldInAnyLetterCaseAsTheSubscriptDoes() {
        let headers: HTTPHeaders = [
            "accept": "application/json", "AUTHORIZATION": "Basic first", "Authorization": "Basic second",
            "X-HTTP-Method-Overrid": "PUT", "Host": "",
        ]
        for name in ["Authorization", "authorization", "Accept", "X-HTTP-Method-Override", "Host", "Content-Type"] {
            #expect(headers.value(named: name) == headers[name], "\(name)")
        }
        #expect(headers.value(named: "Authorization") == "Basic first")
        #expect(headers.value(named: "X-HTTP-Method-Override") == nil)
        #expect(headers.value(named: "Host") == "")
    }

    @Test func aNonASCIINameMatchesOnlyWhereUnicodeCaseFoldingSaysSo() {
        let headers: HTTPHeaders = ["Authorizatión": "Basic accented", "Content-Type": "text/plain"]
        #expect(headers.value(named: "Authorization") == headers["Authorization"])
        #expect(headers.value(named: "Content-Type") == "text/plain")
    }

    @Test func removesEveryFieldOfANameInAnyLetterCaseAndKeepsTheOthersInOrder() {
        var headers: HTTPHeaders = [
            "Host": "localhost", "x-nowflow-body-sha256": "forged", "Accept": "*/*", "X-Nowflow-Body-SHA256": "again",
        ]
        headers.removeAll(named: "X-Nowflow-Body-SHA256")
        #expect(headers == ["Host": "localhost", "Accept": "*/*"])
        headers.removeAll(named: "Content-Type")
        #expect(headers == ["Host": "localhost", "Accept": "*/*"])
    }
}
