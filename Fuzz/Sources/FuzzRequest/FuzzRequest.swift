// The local instance's request handling in process: any method, path, query, headers and body (written as HTTP
// text, see HTTPText) through the entry point of `nowflow serve`'s listener (web views, then the APIs). The answer
// is well-formed (FuzzInstance.check) and the process lives. Fuzz/request.dict holds the API's paths, parameter
// and header names.
import FuzzInstance
import FuzzSupport

@main
enum FuzzRequest {
    nonisolated(unsafe) static var instance: FuzzInstance?

    static func main() {
        instance = FuzzInstance()
        Fuzzer.run { start, count in
            FuzzRequest.instance?.answer(HTTPText.request(Substring(Fuzzer.text(start, count))))
            return 0
        }
    }
}
