import NowData

/// Reading an `http` step.
extension JobBuilder {
    /// `http: { method, path, query, headers, body, expect: { status, headers, json } }`.
    func http(_ node: YAMLNode) -> HTTPStep? {
        guard let pairs = mapping(node, "http") else { return nil }
        checkKeys(pairs, of: JobSchema.httpParameters)
        var method: Template?
        if let methodNode = value(pairs, "method"), let given = templateText(methodNode, "http.method") {
            if let name = given.literal, !HTTPMethod.allCases.map(\.name).contains(name.uppercased()) {
                error(
                    at: methodNode.mark,
                    "http.method must be one of \(HTTPMethod.allCases.map(\.name).alternatives), not '\(name)'")
            }
            method = given
        }
        let path = requiredTemplate(pairs, "path", in: "http", at: node.mark)
        if let pathNode = value(pairs, "path"), let literal = path?.literal, !literal.hasPrefix("/") {
            error(at: pathNode.mark, "http.path starts with '/', as in /api/now/stats/incident")
        }
        let query = value(pairs, "query").map { namedScalars($0, "http.query") } ?? []
        let headers = value(pairs, "headers").map { namedScalars($0, "http.headers") } ?? []
        let body = value(pairs, "body").flatMap(templateValue)
        let expect = value(pairs, "expect").flatMap(expectation)
        guard let path else { return nil }
        return HTTPStep(method: method, path: path, query: query, headers: headers, body: body, expect: expect)
    }

    private func expectation(_ node: YAMLNode) -> HTTPExpectation? {
        guard let pairs = mapping(node, "http.expect") else { return nil }
        checkKeys(pairs, of: JobSchema.httpExpect)
        var expectation = HTTPExpectation()
        if let statusNode = value(pairs, "status") {
            for item in statusNode.items ?? [statusNode] {
                guard let status = integer(item, "http.expect.status", minimum: 100) else { continue }
                if status > 599 {
                    error(at: item.mark, "http.expect.status must be an HTTP status (100-599), not \(status)")
                } else {
                    expectation.statuses.append(status)
                }
            }
        }
        expectation.headers = value(pairs, "headers").map { namedScalars($0, "http.expect.headers") } ?? []
        for check in value(pairs, "json").flatMap({ mapping($0, "http.expect.json") }) ?? [] {
            let path: DotPath
            do {
                path = try DotPath(check.name)
            } catch {
                self.error(at: check.key.mark, "http.expect.json: \(error); write names between dots, as in result.0.name")
                continue
            }
            if let value = templateValue(check.value) {
                expectation.json.append(HTTPExpectation.JSONCheck(path: path, value: value))
            }
        }
        return expectation
    }

    /// The `name: value` pairs of `query:` or `headers:`, whose values are texts, numbers or booleans.
    private func namedScalars(_ node: YAMLNode, _ what: String) -> [NamedTemplate] {
        guard let pairs = mapping(node, what) else { return [] }
        var result: [NamedTemplate] = []
        for pair in pairs {
            guard pair.value.scalarText != nil else {
                error(at: pair.value.mark, "\(what).\(pair.name) must be a value, not \(pair.value.kindDescription)")
                continue
            }
            if let value = templateValue(pair.value) { result.append(NamedTemplate(name: pair.name, value: value)) }
        }
        return result
    }
}
