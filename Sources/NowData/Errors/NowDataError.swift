import Foundation

/// The error every NowData operation throws.
///
/// The cases are the ones the ServiceNow Mobile SDK names. Each carries enough context to act on:
/// a bad response keeps the status code with the server's `error.message` and `error.detail` and the
/// request's method and path (see ``HTTPStatusCode``); a decoding failure keeps its `DecodingError`
/// with the coding path. No case ever holds a credential.
///
/// ```swift
/// do {
///     try await service.deleteRecord(sysId: id, from: "incident")
/// } catch NowDataError.badResponse(statusCode: 404) {
///     print("already gone")
/// }
/// ```
public enum NowDataError: Error, Sendable {
    /// The access token provider failed.
    case accessToken(AccessTokenProviderError)
    /// An attachment failed validation.
    case attachmentValidation
    /// The instance answered with an unexpected status.
    case badResponse(statusCode: HTTPStatusCode)
    /// A Codable model could not be decoded from JSON.
    case cannotDecodeModel(DecodingError)
    /// A value the Table API sent as a string could not be converted to the model's type.
    case cannotDecodeProperty(type: Any.Type, from: String)
    /// A Codable model could not be encoded to JSON.
    case cannotEncodeModel(EncodingError)
    /// The instance's response could not be parsed into its expected format.
    case cannotParseResponse
    /// A URL could not be formed from the instance URL and the table name (an empty one); a table name or sys_id
    /// is otherwise percent-encoded into the path whatever it holds.
    case invalidURL
    /// An attachment's metadata header is missing.
    case missingAttachmentMetadata
    /// An expected service configuration is missing.
    case missingServiceConfiguration
    /// An operation that needs a sys_id was given none.
    case missingSysID
    /// The network layer failed: a connection error, a timeout or a cancellation.
    case network(NetworkServiceError)
}
