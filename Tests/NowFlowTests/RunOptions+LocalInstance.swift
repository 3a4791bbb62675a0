import Foundation
import LocalInstance

@testable import NowFlow

extension RunOptions {
    /// Options for steps on `instance`, in process, as its administrator, without retries or environment.
    static func inProcess(on instance: LocalInstance) -> RunOptions {
        RunOptions(
            instanceURL: URL(string: "http://127.0.0.1")!, transport: instance.transport,
            authentication: .basic(user: "admin", password: "admin"), environment: [:], retryPolicy: .none)
    }
}
