import NowData

/// The job file's schema, declared once: every mapping a job file has (the job, a step, each kind of step, `auth`,
/// `coder`, `retry`, `http.expect`, ...), each key with its type, whether it is required and a line of
/// documentation.
///
/// ``JobBuilder`` checks the keys of a file against it (an unknown key gets the closest declared one as a
/// did-you-mean), the REPL's short forms and completion take their parameters from it, and ``reference`` lists
/// it for a person. The order of the keys is the order in which diagnostics list them.
enum JobSchema {
    /// The top level of a job file.
    static let job = SchemaMapping(
        "the job",
        [
            SchemaKey("name", .text, required: true, "The job's name in reports."),
            SchemaKey("description", .text, "Free text."),
            SchemaKey(
                "instance", .text,
                "local (the embedded instance, the default), an http(s):// URL, or a profile of ~/.nowflow/config.yaml."
            ),
            SchemaKey(
                "auth", .mapping(auth), "How to authenticate to a remote instance: one of basic, oauth, oauth_jwt or token."),
            SchemaKey(
                "rate", .text,
                "The most requests the run sends, such as 10/s or 5000/h (--rate wins; a profile's slower rate too)."),
            SchemaKey("coder", .mapping(coder), "How dates are read and shown."),
            SchemaKey(
                "vars", .variables, "Variables, in order; a value may use env and the variables above it."),
            SchemaKey("vars_files", .texts, "YAML or JSON files of variable values, relative to the job file."),
            SchemaKey("secrets", .names, "Names of env variables or vars whose values are masked as *** everywhere."),
            SchemaKey("steps", .steps, required: true, "The steps, run in order."),
            SchemaKey("finally", .steps, "Steps that run after steps, also when a step failed (clean-up)."),
            SchemaKey("outputs", .expressions, "Names and expressions whose values the run gives at the end."),
        ])

    /// `auth`: one of its keys.
    static let auth = SchemaMapping(
        "auth", takesOneKey: true,
        [
            SchemaKey("basic", .mapping(authBasic), "Basic authentication with a user name and password."),
            SchemaKey("oauth", .mapping(authOAuth), "An OAuth password grant, its token renewed as needed."),
            SchemaKey(
                "oauth_jwt", .mapping(authOAuthJWT),
                "The OAuth JWT bearer grant: assertions signed with a private key, a new token asked as needed."),
            SchemaKey("token", .template, "A bearer token."),
        ])

    /// `auth.basic`.
    static let authBasic = SchemaMapping(
        "auth.basic",
        [
            SchemaKey("user", .template, required: true, "The user name."),
            SchemaKey("password", .template, required: true, "The password, from env or a secret."),
        ])

    /// `auth.oauth`.
    static let authOAuth = SchemaMapping(
        "auth.oauth",
        [
            SchemaKey("client_id", .template, required: true, "The OAuth client's id."),
            SchemaKey("client_secret", .template, required: true, "The OAuth client's secret."),
            SchemaKey("user", .template, required: true, "The user name."),
            SchemaKey("password", .template, required: true, "The user's password."),
        ])

    /// `auth.oauth_jwt`: one of `private_key_file` and `private_key`.
    static let authOAuthJWT = SchemaMapping(
        "auth.oauth_jwt",
        [
            SchemaKey("client_id", .template, required: true, "The client_id of the instance's OAuth JWT application."),
            SchemaKey("client_secret", .template, required: true, "The application's client secret."),
            SchemaKey(
                "private_key_file", .template,
                "A PEM file of the unencrypted RSA private key that signs the assertions, relative to this file."),
            SchemaKey("private_key", .template, "The private key's PEM text itself, as ${env.NAME}."),
            SchemaKey(
                "kid", .template, required: true,
                "The key id of the application's JWT verifier map that holds the key's certificate."),
            SchemaKey(
                "user", .template, required: true,
                "The user the assertions name (sub), by the application's user field (user_name by default)."),
        ])

    /// `coder`.
    static let coder = SchemaMapping(
        "coder",
        [
            SchemaKey(
                "dates", .text,
                "servicenow (yyyy-MM-dd HH:mm:ss, the default), iso8601, or a date pattern such as dd/MM/yyyy HH:mm."),
            SchemaKey(
                "timezone", .text, "The time zone dates are shown and read in (UTC by default), as Europe/Paris."),
        ])

