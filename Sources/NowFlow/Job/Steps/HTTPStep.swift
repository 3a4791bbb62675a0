/// `http`: one request to any API of the job's instance, with its credentials, and what its answer must be.
struct HTTPStep: Sendable, Hashable {
    /// `GET` unless given.
    var method: Template?
    /// The path below the instance URL, such as `/api/now/stats/incident`.
    var path: Template
    var query: [NamedTemplate]
    var headers: [NamedTemplate]
    /// A mapping or list is sent as JSON, a text as it is.
    var body: TemplateValue?
    var expect: HTTPExpectation?
}
