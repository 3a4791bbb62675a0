/// Writes `text` to standard error, unbuffered (nothing once it was found closed, see ``OutputStreams``).
func printError(_ text: String) {
    OutputStreams.write(text.hasSuffix("\n") ? text : text + "\n", to: .error)
}

/// Writes `text` and a new line to standard output, flushed: a result of `nowflow run` (on stderr once stdout was
/// found closed, see ``OutputStreams``).
func printResult(_ text: String) {
    OutputStreams.write(text + "\n", to: .output)
}
