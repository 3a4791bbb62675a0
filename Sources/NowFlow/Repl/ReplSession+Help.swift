/// `:help`: the forms and commands, a step kind's parameters (`:help query`), a command's use (`:help :undo`).
extension ReplSession {
    static let help = """
        Steps (the result becomes steps.<id>: id=NAME, else _1, _2, ...; steps._ is the last one):
          query incident active=true limit=5 fields=number,short_description
          get incident SYS_ID                  create incident short_description="Printer on fire"
          update incident SYS_ID state=2       delete incident SYS_ID
          set name=value                       assert steps._.count > 0
          attach incident SYS_ID ./notes.txt   download ATTACHMENT_SYS_ID ./out.txt [overwrite=true]
          attachments incident SYS_ID          aggregate incident group_by=priority active=true
          query: { table: incident, where: { active: true }, limit: 5 }      (any step, as YAML flow)
        Commands:
          :next              run the job's next step          :run          run the job's remaining steps
          :list              the job's steps, => at the next  :vars         the variables and results
          :show EXPR         a value (steps._.records.0)      :format F     table, json or yaml
          :tz ZONE           show dates in ZONE (UTC, local, Europe/Paris)
          :display on|off|all  display values for the steps typed (display_value: true, false, all)
          :history           the session's writes             :undo [N|all] take the last write (N, all) back
          :save FILE         the steps run so far as a job file for nowflow run (:save! FILE writes over a file)
          :describe TABLE    a table's fields, types, references and choices, and the table it extends
          :export csv|json|yaml FILE   the last result (steps._) written to FILE
          :help [TOPIC]      this text, or a step kind's parameters (:help query) or a command's use (:help :undo)
          :quit              end (Ctrl-D too)
        """

    /// What each command does, for `:help COMMAND`.
    static let commandHelp: [String: String] = [
        ":next": ":next runs the job's next step; a step that fails stays next",
        ":run": ":run runs the job's remaining steps, stopping at the first that fails",
        ":list": ":list shows the job's steps, their status, and => at the next one",
        ":vars": ":vars shows the variables and results, in a few words each",
        ":show": ":show EXPR shows the value of an expression, as in :show steps._.records.0 or :show len(steps._.records)",
        ":format": ":format table|json|yaml sets how results are shown (without an argument: the current format)",
        ":tz": ":tz ZONE shows dates in ZONE: UTC, local or an IANA name such as Europe/Paris",
        ":display": ":display on|off|all asks display values for the steps typed that do not say (display_value: true, none, all)",
        ":history": ":history lists the session's writes, numbered, with what :undo would do",
        ":undo": ":undo [N|all] takes the last write (write N, every write) back; refused when a record changed since",
        ":save": ":save FILE writes the steps run so far (not those undone) as a job file; never over a file unasked",
        ":save!": ":save! FILE writes the steps run so far as a job file, over FILE if it exists",
        ":export": ":export csv|json|yaml FILE writes the last result (steps._) to FILE: CSV its records, JSON or YAML whole; dates as shown",
        ":describe": ":describe TABLE shows a table's fields (type, reference, choices, the table defining each) and what it extends",
        ":help": ":help lists the forms and commands; :help KIND a step kind's parameters; :help :COMMAND a command's use",
        ":quit": ":quit ends the session (so do :q, :exit and Ctrl-D), running the job's finally if it is due",
    ]

    /// `:help`, `:help KIND`, `:help :COMMAND` (or `:help COMMAND`).
    func help(_ topic: String) -> ReplReply {
        guard !topic.isEmpty else { return ReplReply(Self.help) }
        let command = topic.hasPrefix(":") ? topic : ":" + topic
        if let kind = JobSchema.kind(topic) { return ReplReply(kind.help) }
        if let text = Self.commandHelp[command] { return ReplReply(text) }
        let topics = StepKind.names + Self.commandHelp.keys.sorted()
        let hint = topic.closest(among: topics).map { "; did you mean '\($0)'?" } ?? ""
        return .rejection("no help on '\(topic)'\(hint) (:help names a step kind or a command)", column: 0)
    }
}
