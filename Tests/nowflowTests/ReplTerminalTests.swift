import Foundation
import Testing

/// `nowflow repl` in a real terminal (tmux): cursor editing, history across sessions, tab completion, Ctrl-C at
/// the prompt and during a step, Ctrl-D. (tmux's screen has no trailing spaces: a prompt reads `nowflow>`.)
@Suite struct ReplTerminalTests {
    @Test(.enabled(if: TmuxSession.executable != nil, "tmux is not installed (CI installs it: apt-get install tmux)"))
    func editingHistoryAndCompletionWorkInATerminal() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let nowflow = try BuiltProducts.executable(named: "nowflow")
        let command = Self.repl(nowflow, in: directory)

        let history = directory.appendingPathComponent(".nowflow/history")
        let terminal = try TmuxSession(command: command)
        try terminal.waitFor("nowflow>")
        try terminal.send("quer", literal: true)
        try terminal.send("Tab")
        try terminal.waitFor("nowflow> query")
        try terminal.send("incident number=INC0010001 limt=1", literal: true)
        try terminal.send("Left", "Left", "Left")
        try terminal.send("i", literal: true)
        try terminal.send("Enter")
        var screen = try terminal.waitFor("_1 (query): 1 record from incident")
        #expect(screen.contains("nowflow> query incident number=INC0010001 limit=1\n"))

        try terminal.send("Up")
        try terminal.send(" fields=short_d", literal: true)
        try terminal.send("Tab")
        try terminal.send("Enter")
        screen = try terminal.waitFor("_2 (query): 1 record from incident")
        #expect(screen.contains("nowflow> query incident number=INC0010001 limit=1 fields=short_description\n"))
        #expect(screen.contains("short_description\n--------------------\nEmail server is down\n1 record\n"))

        try terminal.send(":show steps._1.records.0.numb", literal: true)
        try terminal.send("Tab")
        try terminal.send("Enter")
        try terminal.waitFor("nowflow> :show steps._1.records.0.number\nINC0010001\n")

