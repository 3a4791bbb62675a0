/// A refusal from the API behind a web page: its status and the platform's `error.message` and `error.detail`.
struct WebAPIError: Error, Sendable {
    var status: Int
    var message: String
    var detail: String?

    /// `message: detail`, as a page shows it.
    var text: String {
        guard let detail, !detail.isEmpty else { return message }
        return message + ": " + detail
    }
}
