import Foundation
import NowData

/// The `http` step: one request through NowData's `NowAPIService`, over the job's service (its instance,
/// credentials, retries and shared pause after a 429), and its `expect`.
extension JobExecution {
    func perform(_ step: HTTPStep, label: String, scope: Scope) async throws(StepFailure) -> (StepResult, String) {
        let method = try step.method.map { template throws(StepFailure) in try text(template, "http.method", scope: scope) }?
            .uppercased() ?? "GET"
        guard HTTPMethod.allCases.contains(where: { $0.name == method }) else {
            throw StepFailure("http.method: '\(method)' is not an HTTP method")
        }
        var (path, queryItems) = HTTPStep.split(try text(step.path, "http.path", scope: scope))
        guard path.hasPrefix("/") else { throw StepFailure("http.path: '\(path)' does not start with '/'") }
        for item in step.query {
            queryItems.append(URLQueryItem(name: item.name, value: try scalarText(item, "http.query", scope: scope)))
        }
        var headers = HTTPHeaders()
        for header in step.headers {
            headers.add(name: header.name, value: try scalarText(header, "http.headers", scope: scope))
        }
        var body: Data?
        if let template = step.body {
            let value: JSONValue
            do {
                value = try template.evaluate(in: scope)
            } catch {
                throw StepFailure("http.body: \(error.message)")
            }
            if case .string(let text) = value { body = Data(text.utf8) } else { body = value.jsonData() }
        }
        let request = NowHTTPRequest(method: method, path: path, queryItems: queryItems, headers: headers, body: body)
        if dryRun != nil, method != "GET", method != "HEAD" {
            let write = PlannedWrite(step: label, request: request, before: nil, masker: masker)
            planned.append(write)
            return (.http(status: .null, headers: .object([:]), body: .null), "would send \(method) \(path) (dry run)")
        }
        let api = NowAPIService(sharing: service)
        let response = try await calling {
            try await api.response(
                method: method, path: path, queryItems: queryItems, headers: headers, body: body)
        }
        let result = StepResult(answer: response)
        try check(step.expect, result.json, request: "\(method) \(path)", scope: scope)
        return (result, "\(method) \(path): \(response.statusCode), \(response.body.count) bytes")
    }

    /// Fails the step, as an assertion on the instance's answer, when `expect` does not hold: the status (any 2xx
    /// without `status:`), each header containing its text, each value at its path of the body.
    private func check(_ expect: HTTPExpectation?, _ result: JSONValue, request: String, scope: Scope)
        throws(StepFailure)
    {
        let status = Int(result["status"]?.text ?? "") ?? 0
        let statuses = expect?.statuses ?? []
        guard statuses.isEmpty ? (200..<300).contains(status) : statuses.contains(status) else {
            let wanted = statuses.isEmpty ? "a 2xx status" : "status " + statuses.map(String.init).joined(separator: " or ")
            var message = "\(request): expected \(wanted), got \(status)"
            if let error = result["body"]?["error"]?["message"]?.string { message += ": \(error)" }
            throw StepFailure(message, isAssertion: !statuses.isEmpty, fromInstance: true)
        }
        for header in expect?.headers ?? [] {
            let wanted = try scalarText(header, "http.expect.headers", scope: scope)
            let found = result["headers"]?.object?.first { $0.key.lowercased() == header.name.lowercased() }?.value.text
            guard let found, found.contains(wanted) else {
                let got = found.map { "'\($0)'" } ?? "no \(header.name) header"
                throw StepFailure(
                    "\(request): expected header \(header.name) to contain '\(wanted)', got \(got)", isAssertion: true,
                    fromInstance: true)
            }
        }
        for check in expect?.json ?? [] {
            let wanted: JSONValue
            do {
                wanted = try check.value.evaluate(in: scope)
            } catch {
                throw StepFailure("http.expect.json.\(check.path): \(error.message)")
            }
            let body = result["body"] ?? .null
            let found = try? body.value(at: check.path)
            guard let found, found.looselyEquals(wanted) else {
                throw StepFailure(
                    "\(request): expected \(check.path) == \(wanted.brief) in the body, got \(found.map(\.brief) ?? "no value")",
                    isAssertion: true, fromInstance: true)
            }
        }
    }

    /// The text of a `query:` or `headers:` value.
    private func scalarText(_ item: NamedTemplate, _ what: String, scope: Scope) throws(StepFailure) -> String {
        let value: JSONValue
        do {
            value = try item.value.evaluate(in: scope)
        } catch {
            throw StepFailure("\(what).\(item.name): \(error.message)")
        }
        switch value {
        case .array, .object:
            throw StepFailure("\(what).\(item.name): \(item.value.sourceText) gives \(value.kindDescription), not a text")
        default:
            return value.text
        }
    }
}
