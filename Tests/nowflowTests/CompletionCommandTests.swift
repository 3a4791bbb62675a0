import Foundation
import Testing

/// `nowflow completion bash|zsh|fish`: the scripts, loaded in the real shells, complete commands, options, option
/// values and job files as the commands declare them.
@Suite struct CompletionCommandTests {
    /// A directory holding `a.yaml`, `b.txt` and `jobs/c.yaml`, and the script `nowflow completion shell` printed.
    private struct Workspace {
        var directory: URL
        var script: URL

        init(shell: String) throws {
            directory = try ToolInvocation.temporaryDirectory()
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent("jobs"), withIntermediateDirectories: true)
            for name in ["a.yaml", "b.txt", "jobs/c.yaml"] {
                try Data().write(to: directory.appendingPathComponent(name))
            }
            let result = try ToolInvocation.run(["completion", shell], in: directory)
            #expect(result.status == 0)
            #expect(result.stderr == "")
            script = directory.appendingPathComponent("nowflow.\(shell)")
            try Data(result.stdout.utf8).write(to: script)
        }

        /// Runs `shell arguments...` in the directory; its standard output, or the error output when it fails.
        func shell(_ executable: String, _ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.currentDirectoryURL = directory
            process.environment = ["HOME": directory.path, "PATH": "/usr/bin:/bin", "TERM": "dumb"]
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            let errorData = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                return "exit \(process.terminationStatus): " + String(decoding: errorData, as: UTF8.self)
            }
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// A shell this test needs (`scripts/test` installs them with `ensure-system-packages`).
    private func installed(_ path: String) -> Bool {
        let present = FileManager.default.isExecutableFile(atPath: path)
        #expect(present, "\(path) is not installed (scripts/ensure-system-packages zsh fish)")
        return present
    }

