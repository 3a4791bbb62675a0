import Foundation

extension NowDataError: CustomStringConvertible, LocalizedError {
    /// What went wrong and where, in one line; never a credential.
    ///
    /// `bad response 404 from GET /api/now/table/incident/abc: No Record found (Record doesn't exist or ACL
    /// restricts the record retrieval)`, `cannot decode model at result[3].priority: cannot decode Int from "high"`.
    public var description: String {
        switch self {
        case .accessToken(let error):
            "access token error: \(error)"
        case .attachmentValidation:
            "the attachment failed validation"
        case .badResponse(let statusCode):
            statusCode.responseDescription
        case .cannotDecodeModel(let error):
            ErrorText.decoding(error, failure: "cannot decode model")
        case .cannotDecodeProperty(let type, let string):
            "cannot decode \(type) from \"\(string)\""
        case .cannotEncodeModel(let error):
            ErrorText.encoding(error, failure: "cannot encode model")
        case .cannotParseResponse:
            "cannot parse the response: it is not the JSON the Table API sends"
        case .invalidURL:
            "invalid URL: the instance URL and table name do not form a valid URL (the table name is empty, or "
                + "the instance URL has no scheme or host, or is plain http:// for a host that is not loopback "
                + "without allowsInsecureHTTP)"
        case .missingAttachmentMetadata:
            "the attachment metadata header is missing"
        case .missingServiceConfiguration:
            "the service configuration is missing"
        case .missingSysID:
            "missing sys_id: the operation needs the sys_id of a record"
        case .network(let error):
            "network error: \(error)"
        }
    }

    public var errorDescription: String? { description }
}
