import NowData

extension NowAttachmentMetadata {
    /// The metadata as a job sees it (`steps.<id>.attachment`): the Attachment API's JSON, every value a string.
    func jobJSON() throws(StepFailure) -> JSONValue {
        do {
            return try JSONValue(json: try Coder.default.jsonEncoder.encode(self))
        } catch {
            throw StepFailure("cannot read the attachment's metadata: \(error)")
        }
    }
}