    /// The keys every step may have beside its kind.
    static let step = SchemaMapping(
        "the step",
        [
            SchemaKey("id", .name, "A name unique in the file; later steps see the result as steps.<id>."),
            SchemaKey("when", .expression, "The step runs only when this expression holds."),
            SchemaKey("retry", .mapping(retry), "Run the step again until it succeeds and until holds."),
            SchemaKey("continue_on_error", .boolean, "true: a failure is reported and the job goes on."),
            SchemaKey(
                "once", .boolean,
                "true: under nowflow run --shard K/N, the step runs on shard 1 only (not in a foreach's steps)."),
            SchemaKey("show", .show, "How many records of the result nowflow run shows: all, false or a number."),
            SchemaKey("tags", .names, "Names (letters, digits, _ and -) that --tags and --skip-tags choose steps by."),
        ])

    /// A step's `retry`.
    static let retry = SchemaMapping(
        "retry",
        [
            SchemaKey("attempts", .count(minimum: 1), "How many times the step runs at most, in all (3 by default)."),
            SchemaKey("delay", .duration, "The pause between attempts (1s by default)."),
            SchemaKey("until", .expression, "A condition on the step's own result that must hold as well."),
        ])

    /// Every kind of step, in the order diagnostics list them.
    static let kinds: [StepSchema] = [
        StepSchema(
            "query", .records, "Read the records of a table that match a filter, page by page.",
            .mapping(
                SchemaMapping(
                    "query",
                    [
                        table, filterQuery, filterWhere,
                        SchemaKey(
                            "fields", .names, role: .fields, "The fields to read (sys_id is always read); all by default."),
                        SchemaKey("limit", .count(minimum: 1), "The most records wanted; all by default."),
                        SchemaKey("page_size", .count(minimum: 1), "Records per request (min(limit, 100) by default)."),
                        SchemaKey("order_by", .template, role: .field, "A field to sort by, ascending."),
                        SchemaKey("order_by_desc", .template, role: .field, "A field to sort by, descending."),
                        displayValue, excludeReferenceLink,
                        SchemaKey(
                            "collect", .boolean,
                            "true: keep every record as steps.<id>.records even when the job does not use them whole."),
                        SchemaKey(
                            "paging", .choice(["keyed", "offset"]),
                            "keyed (the default): pages after the last record read in the sort (order_by, then sys_id), so records that change meanwhile shift nothing; offset: by sysparm_offset (also for a sort on a reference, boolean or dot-walked field)."),
                        SchemaKey("to", .template, "A file to write the records to, one JSON object a line, relative to the job file."),
                        SchemaKey("overwrite", .boolean, "true: the file of to: is replaced when it exists."),
                    ])), words: ["table"], results: ["records", "count", "streamed", "to"]),
        StepSchema(
            "get", .records, "Read one record by its sys_id.",
            .mapping(
                SchemaMapping(
                    "get",
                    [
                        table, SchemaKey("sys_id", .template, required: true, "The record's sys_id."),
                        SchemaKey(
                            "fields", .names, role: .fields, "The fields to read (sys_id is always read); all by default."),
                        displayValue, excludeReferenceLink,
                    ])), words: ["table", "sys_id"], results: ["record", "sys_id"]),
        StepSchema(
            "create", .records, "Create a record.",
            .mapping(
                SchemaMapping(
                    "create",
                    [
                        table,
                        SchemaKey("fields", .fieldValues, required: true, role: .fieldValues, "The new record's field values."),
                    ] + writeSettings)), words: ["table"], results: ["record", "sys_id"]),
        StepSchema(
            "update", .records, "Change a record by sys_id, or every record a filter selects (with max).",
            .mapping(
                SchemaMapping(
                    "update",
                    [table, targetSysID, filterWhere, filterQuery, targetMax("change")]
                        + [SchemaKey("fields", .fieldValues, required: true, role: .fieldValues, "The field values to write.")]
                        + writeSettings)), words: ["table", "sys_id"], results: ["record", "records", "sys_id", "sys_ids", "count"]),
        StepSchema(
            "delete", .records, "Delete a record by sys_id, or every record a filter selects (with max).",
            .mapping(SchemaMapping("delete", [table, targetSysID, filterWhere, filterQuery, targetMax("delete")])),
            words: ["table", "sys_id"], results: ["sys_id", "sys_ids", "count"]),
        StepSchema(
            "extract", "Take the value at a dot path of an expression's value.",
            .mapping(extractParameters), results: nil),
        StepSchema("set", "Assign variables, declared or new.", .variables, results: nil),
        StepSchema(
            "assert", "Stop the job unless a condition holds.",
            .expressionOrMapping(assertParameters), results: ["passed"]),
        StepSchema(
            "foreach", "Run steps once for each item of a list.", .expression,
            stepKeys: [
                SchemaKey("as", .name, "The item's name in the body (item by default)."),
                SchemaKey("steps", .steps, required: true, "The steps to run for each item."),
                SchemaKey(
                    "parallel", .count(minimum: 1),
                    "How many items may run at once (1 by default, at most \(ForeachStep.maximumParallel))."),
            ], results: ["results", "count"]),
        StepSchema(
            "include", "Run the steps of another job file, in a scope of their own.",
            .mapping(includeParameters), results: ["outputs"]),
        StepSchema(
            "ensure", "Make a record as it should be: create, update or delete it only when needed.",
            .mapping(ensureParameters), results: ["result", "changed", "sys_id", "record", "fields", "changes"]),
        StepSchema(
            "http", "Send one request to any API of the instance, and check its answer.",
            .mapping(httpParameters), results: ["status", "headers", "body"]),
        StepSchema(
            "attach", .attachments, "Attach a file or a text to a record.",
            .mapping(
                SchemaMapping(
                    "attach",
                    [
                        table, SchemaKey("sys_id", .template, required: true, "The record's sys_id."),
                        SchemaKey("file", .template, "The file to upload, relative to the job file."),
                        SchemaKey("content", .template, "A text to upload instead of a file."),
                        SchemaKey("name", .template, "The attachment's file name (required with content)."),
                        SchemaKey(
                            "content_type", .template, "The attachment's type (from the name's extension by default)."),
                    ])), words: ["table", "sys_id", "file"], results: ["attachment", "sys_id"]),
        StepSchema(
            "download", .attachments, "Write an attachment's bytes to a file.",
            .mapping(
                SchemaMapping(
                    "download",
                    [
                        SchemaKey("attachment", .template, "The attachment's sys_id."),
                        SchemaKey("table", .template, role: .table, "The record's table, instead of attachment."),
                        SchemaKey("sys_id", .template, "The record's sys_id, instead of attachment."),
                        SchemaKey("file_name", .template, "The attachment's file name, instead of attachment."),
                        SchemaKey("to", .template, required: true, "The file to write, relative to the job file."),
                        SchemaKey("overwrite", .boolean, "true: a file that exists is replaced."),
                    ])), words: ["attachment", "to"], results: ["attachment", "sys_id", "path"]),
        StepSchema(
            "attachments", .attachments, "List a record's attachments.",
            .mapping(
                SchemaMapping(
                    "attachments", [table, SchemaKey("sys_id", .template, required: true, "The record's sys_id.")])),
            words: ["table", "sys_id"], results: ["attachments", "count"]),
        StepSchema(
            "aggregate", .attachments, "Count, sum, average, minimum and maximum of records, by group if asked.",
            .mapping(
                SchemaMapping(
                    "aggregate",
                    [
                        table, filterQuery, filterWhere,
                        SchemaKey("count", .boolean, "Whether to count the records (true by default)."),
                        SchemaKey("sum", .names, role: .fields, "Fields to sum."),
                        SchemaKey("avg", .names, role: .fields, "Fields to average."),
                        SchemaKey("min", .names, role: .fields, "Fields whose minimum is wanted."),
                        SchemaKey("max", .names, role: .fields, "Fields whose maximum is wanted."),
                        SchemaKey("group_by", .names, role: .fields, "Fields to group by."),
                        SchemaKey("having", .template, "The Aggregate API's sysparm_having, as count^*^>^1."),
                        SchemaKey("order_by", .template, "The Aggregate API's sysparm_order_by, as COUNT^DESC."),
                        SchemaKey("display_value", .boolean, "true: a group's values as their display values."),
                    ])), words: ["table"], results: ["stats"]),
        StepSchema(
            "change", "Create a change request or take one, and move it through its model's states.",
            .mapping(changeParameters), results: ["sys_id", "number", "state", "record"]),
        StepSchema(
            "import", "Load rows into an import set table; the instance transforms each into its target.",
            .mapping(importParameters),
            results: ["import_set_id", "multi_import_set_id", "rows", "count", "inserted", "updated", "ignored", "errors"]),
        StepSchema(
            "order", "Order a catalog item, and wait for its request's requested items and tasks.",
            .mapping(orderParameters), results: ["sys_id", "number", "items", "tasks"]),
    ]

