import Foundation
import NowData
import Testing

/// The HTTP transports the service is tested over: libcurl (the default) and URLSession.
enum HTTPClient: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case curl
    case urlSession

    var testDescription: String { rawValue }

    func transport(to url: URL, timeout: Duration) -> any NowTransport {
        switch self {
        case .curl: CurlTransport(instanceURL: url, timeout: timeout)
        case .urlSession: URLSessionTransport(instanceURL: url, timeout: timeout)
        }
    }
}