        try terminal.send("abc", literal: true)
        try terminal.waitFor("nowflow> abc")
        let prompts = try terminal.screen().components(separatedBy: "nowflow>").count
        try terminal.send("C-c")
        // A fresh prompt comes; what is typed before it could be lost with the interrupted line.
        try waitUntil("a fresh prompt after Ctrl-C") {
            ((try? terminal.screen())?.components(separatedBy: "nowflow>").count ?? 0) > prompts
        }
        try terminal.send(":vars", literal: true)
        try terminal.send("Enter")
        screen = try terminal.waitFor("steps._ is steps._2")
        #expect(!screen.contains("abc:vars"))
        try terminal.send(#"{ id: slow, retry: { attempts: 2, delay: 60s, until: "false" }, query: { table: incident, limit: 1 } }"#, literal: true)
        try terminal.send("Enter")
        // The line is in the history once the REPL has read it: then Ctrl-C reaches the running step.
        try waitUntil("the REPL reads the slow step") {
            (try? String(contentsOf: history, encoding: .utf8))?.contains(#"id:\040slow"#) == true
        }
        try terminal.send("C-c")
        try terminal.waitFor("cancelled: slow (query) was interrupted (Ctrl-C); results and variables are as before it")
        try terminal.send("C-d")
        try terminal.waitFor("SESSION-ENDED")

        let permissions = try FileManager.default.attributesOfItem(atPath: history.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        let lines = try String(contentsOf: history, encoding: .utf8)
        #expect(lines.contains(#"query\040incident\040number=INC0010001\040limit=1\040fields=short_description"#))

        let next = try TmuxSession(command: command)
        try next.waitFor("nowflow>")
        try next.send("Up")
        try next.waitFor("nowflow> { id: slow")
        try next.send("Up")
        try next.waitFor("nowflow> :vars")
        try next.send("Enter")
        try next.waitFor("no variables or results yet")
    }

    /// Every completion typed as a person would, Tab by Tab, the line compared after each: what completion puts on
    /// the line is valid input (`limit=`, never `limit\=`), values complete where they are known.
    @Test(.enabled(if: TmuxSession.executable != nil, "tmux is not installed (CI installs it: apt-get install tmux)"))
    func completionPutsValidInputOnTheLine() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "".write(to: directory.appendingPathComponent("walk-existing.yaml"), atomically: true, encoding: .utf8)
        let nowflow = try BuiltProducts.executable(named: "nowflow")
        let command = Self.repl(nowflow, in: directory)
        let terminal = try TmuxSession(command: command, width: 160)
        try terminal.waitFor("nowflow>")

        /// Types `text`, presses Tab (`tabs` times), and waits for the line to read `line`. A table's fields are
        /// asked for in the background on the first Tab that names it and offered from the next Tab on (the
        /// documented rule), so while a Tab has left the line exactly as typed, Tab is pressed again, as a person
        /// would.
        func complete(_ text: String, tabs: Int = 1, _ line: String) throws {
            let typed = try lastLine(terminal) + text
            try terminal.send(text, literal: true)
            for _ in 0..<tabs { try terminal.send("Tab") }
            var lastTab = ContinuousClock.now
            try waitUntil("the line reads '\(line)'") {
                let current = try? lastLine(terminal)
                if current == typed, typed != line, ContinuousClock.now - lastTab > .milliseconds(500) {
                    try? terminal.send("Tab")
                    lastTab = ContinuousClock.now
                }
                return current == line
            }
        }

        // query: a parameter name, then the boolean values of a field, then a field after fields=.
        try complete("query incident active=true li", "nowflow> query incident active=true limit=")
        try complete("1 order_by=numb", "nowflow> query incident active=true limit=1 order_by=number")
        try terminal.send("Enter")
        try terminal.waitFor("_1 (query): 1 record from incident")
        // "act" would also name task's activity_due: the field is typed whole, completion adds the "=".
        try complete("query incident active", "nowflow> query incident active=")
        try complete("", tabs: 2, "nowflow> query incident active=")
        try terminal.waitFor("false   steps.  true    vars.\nnowflow> query incident active=")
        try complete("t", "nowflow> query incident active=true")
        // A field in a list is followed by nothing: a `,` and another field may come.
        try complete("fields=num", "nowflow> query incident active=true fields=number")
        try complete(" limit=1", "nowflow> query incident active=true fields=number limit=1")
        try terminal.send("Enter")
        try terminal.waitFor("_2 (query): 1 record from incident")

        // get: the ids and paths of the results inside ${ }, closed by the completion.
        try complete("get incident ${steps._1.rec", "nowflow> get incident ${steps._1.records.")
        try complete("0.sys_i", "nowflow> get incident ${steps._1.records.0.sys_id}")
        try complete(" fields=short_d", "nowflow> get incident ${steps._1.records.0.sys_id} fields=short_description")
        try terminal.send("Enter")
        try terminal.waitFor("_3 (get): incident ")

        // update: a field name, then the values and labels of a choice field from sys_choice, a label with a space
        // after a quote (given as a display value), a choice value.
        try complete("update incident ${steps._1.records.0.sys_id} sta", "nowflow> update incident ${steps._1.records.0.sys_id} state=")
        try complete("", tabs: 2, "nowflow> update incident ${steps._1.records.0.sys_id} state=")
        try terminal.waitFor(
            "1         2         3         6         7         8         Canceled  Closed    New       Resolved  steps.    vars.\nnowflow> update")
        try complete("\"In", "nowflow> update incident ${steps._1.records.0.sys_id} state=\"In Progress\"")
        try complete(" impa", "nowflow> update incident ${steps._1.records.0.sys_id} state=\"In Progress\" impact=")
        try complete("3 input_display_value=t", "nowflow> update incident ${steps._1.records.0.sys_id} state=\"In Progress\" impact=3 input_display_value=true")
        try terminal.send("Enter")
        try terminal.waitFor("_4 (update): updated incident")
        try complete("get incident ${steps._4.sys_i", "nowflow> get incident ${steps._4.sys_id}")
        try terminal.send(" fields=state,impact", literal: true)
        try terminal.send("Enter")
        try terminal.waitFor("_5 (get): incident ")
        try terminal.waitFor("state   2\nimpact  3\n")

        // create: a choice field and its value, a quoted choice value with a space closed by its quote, an option
        // before the kind.
        try complete("id=made cr", "nowflow> id=made create")
        try complete("incident categ", "nowflow> id=made create incident category=")
        try complete("netw", "nowflow> id=made create incident category=network")
        try complete("subcategory=\"internal", "nowflow> id=made create incident category=network subcategory=\"internal application\"")
        try terminal.send("Enter")
        try terminal.waitFor("made (create): created incident")

        // commands: the command, its argument, a file name for :save.
        try complete(":form", "nowflow> :format")
        try complete("js", "nowflow> :format json")
        try terminal.send("Enter")
        try terminal.waitFor("format: json")
        try complete(":save walk-e", "nowflow> :save walk-existing.yaml")
        try terminal.send("C-u")
        try terminal.send("C-d")
        try terminal.waitFor("SESSION-ENDED")
        let screen = try terminal.screen()
        #expect(!screen.contains("\\="))
        #expect(!screen.contains("error"))
    }

    /// Completion inside a list of fields leaves the line open for `,` and the next field, and goes through
    /// references (`assignment_group.na` → `assignment_group.name`), in a list and in a condition, from the first
    /// Tab of the session.
    @Test(.enabled(if: TmuxSession.executable != nil, "tmux is not installed (CI installs it: apt-get install tmux)"))
    func completionInsideListsAndThroughReferences() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let nowflow = try BuiltProducts.executable(named: "nowflow")
        let command = Self.repl(nowflow, in: directory)
        let terminal = try TmuxSession(command: command, width: 160)
        try terminal.waitFor("nowflow>")
        try terminal.send("query incident fields=number,short_d", literal: true)
        try terminal.send("Tab")
        try terminal.send(",assignment_group.na", literal: true)
        try terminal.waitFor("nowflow> query incident fields=number,short_description,assignment_group.na")
        try terminal.send("Tab")
        try terminal.send(" assignment_group.na", literal: true)
        try terminal.waitFor("fields=number,short_description,assignment_group.name assignment_group.na")
        try terminal.send("Tab")
        try terminal.send("\"Service Desk\" number=INC0010001", literal: true)
        try terminal.waitFor(
            #"nowflow> query incident fields=number,short_description,assignment_group.name assignment_group.name="Service Desk" number=INC0010001"#)
        try terminal.send("Enter")
        try terminal.waitFor("""
            _1 (query): 1 record from incident
            number      short_description     assignment_group.name
            ----------  --------------------  ---------------------
            INC0010001  Email server is down  Service Desk
            1 record
            """)
        try terminal.send("C-d")
        let screen = try terminal.waitFor("SESSION-ENDED")
        #expect(!screen.contains("still reading"))
    }

    /// `:describe` completes its table and shows the table's fields in a terminal; `:export` completes its format
    /// and writes the last result.
    @Test(.enabled(if: TmuxSession.executable != nil, "tmux is not installed (CI installs it: apt-get install tmux)"))
    func describeAndExportInATerminal() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let nowflow = try BuiltProducts.executable(named: "nowflow")
        let command = Self.repl(nowflow, in: directory)
        let terminal = try TmuxSession(command: command, width: 120)
        try terminal.waitFor("nowflow>")
        try terminal.send(":desc", literal: true)
        try terminal.send("Tab")
        try terminal.send("sys_user_grou", literal: true)
        try terminal.send("Tab")
        try terminal.waitFor("nowflow> :describe sys_user_group")
        try terminal.send("Enter")
        try terminal.waitFor("""
            sys_user_group: 21 fields
            field             type             reference        choices  table
            ----------------  ---------------  ---------------  -------  --------------
            active            boolean                                    sys_user_group
            """)
        try terminal.waitFor("type              string                                     sys_user_group\n21 records\nnowflow>")
        try terminal.send("query incident number=INC0010001 fields=number,short_description", literal: true)
        try terminal.send("Enter")
        try terminal.waitFor("_1 (query): 1 record from incident")
        try terminal.send(":exp", literal: true)
        try terminal.send("Tab")
        try terminal.send("cs", literal: true)
        try terminal.send("Tab")
        try terminal.send("first.csv", literal: true)
        try terminal.waitFor("nowflow> :export csv first.csv")
        try terminal.send("Enter")
        try terminal.waitFor("exported 1 record to first.csv (csv)\nnowflow>")
        let exported = try String(contentsOf: directory.appendingPathComponent("first.csv"), encoding: .utf8)
        #expect(exported == "number,short_description\r\nINC0010001,Email server is down\r\n")
        try terminal.send("C-d")
        try terminal.waitFor("SESSION-ENDED")
    }

