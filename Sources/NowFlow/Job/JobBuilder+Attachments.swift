/// Reading the attachment steps (`attach`, `download`, `attachments`) and `aggregate`.
extension JobBuilder {
    /// The step of a kind of the ``StepSchema/Group/attachments`` group, or nil after recording its problems.
    func attachmentStepKind(_ pair: YAMLNode.Pair) -> StepKind? {
        let node = pair.value
        guard let pairs = mapping(node, pair.name) else { return nil }
        if let parameters = JobSchema.kind(pair.name)?.parameters { checkKeys(pairs, of: parameters) }
        switch pair.name {
        case "attach":
            let table = tableTemplate(pairs, in: "attach", at: node.mark)
            let sysID = requiredTemplate(pairs, "sys_id", in: "attach", at: node.mark)
            let source = attachSource(pairs, at: node.mark)
            let name = value(pairs, "name").flatMap { templateText($0, "attach.name") }
            let contentType = value(pairs, "content_type").flatMap { templateText($0, "attach.content_type") }
            if case .content? = source, value(pairs, "name") == nil {
                error(at: node.mark, "attach with content: needs name: (the attachment's file name)")
                return nil
            }
            guard let table, let sysID, let source else { return nil }
            return .attach(AttachStep(table: table, sysID: sysID, source: source, name: name, contentType: contentType))
        case "download":
            let source = downloadSource(pairs, at: node.mark)
            let to = requiredTemplate(pairs, "to", in: "download", at: node.mark)
            let overwrite = value(pairs, "overwrite").flatMap { boolean($0, "download.overwrite") } ?? false
            guard let source, let to else { return nil }
            return .download(DownloadStep(source: source, to: to, overwrite: overwrite))
        case "attachments":
            let table = tableTemplate(pairs, in: "attachments", at: node.mark)
            let sysID = requiredTemplate(pairs, "sys_id", in: "attachments", at: node.mark)
            guard let table, let sysID else { return nil }
            return .attachments(AttachmentsStep(table: table, sysID: sysID))
        default:
            return aggregate(pairs, at: node.mark).map(StepKind.aggregate)
        }
    }

    /// `table:`, required, a table name when written literally.
    private func tableTemplate(_ pairs: [YAMLNode.Pair], in context: String, at mark: YAMLMark) -> Template? {
        let table = requiredTemplate(pairs, "table", in: context, at: mark)
        if let tableNode = value(pairs, "table"), let name = table?.literal, !NameUse.isTableName(name) {
            error(at: tableNode.mark, "'\(name)' is not a table name (lowercase letters, digits and '_')")
        }
        return table
    }

    /// `file:` or `content:`, exactly one.
    private func attachSource(_ pairs: [YAMLNode.Pair], at mark: YAMLMark) -> AttachStep.Source? {
        let fileNode = value(pairs, "file")
        let contentNode = value(pairs, "content")
        if fileNode != nil, let contentNode {
            error(at: contentNode.mark, "attach takes file: or content:, not both")
            return nil
        }
        if let fileNode { return templateText(fileNode, "attach.file").map(AttachStep.Source.file) }
        if let contentNode { return templateText(contentNode, "attach.content").map(AttachStep.Source.content) }
        error(at: mark, "attach needs file: (a path, relative to the job file) or content: (a text)")
        return nil
    }

    /// `attachment:`, or `table:`, `sys_id:` and `file_name:`.
    private func downloadSource(_ pairs: [YAMLNode.Pair], at mark: YAMLMark) -> DownloadStep.Source? {
        let byRecord = ["table", "sys_id", "file_name"].filter { value(pairs, $0) != nil }
        if let attachmentNode = value(pairs, "attachment") {
            if let first = byRecord.first, let node = value(pairs, first) {
                error(at: node.mark, "download takes attachment: or table:, sys_id: and file_name:, not both")
                return nil
            }
            return templateText(attachmentNode, "download.attachment").map(DownloadStep.Source.attachment)
        }
        guard !byRecord.isEmpty else {
            error(at: mark, "download needs attachment: (an attachment's sys_id), or table:, sys_id: and file_name:")
            return nil
        }
        let table = tableTemplate(pairs, in: "download", at: mark)
        let sysID = requiredTemplate(pairs, "sys_id", in: "download", at: mark)
        let fileName = requiredTemplate(pairs, "file_name", in: "download", at: mark)
        guard let table, let sysID, let fileName else { return nil }
        return .record(table: table, sysID: sysID, fileName: fileName)
    }

    private func aggregate(_ pairs: [YAMLNode.Pair], at mark: YAMLMark) -> AggregateStep? {
        let table = tableTemplate(pairs, in: "aggregate", at: mark)
        let filter = filter(pairs, in: "aggregate")
        let count = value(pairs, "count").flatMap { boolean($0, "aggregate.count") } ?? true
        func fields(_ key: String) -> [String] {
            guard let node = value(pairs, key), let names = names(node, "aggregate.\(key)") else { return [] }
            for name in names where !NameUse.isFieldName(name) {
                error(at: node.mark, "aggregate.\(key): '\(name)' is not a field name (letters, digits, '_' and '.')")
            }
            return names
        }
        let (sum, average, min, max, groupBy) = (
            fields("sum"), fields("avg"), fields("min"), fields("max"), fields("group_by")
        )
        let having = value(pairs, "having").flatMap { templateText($0, "aggregate.having") }
        let orderBy = value(pairs, "order_by").flatMap { templateText($0, "aggregate.order_by") }
        let displayValue = value(pairs, "display_value").flatMap { boolean($0, "aggregate.display_value") } ?? false
        if !count, [sum, average, min, max].allSatisfy(\.isEmpty) {
            error(at: mark, "aggregate with count: false needs sum:, avg:, min: or max: (a list of fields)")
            return nil
        }
        guard let table else { return nil }
        return AggregateStep(
            table: table, filter: filter, count: count, sum: sum, average: average, min: min, max: max,
            groupBy: groupBy, having: having, orderBy: orderBy, displayValue: displayValue)
    }
}
