import Foundation
import LocalInstance
import NowData

@testable import NowFlow

/// A REPL session on a fresh in-memory local instance, driven in process: lines in, the whole transcript out.
final class ReplHarness: Sendable {
    let instance: LocalInstance
    let session: ReplSession
    /// The session's transport to the instance, which tells when its requests arrive.
    let requests: ArrivingTransport
    /// A temporary folder for the job file and saved files.
    let directory: URL

    /// A session, on the job of `jobText` (written to a temporary file) when one is given.
    init(job jobText: String? = nil, width: Int = 100) throws {
        instance = try LocalInstance(options: LocalInstance.Options(log: { _ in }))
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("repl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var job: ReplJob?
        if let jobText {
            let url = directory.appendingPathComponent("job.yaml")
            try jobText.write(to: url, atomically: true, encoding: .utf8)
            job = try ReplJob.load(path: url.path)
        }
        let requests = ArrivingTransport(instance.transport)
        self.requests = requests
        var options = RunOptions.inProcess(on: instance)
        options.transport = requests
        session = try ReplSession(options: options, job: job, width: { width })
    }

    deinit {
        instance.close()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Each line after its prompt, then the answer, as the binary prints a scripted session.
    func transcript(_ lines: [String]) async -> String {
        var text = ""
        for line in lines {
            text += await session.prompt + line + "\n"
            let reply = await session.handle(line)
            if !reply.text.isEmpty { text += reply.text + "\n" }
        }
        return text
    }

    /// The text with the temporary folder left out of paths, and 32-hex sys_ids, which change from run to run,
    /// as `<sys_id>`.
    func normalized(_ text: String) -> String {
        text.replacingOccurrences(of: directory.path + "/", with: "")
            .replacingOccurrences(of: #"[0-9a-f]{32}"#, with: "<sys_id>", options: .regularExpression)
    }
}
