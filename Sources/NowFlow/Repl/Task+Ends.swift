import Foundation

extension Task where Success == Void, Failure == Never {
    /// Blocks the calling thread until the task ends, for `seconds` at most; gives whether it ended (it goes on
    /// otherwise). For a caller outside Swift concurrency (the line editor's completion callback).
    func ends(within seconds: Double) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Task<Void, Never> {
            await self.value
            done.signal()
        }
        return done.wait(timeout: .now() + seconds) == .success
    }
}
