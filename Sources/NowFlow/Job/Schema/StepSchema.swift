/// One kind of step as ``JobSchema`` declares it: its key, what its value is, and the keys it adds to the step.
struct StepSchema: Sendable {
    /// Which part of ``JobBuilder`` reads the kind, and which short forms the REPL gives it.
    enum Group: Sendable {
        /// `query`, `get`, `create`, `update`, `delete`: a table's records through the Table API.
        case records
        /// `attach`, `download`, `attachments` and `aggregate`: the Attachment and Aggregate APIs.
        case attachments
        /// A kind read on its own.
        case other
    }

    /// The kind's key (`query`).
    var name: String
    var group: Group
    /// What the step does, one line.
    var summary: String
    /// The value under the kind's key: a mapping of parameters for most kinds.
    var type: SchemaType
    /// The keys the kind adds beside it in the step (`foreach`'s `as`, `steps` and `parallel`).
    var stepKeys: [SchemaKey] = []
    /// The fields of `steps.<id>` that the kind's result has; nil when it is a value of any shape (`extract`).
    var results: [String]?
    /// The parameters the REPL's short form of the kind takes as words, in order (`attach incident SYS_ID FILE`:
    /// `table`, `sys_id`, `file`); the others are written `name=value`. Empty for a kind read on its own.
    var words: [String] = []

    init(
        _ name: String, _ group: Group, _ summary: String, _ type: SchemaType, words: [String], results: [String]?
    ) {
        self.name = name
        self.group = group
        self.summary = summary
        self.type = type
        self.words = words
        self.results = results
    }

    /// A kind read on its own.
    init(_ name: String, _ summary: String, _ type: SchemaType, stepKeys: [SchemaKey] = [], results: [String]?) {
        self.init(name, .other, summary, type, words: [], results: results)
        self.stepKeys = stepKeys
    }

    /// The parameters under the kind's key, when they are a mapping.
    var parameters: SchemaMapping? {
        switch type {
        case .mapping(let mapping), .expressionOrMapping(let mapping): mapping
        default: nil
        }
    }

    /// The names of ``parameters``' keys, in order (none when the kind takes no mapping).
    var parameterNames: [String] { parameters?.names ?? [] }
}
