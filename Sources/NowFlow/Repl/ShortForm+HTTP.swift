/// The short form of an `http` step: `http METHOD PATH [name=value]...`, the words being query parameters (or the
/// step's options).
extension ShortForm {
    static func httpStep(_ first: Word, _ rest: [Word], options leading: [YAMLNode.Pair]) throws(ReplInputError)
        -> YAMLNode
    {
        let positional = rest.filter { $0.name == nil }
        guard positional.count >= 2 else {
            throw ReplInputError(
                message: "http needs a method and a path, as in: http GET /api/now/stats/incident sysparm_count=true",
                column: first.valueColumn)
        }
        if positional.count > 2 {
            let extra = positional[2]
            throw ReplInputError(
                message: "unexpected '\(extra.value)': http takes a method and a path, then name=value words",
                column: extra.valueColumn)
        }
        let (method, path) = (positional[0], positional[1])
        var options = leading
        var parameters = [
            YAMLNode.pair("method", method.valueColumn, YAMLNode.scalar(method.value, column: method.valueColumn, quoted: method.quoted)),
            YAMLNode.pair("path", path.valueColumn, YAMLNode.scalar(path.value, column: path.valueColumn, quoted: path.quoted)),
        ]
        var query: [YAMLNode.Pair] = []
        for word in rest {
            guard let name = word.name else { continue }
            let value = YAMLNode.pair(name, word.nameColumn, YAMLNode.scalar(word.value, column: word.valueColumn, quoted: word.quoted))
            if stepOptions.contains(name) { options.append(value) } else { query.append(value) }
        }
        if let firstQuery = query.first {
            parameters.append(YAMLNode.pair("query", firstQuery.key.mark.column, YAMLNode.mapping(query, column: firstQuery.key.mark.column)))
        }
        return YAMLNode.mapping(options + [YAMLNode.pair("http", first.valueColumn, YAMLNode.mapping(parameters, column: first.valueColumn))], column: 1)
    }
}