    /// The parameters of `extract`.
    static let extractParameters = SchemaMapping(
        "extract",
        [
            SchemaKey("from", .expression, required: true, "The value to read from."),
            SchemaKey("path", .text, required: true, "A dot path such as records.0.sys_id."),
        ])

    /// The parameters of `assert` written as a mapping.
    static let assertParameters = SchemaMapping(
        "assert",
        [
            SchemaKey("that", .expression, required: true, "The condition."),
            SchemaKey("message", .template, "What a failure says."),
        ])

    /// The parameters of `include`.
    static let includeParameters = SchemaMapping(
        "include",
        [
            SchemaKey("file", .text, required: true, "The job file, relative to this one."),
            SchemaKey("with", .variables, "Values for the included job's variables."),
        ])

    /// The parameters of `ensure`.
    static let ensureParameters = SchemaMapping(
        "ensure",
        [
            table,
            SchemaKey("match", .fieldValues, role: .conditions, "field: value pairs that find the record."),
            SchemaKey("query", .template, role: .encodedQuery, "An encoded query that finds the record, instead of match."),
            SchemaKey("fields", .fieldValues, role: .fieldValues, "The field values the record must have."),
            SchemaKey(
                "state", .choice(["present", "absent"]),
                "present (the default) or absent (the record is deleted)."),
        ] + writeSettings)

