// The Batch API's body: any bytes POSTed to /api/now/v1/batch as the administrator (nested requests, their
// headers and base64 bodies, run in turn through the instance) give a well-formed answer, never a crash.
import Foundation
import FuzzInstance
import FuzzSupport
import NowData

@main
enum FuzzBatch {
    nonisolated(unsafe) static var instance: FuzzInstance?

    static func main() {
        instance = FuzzInstance()
        Fuzzer.run { start, count in
            FuzzBatch.instance?.answer(
                NowHTTPRequest(
                    method: "POST", path: "/api/now/v1/batch",
                    headers: [
                        "Authorization": FuzzInstance.adminAuthorization, "Content-Type": "application/json",
                        "Accept": "application/json",
                    ],
                    body: Data(Fuzzer.bytes(start, count))))
            return 0
        }
    }
}
