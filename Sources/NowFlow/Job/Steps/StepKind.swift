/// What a step does, with its parameters.
enum StepKind: Sendable {
    case query(QueryStep)
    case get(GetStep)
    case create(CreateStep)
    case update(UpdateStep)
    case delete(DeleteStep)
    case extract(ExtractStep)
    /// `set`: variables and their new values, in order.
    case set([NamedTemplate])
    case assert(AssertStep)
    case foreach(ForeachStep)
    case ensure(EnsureStep)
    case http(HTTPStep)
    /// `include`: the steps of another job file, in a scope of their own.
    case include(IncludeStep)

    /// Every kind key, as written in job files.
    static let names = [
        "query", "get", "create", "update", "delete", "extract", "set", "assert", "foreach", "include", "ensure", "http",
    ]

    /// The kind's key.
    var name: String {
        switch self {
        case .query: "query"
        case .get: "get"
        case .create: "create"
        case .update: "update"
        case .delete: "delete"
        case .extract: "extract"
        case .set: "set"
        case .assert: "assert"
        case .foreach: "foreach"
        case .ensure: "ensure"
        case .http: "http"
        case .include: "include"
        }
    }

    /// The fields of `steps.<id>` that this kind produces (nil: any path, as for `extract`).
    var resultFields: [String]? {
        switch self {
        case .query: ["records", "count"]
        case .get, .create: ["record", "sys_id"]
        case .update: ["record", "records", "sys_id", "sys_ids", "count"]
        case .delete: ["sys_id", "sys_ids", "count"]
        case .extract: nil
        case .set: nil
        case .assert: ["passed"]
        case .foreach: ["results", "count"]
        case .ensure: ["result", "changed", "sys_id", "record", "fields", "changes"]
        case .http: ["status", "headers", "body"]
        case .include: ["outputs"]
        }
    }
}
