/// `order`: one catalog item ordered through the Service Catalog API (`order_now`), by its name or sys_id, for
/// `requested_for` (a user name or sys_id; the job's user when absent) with its `variables`, then its request
/// followed until the request's requested items are there (at most `wait`), with their catalog tasks.
struct OrderStep: Sendable, Hashable {
    /// The catalog item's name or sys_id.
    var item: Template
    /// How many (1 when absent).
    var quantity: CountSetting?
    /// The user the order is for, by user name or sys_id.
    var requestedFor: Template?
    /// The item's variables, by name.
    var variables: [NamedTemplate]
    /// How long to wait for the request's requested items.
    var wait: Duration

    /// The wait when the step gives none.
    static let defaultWait: Duration = .seconds(30)
}
