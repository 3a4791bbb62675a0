/// What a step does, with its parameters.
///
/// Indirect: the parameters of each kind are kept in a box of their own, so that a ``Step`` stays small whatever its
/// kind (a job's steps are an array of them) and a copy of a kind is one reference.
indirect enum StepKind: Sendable {
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
    case attach(AttachStep)
    case download(DownloadStep)
    case attachments(AttachmentsStep)
    case aggregate(AggregateStep)
    case change(ChangeStep)
    /// `import`: rows through an import set.
    case importRows(ImportStep)
    /// `order`: a catalog item ordered, its request followed.
    case order(OrderStep)
    /// `include`: the steps of another job file, in a scope of their own.
    case include(IncludeStep)

    /// Every kind key, as written in job files, in the order of ``JobSchema/kinds``.
    static let names = JobSchema.kinds.map(\.name)

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
        case .attach: "attach"
        case .download: "download"
        case .attachments: "attachments"
        case .aggregate: "aggregate"
        case .change: "change"
        case .importRows: "import"
        case .order: "order"
        case .include: "include"
        }
    }

    /// The fields of `steps.<id>` that this kind produces (nil: any path, as for `extract`), as ``JobSchema``
    /// declares them.
    var resultFields: [String]? {
        if case .aggregate(let step) = self, !step.groupBy.isEmpty { return JobSchema.groupedAggregateResults }
        return JobSchema.kind(name)?.results
    }
}
