/// The short forms of the attachment steps and `aggregate`:
///
/// ```
/// attach incident 5c1d... ./notes.txt          attach: { table: incident, sys_id: 5c1d..., file: ./notes.txt }
/// download 9f2e... ./out.txt overwrite=true    download: { attachment: 9f2e..., to: ./out.txt, overwrite: true }
/// attachments incident 5c1d...                 attachments: { table: incident, sys_id: 5c1d... }
/// aggregate incident group_by=priority active=true
///                                              aggregate: { table: incident, group_by: priority, where: { active: true } }
/// ```
extension ShortForm {
    /// The `name=value` parameters of each kind: all but its words (``StepSchema/words``) and its conditions;
    /// other names are conditions (`aggregate`) or errors.
    static let attachmentParameters: [String: [String]] = Dictionary(
        uniqueKeysWithValues: JobSchema.kinds.filter { $0.group == .attachments }.map { kind in
            let written = kind.words + (kind.parameters?.names(withRoles: [.conditions]) ?? [])
            return (kind.name, kind.parameterNames.filter { !written.contains($0) })
        })

    /// The step mapping of a short-form line of one of the kinds of the ``StepSchema/Group/attachments`` group.
    static func attachmentStep(_ kind: String, _ first: Word, _ rest: [Word], options leading: [YAMLNode.Pair])
        throws(ReplInputError) -> YAMLNode
    {
        let keys = JobSchema.kind(kind)?.words ?? []
        let positional = rest.filter { $0.name == nil }
        let usage = "\(kind) " + keys.map { $0.uppercased() }.joined(separator: " ")
        guard positional.count >= keys.count else {
            throw ReplInputError(
                message: "\(kind) needs \(keys.alternatives.replacingOccurrences(of: " or ", with: " and ")), as in: \(usage)",
                column: first.valueColumn)
        }
        if positional.count > keys.count {
            let extra = positional[keys.count]
            throw ReplInputError(
                message: "unexpected '\(extra.value)': \(kind) takes \(keys.joined(separator: ", ")), then name=value words",
                column: extra.valueColumn)
        }
        var options = leading
        // Paths and sys_ids are texts, whatever they look like.
        var parameters = zip(keys, positional).map { key, word in
            YAMLNode.pair(key, word.valueColumn, YAMLNode.scalar(word.value, column: word.valueColumn, quoted: true))
        }
        let names = attachmentParameters[kind] ?? []
        var conditions: [YAMLNode.Pair] = []
        for word in rest {
            guard let name = word.name else { continue }
            let value = YAMLNode.pair(name, word.nameColumn, YAMLNode.scalar(word.value, column: word.valueColumn, quoted: word.quoted))
            if stepOptions.contains(name) {
                options.append(value)
            } else if names.contains(name) || kind != "aggregate" {
                parameters.append(value)
            } else {
                conditions.append(value)
            }
        }
        if let firstCondition = conditions.first {
            let column = firstCondition.key.mark.column
            parameters.append(YAMLNode.pair("where", column, YAMLNode.mapping(conditions, column: column)))
        }
        return YAMLNode.mapping(
            options + [YAMLNode.pair(kind, first.valueColumn, YAMLNode.mapping(parameters, column: first.valueColumn))], column: 1)
    }
}
