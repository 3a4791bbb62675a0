@preconcurrency import Glibc

/// Writes `text` to standard error, unbuffered.
func printError(_ text: String) {
    fputs(text.hasSuffix("\n") ? text : text + "\n", stderr)
}