    @Test func bashCompletesCommandsOptionsValuesAndJobFiles() throws {
        let workspace = try Workspace(shell: "bash")
        defer { try? FileManager.default.removeItem(at: workspace.directory) }
        // Each line: the words of the command line (the last one being completed) -> what COMPREPLY holds.
        let lines = [
            "nowflow ''", "nowflow r", "nowflow run --dr", "nowflow run --output ''", "nowflow run --output = j",
            "nowflow run ''", "nowflow run jobs/", "nowflow run --vars-file b", "nowflow run --var ''",
            "nowflow validate --s", "nowflow repl --instance ''", "nowflow serve ''", "nowflow serve --fail-status 5",
            "nowflow serve --tls-c", "nowflow completion ''", "nowflow run --sh", "nowflow report ''",
            "nowflow report merge --r", "nowflow report merge --report ''", "nowflow report merge jobs/",
        ]
        let program = """
            source ./nowflow.bash
            complete -p nowflow
            show() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _nowflow
                local IFS=' '; echo "$* -> ${COMPREPLY[*]}"; }
            \(lines.map { "show \($0)" }.joined(separator: "\n"))
            """
        let output = try workspace.shell("/bin/bash", ["--norc", "--noprofile", "-c", program])
        #expect(
            output == """
                complete -F _nowflow nowflow
                nowflow  -> run validate repl serve report completion --help --version
                nowflow r -> run repl report
                nowflow run --dr -> --dry-run
                nowflow run --output  -> text json
                nowflow run --output = j -> json
                nowflow run  -> jobs a.yaml
                nowflow run jobs/ -> jobs/c.yaml
                nowflow run --vars-file b -> b.txt
                nowflow run --var  -> 
                nowflow validate --s -> --strict
                nowflow repl --instance  -> local
                nowflow serve  -> --host --port --db --schema --user --password --password-file --latency --fail-rate --fail-first --fail-status --retry-after --drop-rate --lost-response-rate --invalid-query-no-rows --oauth-client --oauth-client-file --api-key-file --attachment-max-size --header-timeout --login-failure-limit --lockout-time --allowed-host --tls --tls-name --tls-cert --tls-key --tls-port --tls-client-ca --time-zone --profile --rate-rules --rate-window --semaphore --semaphore-queue --session-queue --api-quota --batch-quota --help
                nowflow serve --fail-status 5 -> 500 503
                nowflow serve --tls-c -> --tls-cert --tls-client-ca
                nowflow completion  -> bash zsh fish
                nowflow run --sh -> --shard
                nowflow report  -> merge
                nowflow report merge --r -> --report
                nowflow report merge --report  -> 
                nowflow report merge jobs/ -> 

                """)
    }

    @Test func fishCompletesWithDescriptions() throws {
        guard installed("/usr/bin/fish") else { return }
        let workspace = try Workspace(shell: "fish")
        defer { try? FileManager.default.removeItem(at: workspace.directory) }
        let program = """
            source ./nowflow.fish
            for line in 'nowflow r' 'nowflow run --out' 'nowflow run --output ' 'nowflow run ' 'nowflow serve --fail-status ' 'nowflow completion z' 'nowflow report ' 'nowflow report merge --'
                echo "# $line"
                complete -C "$line"
            end
            """
        let output = try workspace.shell("/usr/bin/fish", ["--no-config", "-c", program])
        #expect(
            output == """
                # nowflow r
                repl\tRuns steps one at a time
                report\treport commands
                run\tRuns a job file's steps in order
                # nowflow run --out
                --output\tthe outcome on stdout as text (default) or JSON
                # nowflow run --output 
                json\tthe outcome on stdout as text (default) or JSON
                text\tthe outcome on stdout as text (default) or JSON
                # nowflow run 
                a.yaml
                jobs/
                b.txt
                nowflow.fish
                # nowflow serve --fail-status 
                429\tthe status of injected failures (default 503)
                500\tthe status of injected failures (default 503)
                503\tthe status of injected failures (default 503)
                # nowflow completion z
                zsh
                # nowflow report 
                merge\tJoins the JSON reports of a sharded run into one report of the same schema
                # nowflow report merge --
                --help\tshow the usage
                --report\twrite the merged report (repeatable; the directory must exist)

                """)
    }

    @Test func zshLoadsTheScriptAndRegistersIt() throws {
        guard installed("/usr/bin/zsh") else { return }
        let workspace = try Workspace(shell: "zsh")
        defer { try? FileManager.default.removeItem(at: workspace.directory) }
        #expect(try workspace.shell("/usr/bin/zsh", ["-n", "nowflow.zsh"]) == "")
        let program = "autoload -U compinit && compinit -u -D && source ./nowflow.zsh && print -r -- $_comps[nowflow]"
        #expect(try workspace.shell("/usr/bin/zsh", ["-f", "-c", program]) == "_nowflow\n")
    }

    @Test func helpSaysWhereToPutTheScript() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(["completion", "--help"], in: directory)
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                usage: nowflow completion bash|zsh|fish

                Prints a script that makes the shell complete nowflow's commands, options, option values and job files.
                bash: source <(nowflow completion bash) in ~/.bashrc, or save the script as
                ~/.local/share/bash-completion/completions/nowflow; zsh: save it as _nowflow in a directory of $fpath
                (before compinit runs); fish: save it as ~/.config/fish/completions/nowflow.fish.

                """)
    }

    @Test func aMissingOrUnknownShellIsAUsageError() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = try ToolInvocation.run(["completion"], in: directory)
        #expect(missing.status == 1)
        #expect(missing.stderr == "nowflow completion: no shell given\nsee 'nowflow completion --help'\n")
        let misspelt = try ToolInvocation.run(["completion", "bsh"], in: directory)
        #expect(misspelt.status == 1)
        #expect(misspelt.stderr == "nowflow completion: unknown shell 'bsh'; did you mean 'bash'?\nsee 'nowflow completion --help'\n")
        let other = try ToolInvocation.run(["completion", "tcsh"], in: directory)
        #expect(other.stderr == "nowflow completion: unknown shell 'tcsh' (bash, zsh or fish)\nsee 'nowflow completion --help'\n")
        let two = try ToolInvocation.run(["completion", "bash", "zsh"], in: directory)
        #expect(two.stderr == "nowflow completion: unexpected argument 'zsh'\nsee 'nowflow completion --help'\n")
    }
}
