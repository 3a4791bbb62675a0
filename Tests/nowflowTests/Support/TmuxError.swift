/// Why a ``TmuxSession`` could not start, run a command, or see what it waited for.
struct TmuxError: Error, CustomStringConvertible {
    let description: String
}
