import Foundation
import NowData
import NowFlow

#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `nowflow repl [JOB.yaml] [--instance local|URL|PROFILE] [--keep-going]`: steps and commands typed one at a time, on the
/// instance `nowflow run` would use (or `NOW_INSTANCE`), with line editing, history and completion on a terminal.
/// A URL takes its credentials from the environment as `nowflow run` does (``EnvironmentCredentials``, through
/// ``InstanceTarget``), the password asked on the terminal when only the user is set.
///
/// Exit status: 0 at the end of the session, 1 usage error, 2 invalid job file, 3 the instance or the job's
/// variables cannot be used; a session read from a pipe stops at the first line it rejects (not a step or a
/// command it can read) with 2, saying the line's number (`--keep-going` runs the rest and does not count it), and
/// otherwise ends with 3 when one of its steps failed and 4 when an assertion failed (after running every line), as
/// `nowflow run` does.
enum ReplCommand {
    /// The command's argument and options, for the parser, the synopsis and `--help`.
    static let declaration = CommandDeclaration(
        name: "repl",
        abstract: "Runs steps one at a time, interactively, with the job file's variables and steps when one is given.",
        arguments: .init(name: "JOB.yaml", noun: "job file", count: .atMostOne),
        options: [
            .value("instance", "local|URL|PROFILE", "the instance (default: the job's, else local)"),
            .flag("keep-going", "from a pipe, run the lines after a rejected one (and exit 0 for it)"),
        ])

    static func main(_ arguments: [String]) -> Int32 {
        let parsed: CommandArguments
        do {
            parsed = try declaration.parse(arguments)
        } catch {
            return declaration.fail(error)
        }
        var job: ReplJob?
        if let path = parsed.positional.first {
            do {
                job = try ReplJob.load(path: path)
            } catch {
                for diagnostic in error.diagnostics { printError(diagnostic.description) }
                return 2
            }
        }
        let environment = ProcessInfo.processInfo.environment
        let instanceName = parsed.value("instance") ?? job?.job.instance ?? EnvironmentCredentials.instance(in: environment)
        let target: InstanceTarget
        do {
            target = try InstanceTarget.resolve(instanceName ?? "local", environment: environment, verbose: false)
        } catch {
            printError("nowflow repl: \(error)")
            return error.isUsage ? 1 : 3
        }
        defer { target.close() }
        // A long query shows its progress on stderr (a bar on a terminal, else a line every few seconds); the
        // step's outcome is the REPL's answer.
        let progress = ProgressPrinter(color: false, bar: isatty(STDERR_FILENO) == 1)
        let options = RunOptions(
            instanceURL: target.url, transport: target.runTransport, authentication: target.authentication,
            secrets: target.secrets, environment: environment,
            onEvent: { event in
                switch event {
                case .paging, .iterating: progress.handle(event)
                case .stepFinished: progress.clearProgress()
                case .stepStarted, .request: break
                }
            })
        let session: ReplSession
        do {
            session = try ReplSession(
                options: options, job: job, instanceName: instanceName,
                unauthorizedHint: EnvironmentCredentials.unauthorizedHint(
                    credentialsGiven: target.hasCredentials || job?.job.hasAuthentication == true),
                width: TerminalSize.columns)
        } catch {
            printError("nowflow repl: \(error)")
            return 3
        }
        let ended = run(session, keepGoing: parsed.flag("keep-going"))
        guard !ended.interactive else { return 0 }
        if ended.stoppedAtRejectedLine { return 2 }
        // A scripted session fails as `nowflow run` would: 4 when an assertion failed, 3 when a step did.
        let (stepFailed, assertionFailed) = waitFor { await (session.stepFailed, session.assertionFailed) }
        return assertionFailed ? 4 : stepFailed ? 3 : 0
    }

