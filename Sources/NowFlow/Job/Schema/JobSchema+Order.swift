/// The parameters of `order` (the Service Catalog API).
extension JobSchema {
    /// The parameters of `order`.
    static let orderParameters = SchemaMapping(
        "order",
        [
            SchemaKey(
                "item", .template, required: true,
                "The catalog item's name (as the catalog shows it to the job's user) or sys_id, as Standard Laptop."),
            SchemaKey("quantity", .count(minimum: 1), "How many (1 by default)."),
            SchemaKey("requested_for", .template, "The user it is for, by user name or sys_id (the job's user by default)."),
            SchemaKey("variables", .variables, "The item's variables, by name, as acrobat: true."),
            SchemaKey(
                "wait", .duration, "How long to wait for the request's requested items (30s by default; 0s: no wait)."),
        ])
}