    /// A step typed over several lines in a terminal: the open mapping continues it under a prompt of dots, and
    /// Ctrl-C there drops the lines typed.
    @Test(.enabled(if: TmuxSession.executable != nil, "tmux is not installed (CI installs it: apt-get install tmux)"))
    func aStepTypedOverSeveralLines() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let nowflow = try BuiltProducts.executable(named: "nowflow")
        let command = Self.repl(nowflow, in: directory)
        let terminal = try TmuxSession(command: command, width: 120)
        try terminal.waitFor("nowflow>")
        try terminal.send("query: { table: incident,", literal: true)
        try terminal.send("Enter")
        try terminal.waitFor(".......>")
        try terminal.send("  where: { number: INC0010001 }, fields: [number] }", literal: true)
        try terminal.send("Enter")
        try terminal.waitFor("""
            nowflow> query: { table: incident,
            .......>   where: { number: INC0010001 }, fields: [number] }
            _1 (query): 1 record from incident
            number
            ----------
            INC0010001
            1 record
            nowflow>
            """)
        try terminal.send("set a=(", literal: true)
        try terminal.send("Enter")
        try terminal.waitFor("nowflow> set a=(\n.......>")
        let prompts = try terminal.screen().components(separatedBy: "nowflow>").count
        try terminal.send("C-c")
        // A fresh prompt comes; what is typed before it could be lost with the interrupted line.
        try waitUntil("a fresh prompt after Ctrl-C") {
            ((try? terminal.screen())?.components(separatedBy: "nowflow>").count ?? 0) > prompts
        }
        try terminal.send(":vars", literal: true)
        try terminal.send("Enter")
        try terminal.waitFor("steps._ is steps._1")
        try terminal.send("C-d")
        let screen = try terminal.waitFor("SESSION-ENDED")
        #expect(!screen.contains("vars.a"))
    }

    /// An answer longer than the terminal goes through the built-in pager (no `$PAGER`): a page, then Space for the
    /// next, Enter for a line, q for the prompt; with `$PAGER` set, the pager gets the whole text.
    @Test(.enabled(if: TmuxSession.executable != nil, "tmux is not installed (CI installs it: apt-get install tmux)"))
    func aLongAnswerIsPaged() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let nowflow = try BuiltProducts.executable(named: "nowflow")
        let command = Self.repl(nowflow, in: directory, environment: "PAGER= ")
        let terminal = try TmuxSession(command: command, width: 100, height: 12)
        try terminal.waitFor("nowflow>")
        try terminal.send("query incident limit=30 fields=number order_by=number", literal: true)
        try terminal.send("Enter")
        // 34 lines (the result's line, the header, the rule, 30 records, the count) on 12 rows: 11, then the question.
        try terminal.waitFor("INC0010008\n-- more: line 11 of 34 (Space: next page, Enter: next line, q: skip the rest) --")
        try terminal.send("Space")
        try terminal.waitFor("INC0010019\n-- more: line 22 of 34 (Space: next page, Enter: next line, q: skip the rest) --")
        try terminal.send("Enter")
        try terminal.waitFor("INC0010020\n-- more: line 23 of 34")
        try terminal.send("q", literal: true)
        try terminal.waitFor("INC0010020\nnowflow>")
        try terminal.send("C-d")
        try terminal.waitFor("SESSION-ENDED")

        let paged = directory.appendingPathComponent("paged.txt")
        let withPager = "cd '\(directory.path)' && HOME='\(directory.path)' NO_COLOR=1 PAGER='cat > paged.txt' '\(nowflow.path)' repl; echo SESSION-ENDED; sleep 60"
        let other = try TmuxSession(command: withPager, width: 100, height: 12)
        try other.waitFor("nowflow>")
        try other.send("query incident limit=30 fields=number order_by=number", literal: true)
        try other.send("Enter")
        try other.waitFor("nowflow> query incident limit=30 fields=number order_by=number\nnowflow>")
        try other.send("C-d")
        try other.waitFor("SESSION-ENDED")
        let text = try String(contentsOf: paged, encoding: .utf8)
        #expect(text.hasPrefix("_1 (query): 30 records from incident\nnumber\n----------\nINC0010001\n"))
        #expect(text.hasSuffix("INC0010030\n30 records\n"))
    }

    /// While the instance takes its time over the dictionary, the first Tab offers what is known and says once that
    /// the fields are still coming; a later Tab has them.
    @Test(.enabled(if: TmuxSession.executable != nil, "tmux is not installed (CI installs it: apt-get install tmux)"))
    func aTabBeforeTheDictionaryCameSaysSoOnce() async throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try HeldInstance { _, request in request.path.hasSuffix("/sys_dictionary") ? .seconds(3) : .zero }
        let nowflow = try BuiltProducts.executable(named: "nowflow")
        let environment = "HOME='\(directory.path)' NO_COLOR=1 NOW_USER=admin NOW_PASSWORD=pw"
        let command = "cd '\(directory.path)' && \(environment) '\(nowflow.path)' repl --instance http://127.0.0.1:\(server.port); echo SESSION-ENDED; sleep 60"
        let terminal = try TmuxSession(command: command, width: 160)
        try terminal.waitFor("nowflow>")
        try terminal.send("query incident short_d", literal: true)
        try terminal.send("Tab")
        try terminal.waitFor("""
            (still reading the fields of incident from the instance: Tab again in a moment for them)
            nowflow> query incident short_d
            """)
        #expect(server.waitForHeld(1), "requests: \(server.requests)")
        // Tab again until the fields have come (the answer is three seconds away).
        var lastTab = ContinuousClock.now
        try waitUntil("the field completes") {
            if ContinuousClock.now - lastTab > .milliseconds(500) {
                try? terminal.send("Tab")
                lastTab = ContinuousClock.now
            }
            return (try? lastLine(terminal)) == "nowflow> query incident short_description="
        }
        try terminal.send("C-u")
        try terminal.send("query problem short_d", literal: true)
        try terminal.send("Tab")
        try waitUntil("problem's dictionary is asked for") { server.requests.filter { $0.contains("sys_dictionary") }.count == 2 }
        try terminal.send("C-u")
        try terminal.send("C-d")
        let screen = try terminal.waitFor("SESSION-ENDED")
        #expect(screen.components(separatedBy: "still reading").count == 2)
    }

    /// On a terminal, `:save` over a file that exists asks first: no leaves the file, yes writes it.
    @Test(.enabled(if: TmuxSession.executable != nil, "tmux is not installed (CI installs it: apt-get install tmux)"))
    func saveOverAFileAsksOnATerminal() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("notes.yaml")
        try "keep me\n".write(to: file, atomically: true, encoding: .utf8)
        let nowflow = try BuiltProducts.executable(named: "nowflow")
        let command = Self.repl(nowflow, in: directory)
        let terminal = try TmuxSession(command: command)
        try terminal.waitFor("nowflow>")
        try terminal.send("set team=Network", literal: true)
        try terminal.send("Enter")
        try terminal.waitFor("_1 (set): vars.team")
        try terminal.send(":save notes.yaml", literal: true)
        try terminal.send("Enter")
        try terminal.waitFor("notes.yaml exists; write over it? [y/N]")
        try terminal.send("n", literal: true)
        try terminal.send("Enter")
        try terminal.waitFor("not done\nnowflow>")
        #expect(try String(contentsOf: file, encoding: .utf8) == "keep me\n")
        try terminal.send(":save notes.yaml", literal: true)
        try terminal.send("Enter")
        try terminal.send("y", literal: true)
        try terminal.send("Enter")
        try terminal.waitFor("saved 1 step to notes.yaml (nowflow run notes.yaml runs them again)")
        try terminal.send("C-d")
        try terminal.waitFor("SESSION-ENDED")
        #expect(try String(contentsOf: file, encoding: .utf8).hasPrefix("name: REPL session\n"))
    }

    /// Ctrl-C during a create whose answer the instance holds (in this process, see ``HeldInstance``): the record is
    /// stored, its answer is a minute away; the REPL says the create may have gone through, with its sys_id, and the
    /// next line's get settles it.
    @Test(.enabled(if: TmuxSession.executable != nil, "tmux is not installed (CI installs it: apt-get install tmux)"))
    func ctrlCDuringACreateSaysWhatMayHaveHappened() async throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try HeldInstance { _, request in request.method == "POST" ? .seconds(60) : .zero }
        let nowflow = try BuiltProducts.executable(named: "nowflow")
        let environment = "HOME='\(directory.path)' NO_COLOR=1 NOW_USER=admin NOW_PASSWORD=pw"
        let command = "cd '\(directory.path)' && \(environment) '\(nowflow.path)' repl --instance http://127.0.0.1:\(server.port); echo SESSION-ENDED; sleep 60"
        let terminal = try TmuxSession(command: command, width: 200)
        try terminal.waitFor("nowflow>")
        // The first step on incident loads the table names and its dictionary.
        try terminal.send("query incident number=INC0010001 fields=number", literal: true)
        try terminal.send("Enter")
        try terminal.waitFor("_1 (query): 1 record from incident")
        try terminal.send(#"create incident short_description="ctrl-c test""#, literal: true)
        try terminal.send("Enter")
        // The request is at the instance (stored at once, its answer held): interrupt it while it waits.
        #expect(server.waitForHeld(1), "requests: \(server.requests)")
        try terminal.send("C-c")
        let screen = try terminal.waitFor("steps._2 keeps it as possibly written")
        let sysID = try #require(screen.firstMatch(of: /the create may have gone through: incident sys_id ([0-9a-f]{32});/)?.1)
        try terminal.send(":show steps._2.record.short_description", literal: true)
        try terminal.send("Enter")
        try terminal.waitFor(
            "the interrupted create _2 went through: incident \(sysID) exists (steps._2 is its record)\nctrl-c test")
        try terminal.send("C-d")
        try terminal.waitFor("SESSION-ENDED")
    }

    /// A bare URL with `NOW_USER` and no password: the REPL asks for it on the terminal, without echoing it.
    @Test(.enabled(if: TmuxSession.executable != nil, "tmux is not installed (CI installs it: apt-get install tmux)"))
    func thePasswordOfABareURLIsAskedWithoutEcho() async throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await ServeProcess(["--db", ":memory:", "--password", "hidden-pw"])
        let nowflow = try BuiltProducts.executable(named: "nowflow")
        let command = Self.repl(
            nowflow, in: directory, environment: "NOW_USER=admin ", arguments: " --instance http://127.0.0.1:\(server.port)")
        let terminal = try TmuxSession(command: command)
        try terminal.waitFor("password for admin:")
        try terminal.send("hidden-pw", literal: true)
        try terminal.send("Enter")
        try terminal.waitFor("nowflow>")
        try terminal.send("query incident number=INC0010001 fields=number", literal: true)
        try terminal.send("Enter")
        try terminal.waitFor("_1 (query): 1 record from incident")
        try terminal.send("C-d")
        let screen = try terminal.waitFor("SESSION-ENDED")
        #expect(!screen.contains("hidden-pw"))
        let history = try String(contentsOf: directory.appendingPathComponent(".nowflow/history"), encoding: .utf8)
        #expect(!history.contains("hidden-pw"))
    }

    /// The last line of the screen that is not empty.
    /// The shell command of a terminal test: `nowflow repl` in `directory`, which is its HOME too, without colours,
    /// then a line saying the session ended, kept on screen.
    private static func repl(_ nowflow: URL, in directory: URL, environment: String = "", arguments: String = "") -> String {
        "cd '\(directory.path)' && HOME='\(directory.path)' NO_COLOR=1 \(environment)'\(nowflow.path)' repl\(arguments); "
            + "echo SESSION-ENDED; sleep 60"
    }

    private func lastLine(_ terminal: TmuxSession) throws -> String {
        try terminal.screen().split(separator: "\n").last.map(String.init) ?? ""
    }

    /// Polls `condition` until it holds; fails after `timeout`.
    private func waitUntil(_ what: String, timeout: Duration = .seconds(60), _ condition: () -> Bool) throws {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else { throw TmuxError(description: "timed out waiting until \(what)") }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
}
