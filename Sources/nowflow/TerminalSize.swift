import Foundation

#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The size of the terminal results are drawn for.
enum TerminalSize {
    /// The width of standard output's terminal, else `$COLUMNS`, else 80.
    static func columns() -> Int {
        var size = winsize()
        if isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 {
            return columns
        }
        return 80
    }

    /// The height of standard output's terminal, else `$LINES`, else 24.
    static func rows() -> Int {
        var size = winsize()
        if isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 {
            return Int(size.ws_row)
        }
        if let lines = ProcessInfo.processInfo.environment["LINES"].flatMap(Int.init), lines > 0 {
            return lines
        }
        return 24
    }
}
