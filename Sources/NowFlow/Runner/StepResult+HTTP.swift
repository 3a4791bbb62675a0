import Foundation
import NowData

extension StepResult {
    /// An http step's result from the answer: `status`, `headers` (each name as sent, repeated ones joined with `, `)
    /// and `body`, parsed when it is JSON, else its text.
    init(answer response: NowHTTPResponse) {
        var headers = JSONObject()
        for (name, value) in response.headers {
            headers[name] = .string(headers[name].map { $0.text + ", " + value } ?? value)
        }
        let body: JSONValue
        if response.body.isEmpty {
            body = .null
        } else {
            body = (try? JSONValue(json: response.body)) ?? .string(String(decoding: response.body, as: UTF8.self))
        }
        self = .http(status: .number(JSONNumber(response.statusCode)), headers: .object(headers), body: body)
    }
}
