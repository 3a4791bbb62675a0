import Foundation
import NowData

/// The steps that work on attachments, through NowData's `NowAttachmentService`: attach, download, attachments.
///
/// A dry run takes the same path as a real one: the upload goes to the ``DryRunTransport``, which keeps it and
/// answers with a stand-in attachment (its size and hash those of the bytes), and a download reads as a real one
/// does but writes no file.
extension JobExecution {
    func perform(_ step: AttachStep, label: String, scope: Scope) async throws(StepFailure) -> (StepResult, String) {
        let table = try text(step.table, "table", scope: scope)
        let sysID = try text(step.sysID, "sys_id", scope: scope)
        let data: Data
        var name: String
        switch step.source {
        case .file(let template):
            let path = try text(template, "file", scope: scope)
            let url = resolvedPath(path)
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw StepFailure("file: cannot read '\(path)' (\(url.path)): \((error as NSError).fileProblem)")
            }
            name = url.lastPathComponent
        case .content(let template):
            let value: JSONValue
            do {
                value = try template.evaluate(in: scope)
            } catch {
                throw StepFailure("content: \(error.message)")
            }
            data = Data(value.text.utf8)
            name = ""
        }
        if let template = step.name { name = try text(template, "name", scope: scope) }
        let content = AttachmentContent(name: name, data: data)
        let contentType = try step.contentType.map { template throws(StepFailure) in
            try text(template, "content_type", scope: scope)
        } ?? content.contentType
        let configuration = NowAttachmentUploadConfiguration(
            tableName: table, recordSysId: sysID, fileName: name, contentType: contentType, encryptionContext: nil)
        let metadata = try await calling {
            try await attachmentService.upload(data: data, configuration: configuration) { _, _, _ in }
        }
        let described = "\(name) (\(content.size), SHA-256 \(metadata.hash ?? content.sha256))"
        let result: StepResult = .attachments(
            .object(["attachment": try metadata.jobJSON(), "sys_id": .string(metadata.sysId)]))
        guard dryRun == nil else { return (result, "would attach \(described) to \(table) \(sysID) (dry run)") }
        touched.append(TouchedRecord(action: .created, table: "sys_attachment", sysID: metadata.sysId, step: label))
        numbers[metadata.sysId] = name
        attachmentsByRecord[table + "/" + sysID, default: []].append(metadata.sysId)
        return (result, "attached \(described) to \(table) \(sysID)")
    }

    func perform(_ step: DownloadStep, scope: Scope) async throws(StepFailure) -> (StepResult, String) {
        let path = try text(step.to, "to", scope: scope)
        let url = resolvedPath(path)
        if !step.overwrite, FileManager.default.fileExists(atPath: url.path) {
            throw StepFailure("to: '\(path)' exists (\(url.path)); give overwrite: true to replace it")
        }
        let sysID: String
        switch step.source {
        case .attachment(let template):
            sysID = try text(template, "attachment", scope: scope)
        case .record(let tableTemplate, let recordTemplate, let nameTemplate):
            let table = try text(tableTemplate, "table", scope: scope)
            let record = try text(recordTemplate, "sys_id", scope: scope)
            let name = try text(nameTemplate, "file_name", scope: scope)
            let query = try attachmentQuery(table, record, fileName: name, newestFirst: true)
            let found = try await calling {
                try await attachmentService.attachmentMetadata(filter: Filter(query: query), limit: 1)
            }
            guard let newest = found.first else {
                throw StepFailure("\(table) \(record) has no attachment named '\(name)'", fromInstance: true)
            }
            sysID = newest.sysId
        }
        let attachment = try await calling { try await attachmentService.attachment(for: sysID) }
        let metadata = try attachment.metadata.jobJSON()
        let result: StepResult = .attachments(
            .object(["attachment": metadata, "sys_id": .string(sysID), "path": .string(url.path)]))
        let content = AttachmentContent(name: attachment.metadata.fileName, data: attachment.data)
        let described = "\(content.name) (\(content.size), SHA-256 verified)"
        guard dryRun == nil else { return (result, "read \(described); would write \(path) (dry run)") }
        do {
            try attachment.data.write(to: url, options: .atomic)
        } catch {
            throw StepFailure("to: cannot write '\(path)' (\(url.path)): \((error as NSError).fileProblem)")
        }
        return (result, "downloaded \(described) to \(path)")
    }

    func perform(_ step: AttachmentsStep, scope: Scope) async throws(StepFailure) -> (StepResult, String) {
        let table = try text(step.table, "table", scope: scope)
        let sysID = try text(step.sysID, "sys_id", scope: scope)
        let query = try attachmentQuery(table, sysID, fileName: nil, newestFirst: false)
        let paginator = attachmentService.attachmentMetadataPaginator(
            filter: Filter(query: query), limit: QueryStep.defaultPageSize)
        var attachments: [JSONValue] = []
        try await calling {
            while let page = try await paginator.next(), !page.isEmpty {
                for metadata in page { attachments.append(dates.incoming(try metadata.jobJSON())) }
                if page.count < QueryStep.defaultPageSize { break }
            }
        }
        let count = attachments.count
        return (
            .attachments(.object(["attachments": .array(attachments), "count": .number(JSONNumber(count))])),
            "\(count) attachment\(count == 1 ? "" : "s") on \(table) \(sysID)"
        )
    }

    // MARK: - Helpers

    /// Notes that the attachments the run attached to `table` `sysID` went with it (the instance deletes a
    /// record's attachments with it), so that the summary does not list them as left behind.
    func noteAttachmentsDeleted(with table: String, _ sysID: String, label: String) {
        for attachment in attachmentsByRecord.removeValue(forKey: table + "/" + sysID) ?? []
        where !touched.contains(where: { $0.action == .deleted && $0.sysID == attachment }) {
            touched.append(TouchedRecord(action: .deleted, table: "sys_attachment", sysID: attachment, step: label))
        }
    }

    /// `table_name=T^table_sys_id=ID[^file_name=NAME]` sorted by `sys_created_on`, each value checked as a
    /// `where:` value is.
    private func attachmentQuery(
        _ table: String, _ sysID: String, fileName: String?, newestFirst: Bool
    ) throws(StepFailure) -> String {
        var values: [(field: String, value: String, source: String)] = [
            ("table_name", table, "table"), ("table_sys_id", sysID, "sys_id"),
        ]
        if let fileName { values.append(("file_name", fileName, "file_name")) }
        let clause = WhereClause(
            conditions: values.map {
                WhereCondition(field: $0.field, op: .equals, value: .value(.string($0.value)), mark: YAMLMark(line: 0, column: 0))
            })
        let sources = Dictionary(uniqueKeysWithValues: values.map { ($0.field, $0.source) })
        do throws(QueryBuildError) {
            let selection = try EncodedQueryBuilder.query(clause) { condition throws(QueryBuildError) in
                (condition.value.map { if case .value(let value) = $0 { value } else { .null } } ?? .null,
                    sources[condition.field] ?? condition.field)
            }
            guard case .query(var query) = selection else { throw QueryBuildError(message: "no attachment can match") }
            query.ordering = [EncodedQuery.Ordering(field: "sys_created_on", descending: newestFirst)]
            return query.text
        } catch {
            throw StepFailure(error.message)
        }
    }

    /// A path of the job file: absolute as it is, relative from ``baseDirectory``; `~/` is the home directory.
    func resolvedPath(_ path: String) -> URL {
        let expanded = NSString(string: path).expandingTildeInPath
        return URL(fileURLWithPath: expanded, relativeTo: baseDirectory).standardizedFileURL
    }
}