    /// How the read-run-show loop ended.
    private struct Ending {
        /// The lines came from a terminal.
        var interactive: Bool
        /// A piped session stopped at a line it rejected.
        var stoppedAtRejectedLine = false
    }

    /// The read-run-show loop, until `:quit`, the end of input or, from a pipe without `keepGoing`, a rejected line
    /// (said on standard error with its number); then the job's `finally` if it is due.
    private static func run(_ session: ReplSession, keepGoing: Bool) -> Ending {
        unblockTerminalSignals()
        let directory = (try? NowflowDirectory.create()) ?? NowflowDirectory.url
        let editor = LineEditor(
            historyPath: directory.appendingPathComponent("history").path,
            completer: { session.completions(for: $0) },
            ending: { session.completionEnding(of: $0, prefix: $1) }, notice: { session.completionNotice() })
        if editor.interactive { session.startCompletionLoads() }
        let interrupts = InterruptWatcher()
        print(waitFor { await session.banner })
        var ending = Ending(interactive: editor.interactive)
        var lineNumber = 0
        // A step continued over lines (an open bracket, a final `\`), under a prompt of dots.
        var pending = ContinuedLine()
        while true {
            let sessionPrompt = waitFor { await session.prompt }
            let prompt = pending.isEmpty ? sessionPrompt : String(repeating: ".", count: max(sessionPrompt.count - 2, 3)) + "> "
            let before = InterruptWatcher.received.load(ordering: .relaxed)
            guard let read = editor.readLine(prompt: prompt) else {
                if InterruptWatcher.received.load(ordering: .relaxed) != before {
                    // Ctrl-C at the prompt drops the line, and the lines it continued.
                    pending = ContinuedLine()
                    print()
                    continue
                }
                if editor.interactive { print() }
                if !pending.isEmpty {
                    let message = "error: the input ended inside a step continued over lines (an open bracket or a final \\); it was not run"
                    print(message)
                    if !editor.interactive, !keepGoing {
                        printError("nowflow repl: line \(lineNumber): \(message)")
                        ending.stoppedAtRejectedLine = true
                    }
                }
                break
            }
            lineNumber += 1
            if !editor.interactive { print(prompt + read) }
            if pending.add(read) { continue }
            let line = pending.text
            pending = ContinuedLine()
            // A Ctrl-C after the line was read (a Ctrl-C while it was typed ends readline without a line) is for
            // the step, even if it comes before the step starts.
            var reply = interrupts.run(since: before) { await session.handle(line) }
            if let confirmation = reply.confirmation, editor.interactive {
                // On a terminal the question is asked; in a pipe the reply's text is the refusal.
                let confirmed = editor.confirm(confirmation.question)
                reply = confirmed ? interrupts.run(since: before) { await session.handle(confirmation.line) } : ReplReply.notDone
            }
            // After the terminal's ^C, the message starts on a line of its own.
            if InterruptWatcher.received.load(ordering: .relaxed) != before { print() }
            if !reply.text.isEmpty { Pager.show(reply.text) }
            if reply.quit { return ending }
            if reply.rejected, !editor.interactive, !keepGoing {
                // A script that goes on after a line it got wrong would run its later lines on a wrong footing.
                fflush(nil)
                printError("nowflow repl: line \(lineNumber): \(reply.text)")
                printError("nowflow repl: stopped at line \(lineNumber), which was rejected (--keep-going runs the lines after it)")
                ending.stoppedAtRejectedLine = true
                break
            }
        }
        let last = interrupts.run(since: InterruptWatcher.received.load(ordering: .relaxed)) { await session.finish() }
        if !last.isEmpty { print(last) }
        return ending
    }

    /// Lets the terminal's signals through: a process started with them blocked (as by some test runners and
    /// process managers) would otherwise ignore Ctrl-C, a closed terminal and `kill`.
    private static func unblockTerminalSignals() {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGHUP, SIGTERM, SIGQUIT, SIGTSTP, SIGCONT, SIGWINCH] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }
}
