#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `text` to standard error, unbuffered.
func printError(_ text: String) {
    fputs(text.hasSuffix("\n") ? text : text + "\n", stderr)
}
