/// A `:` command of the REPL, declared once: its name, what `:help COMMAND` says of it and whether it takes an
/// argument; the session's dispatch, `:help` and completion read them from here.
enum SessionCommand: String, CaseIterable, Sendable {
    // In the order completion and the did-you-mean hints go through them.
    case next = ":next", run = ":run", list = ":list", vars = ":vars", show = ":show", format = ":format", tz = ":tz"
    case display = ":display", history = ":history", undo = ":undo", save = ":save", saveOver = ":save!"
    case export = ":export", describe = ":describe", help = ":help", quit = ":quit"

    /// The command a line starting with `name` gives, its other names (`:q`, `:exit`) included; nil for none.
    init?(name: String) {
        switch name {
        case ":q", ":exit": self = .quit
        default: self.init(rawValue: name)
        }
    }

    /// The commands completion offers: all but `:save!`, which `:save` completes to before its `!` is typed.
    static var completed: [String] {
        allCases.filter { $0 != .saveOver }.map(\.rawValue)
    }

    /// Whether the command reads what follows it; one that does not refuses an argument given under its own name.
    var takesArgument: Bool {
        switch self {
        case .next, .run, .list, .vars, .history, .quit: false
        default: true
        }
    }

    /// What the command does, for `:help COMMAND`.
    var help: String {
        switch self {
        case .next: ":next runs the job's next step; a step that fails stays next"
        case .run: ":run runs the job's remaining steps, stopping at the first that fails"
        case .list: ":list shows the job's steps, their status, and => at the next one"
        case .vars: ":vars shows the variables and results, in a few words each"
        case .show: ":show EXPR shows the value of an expression, as in :show steps._.records.0 or :show len(steps._.records)"
        case .format: ":format table|json|yaml sets how results are shown (without an argument: the current format)"
        case .tz: ":tz ZONE shows dates in ZONE: UTC, local or an IANA name such as Europe/Paris"
        case .display: ":display on|off|all asks display values for the steps typed that do not say (display_value: true, none, all)"
        case .history: ":history lists the session's writes, numbered, with what :undo would do"
        case .undo: ":undo [N|all] takes the last write (write N, every write) back; refused when a record changed since"
        case .save: ":save FILE writes the steps run so far (not those undone) as a job file; never over a file unasked"
        case .saveOver: ":save! FILE writes the steps run so far as a job file, over FILE if it exists"
        case .export: ":export csv|json|yaml FILE writes the last result (steps._) to FILE: CSV its records, JSON or YAML whole; dates as shown"
        case .describe: ":describe TABLE shows a table's fields (type, reference, choices, the table defining each) and what it extends"
        case .help: ":help lists the forms and commands; :help KIND a step kind's parameters; :help :COMMAND a command's use"
        case .quit: ":quit ends the session (so do :q, :exit and Ctrl-D), running the job's finally if it is due"
        }
    }

    /// `:help` alone: the forms of a step and the commands.
    static let overview = """
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
}
