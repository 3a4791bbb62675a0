/// Reading `order`: the Service Catalog API.
extension JobBuilder {
    /// The `order` step, or nil after recording its problems.
    func order(_ node: YAMLNode) -> OrderStep? {
        guard let pairs = mapping(node, "order") else { return nil }
        if let parameters = JobSchema.kind("order")?.parameters { checkKeys(pairs, of: parameters) }
        let item = requiredTemplate(pairs, "item", in: "order", at: node.mark)
        let quantityNode = value(pairs, "quantity")
        let quantity = quantityNode.flatMap { count($0, "order.quantity", minimum: 1) }
        let requestedForNode = value(pairs, "requested_for")
        let requestedFor = requestedForNode.flatMap { templateText($0, "order.requested_for") }
        var variables: [NamedTemplate]? = []
        if let variablesNode = value(pairs, "variables") {
            if let given = mapping(variablesNode, "order.variables") {
                let values = given.compactMap { pair in
                    templateValue(pair.value).map { NamedTemplate(name: pair.name, value: $0) }
                }
                variables = values.count == given.count ? values : nil
            } else {
                variables = nil
            }
        }
        let waitNode = value(pairs, "wait")
        let wait: Duration? = if let waitNode { duration(waitNode, "order.wait") } else { OrderStep.defaultWait }
        guard let item, let variables, let wait, quantityNode == nil || quantity != nil,
            requestedForNode == nil || requestedFor != nil
        else { return nil }
        return OrderStep(item: item, quantity: quantity, requestedFor: requestedFor, variables: variables, wait: wait)
    }
}
