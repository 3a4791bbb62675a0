import NowData
import Synchronization

/// A transport that notes the page of what changed that the instance names on its answers
/// (``NowData/NowHTTPResponse/changesPageHeader``, as a served local instance does), for the run's
/// ``RunResult/changesPage``.
final class ChangesPageNote: NowTransport {
    private let base: any NowTransport
    private let noted = Mutex<String?>(nil)

    init(wrapping base: any NowTransport) {
        self.base = base
    }

    func send(_ request: NowHTTPRequest) async throws -> NowHTTPResponse {
        let response = try await base.send(request)
        if let page = response.changesPage { noted.withLock { $0 = page } }
        return response
    }

    /// The path of the page the instance named last (`/changes.do`); nil when no answer named one.
    var page: String? { noted.withLock { $0 } }
}