    /// The parameters of `http`.
    static let httpParameters = SchemaMapping(
        "http",
        [
            SchemaKey(
                "method", .choice(HTTPMethod.allCases.map(\.name), templated: true),
                "The request's method (GET by default)."),
            SchemaKey(
                "path", .template, required: true,
                "The path below the instance URL, starting with /, as /api/now/stats/incident."),
            SchemaKey("query", .scalars, "Query parameters."),
            SchemaKey("headers", .scalars, "Request headers."),
            SchemaKey("body", .value, "The body: a mapping or list is sent as JSON, a text as it is."),
            SchemaKey("expect", .mapping(httpExpect), "What the answer must be."),
        ])

    /// `http.expect`.
    static let httpExpect = SchemaMapping(
        "http.expect",
        [
            SchemaKey("status", .integers(100...599), "The status wanted, or a list of them (any 2xx by default)."),
            SchemaKey("headers", .scalars, "Texts the answer's headers contain."),
            SchemaKey("json", .pathValues, "Values wanted at dot paths of the JSON body."),
        ])

    /// The fields of an `aggregate` step's result with `group_by` (its ``StepSchema/results`` are those without).
    static let groupedAggregateResults = ["groups", "count"]

    /// The kinds of `group`'s, in order.
    static func kindNames(_ group: StepSchema.Group) -> [String] {
        kinds.filter { $0.group == group }.map(\.name)
    }

    /// Every key a step of the kind `kind` may have: the common keys, every kind (one of which it has), and the
    /// keys the kind adds (`foreach`'s); the common keys and the kinds when the step has no kind.
    static func stepKeys(kind: String?) -> [String] {
        kind.flatMap { stepKeysOfKinds[$0] } ?? stepKeys
    }

    /// The common keys and the kinds, made once rather than for each step.
    private static let stepKeys = step.names + kinds.map(\.name)
    /// For each kind that adds keys beside it, ``stepKeys`` and those.
    private static let stepKeysOfKinds = Dictionary(
        uniqueKeysWithValues: kinds.filter { !$0.stepKeys.isEmpty }.map {
            ($0.name, stepKeys + $0.stepKeys.map(\.name))
        })

    /// The names of the keys of a step (the common keys, every kind's parameters and the keys a kind adds beside
    /// it) for which `holds` is true: `{ $0.isBoolean }` gives every key that takes `true` or `false`.
    static func stepKeyNames(where holds: (SchemaKey) -> Bool) -> Set<String> {
        let keys = step.keys + kinds.flatMap { ($0.parameters?.keys ?? []) + $0.stepKeys }
        return Set(keys.filter(holds).map(\.name))
    }

    /// The declaration of the kind `name`; nil when there is none.
    static func kind(_ name: String) -> StepSchema? {
        kindsByName[name]
    }

    private static let kindsByName = Dictionary(uniqueKeysWithValues: kinds.map { ($0.name, $0) })

    // MARK: - Keys several kinds share

    private static let table = SchemaKey(
        "table", .template, required: true, role: .table, "The table's name, as incident.")
    private static let filterQuery = SchemaKey(
        "query", .template, role: .encodedQuery, "An encoded query, as active=true^priority=1.")
    private static let filterWhere = SchemaKey("where", .conditions, role: .conditions, "Conditions on fields, ANDed.")
    private static let targetSysID = SchemaKey("sys_id", .template, "The record's sys_id, instead of where or query.")
    private static func targetMax(_ verb: String) -> SchemaKey {
        SchemaKey("max", .count(minimum: 1), "With where or query: the most records the step may \(verb).")
    }
    private static let displayValue = SchemaKey(
        "display_value", .displayValue, "false (the default), true or all: how the record's values come back.")
    private static let excludeReferenceLink = SchemaKey(
        "exclude_reference_link", .boolean, "true: references come back without their link.")
    private static let writeSettings = [
        displayValue, excludeReferenceLink,
        SchemaKey("input_display_value", .boolean, "true: the values written are display values."),
        SchemaKey("suppress_auto_sys_field", .boolean, "true: the instance does not set the sys_ fields."),
    ]
}
