@preconcurrency import CEditLine
import Foundation
import NowFlow

#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the REPL's lines: through libedit when standard input is a terminal (cursor movement, emacs keys,
/// history kept in a file across sessions, tab completion), plain lines otherwise, so that sessions can be
/// scripted.
final class LineEditor {
    /// Whether lines come from libedit (standard input is a terminal).
    let interactive: Bool
    private let historyPath: String

    /// The completer libedit's C callback calls: the line up to the cursor gives the words for the word there.
    nonisolated(unsafe) private static var completer: (@Sendable (String) -> [String])?
    /// What follows the only completion (the match, the line up to the cursor).
    nonisolated(unsafe) private static var ending: (@Sendable (String, String) -> String)?
    /// What the completer has to say after a completion, shown on a line of its own above the prompt.
    nonisolated(unsafe) private static var notice: (@Sendable () -> String?)?
    /// The words of the completion in progress (libedit asks for them one at a time).
    nonisolated(unsafe) private static var matches: [String] = []

    /// The most lines the history keeps.
    static let historySize: Int32 = 1000

    init(
        historyPath: String, completer: @escaping @Sendable (String) -> [String],
        ending: @escaping @Sendable (String, String) -> String, notice: @escaping @Sendable () -> String?
    ) {
        interactive = isatty(STDIN_FILENO) == 1
        self.historyPath = historyPath
        guard interactive else { return }
        Self.completer = completer
        Self.ending = ending
        Self.notice = notice
        using_history()
        stifle_history(Self.historySize)
        _ = read_history(historyPath)
        rl_basic_word_break_characters = UnsafePointer(strdup(ReplCompleter.breakCharacters))
        rl_completer_word_break_characters = strdup(ReplCompleter.breakCharacters)
        // libedit quotes a completion as a file name (`limit=` becomes `limit\=`) unless an attempted-completion
        // function gives the matches: this one gives the completer's words as they are, and file names only where
        // a command takes a path (`:save`).
        rl_attempted_completion_function = { text, _, _ in
            rl_attempted_completion_over = 1
            let line = rl_line_buffer.map { String(cString: $0) } ?? ""
            let prefix = String(decoding: Array(line.utf8).prefix(Int(rl_point)), as: UTF8.self)
            guard let text else { return nil }
            if ReplCompleter.completesPath(prefix) {
                rl_completion_append_character = 32
                return rl_completion_matches(text, rl_filename_completion_function)
            }
            return rl_completion_matches(text, rl_completion_entry_function)
        }
        rl_completion_entry_function = { _, state in
            if state == 0 {
                let cursor = Int(rl_point)
                let line = rl_line_buffer.map { String(cString: $0) } ?? ""
                let prefix = String(decoding: Array(line.utf8).prefix(cursor), as: UTF8.self)
                LineEditor.matches = LineEditor.completer?(prefix) ?? []
                let ending = LineEditor.matches.count == 1 ? LineEditor.ending?(LineEditor.matches[0], prefix) ?? " " : " "
                rl_completion_append_character = Int32(ending.utf8.first ?? 0)
                if let notice = LineEditor.notice?() {
                    print("\n" + notice)
                    fflush(nil)
                    rl_forced_update_display()
                }
            }
            let index = Int(state)
            return index < LineEditor.matches.count ? strdup(LineEditor.matches[index]) : nil
        }
    }

    /// Asks a yes-or-no question on the terminal (the answer is not kept in the history); true for `y` or `yes`.
    func confirm(_ question: String) -> Bool {
        guard interactive, let pointer = readline(question) else { return false }
        defer { free(pointer) }
        let answer = String(cString: pointer).trimmingCharacters(in: .whitespaces).lowercased()
        return answer == "y" || answer == "yes"
    }

    /// The next line without its line break; nil at the end of input (Ctrl-D).
    func readLine(prompt: String) -> String? {
        guard interactive else { return Swift.readLine() }
        guard let pointer = readline(prompt) else { return nil }
        defer { free(pointer) }
        let line = String(cString: pointer)
        if !line.trimmingCharacters(in: .whitespaces).isEmpty {
            add_history(pointer)
            _ = write_history(historyPath)
            // Typed lines may hold values a person would not show: the history is for its owner only.
            chmod(historyPath, 0o600)
        }
        return line
    }
}
