import Foundation
import NowData

/// The `order` step, through NowData's `NowServiceCatalogService` (the Service Catalog API).
extension JobExecution {
    /// Orders the item (`order_now`), then reads the request's requested items until there are some (every second,
    /// at most `wait`) and their catalog tasks. Result: `sys_id` and `number` of the request, `items` (each
    /// `sys_id`, `number`, `cat_item`, `quantity`, `stage`, `state`) and `tasks` (each `sys_id`, `number`,
    /// `short_description`, `assignment_group`, `request_item`, `state`), references as sys_ids. A request with no
    /// requested item after the wait fails the step. A dry run finds the item and the user, keeps the order and
    /// answers stand-ins of the request and one requested item (which later steps may read and update), with no
    /// tasks.
    func perform(_ step: OrderStep, label: String, scope: Scope) async throws(StepFailure) -> (StepResult, String) {
        let catalog = NowServiceCatalogService(
            configuration: service.configuration, coreServiceProvider: service.coreServiceProvider)
        let itemName = try text(step.item, "order.item", scope: scope)
        let itemID = try await catalogItem(itemName, catalog)
        var order = NowCatalogOrder(itemSysId: itemID)
        if let quantity = step.quantity { order.quantity = try count(quantity, scope: scope) }
        if let requestedFor = step.requestedFor {
            order.requestedFor = try await user(try text(requestedFor, "order.requested_for", scope: scope))
        }
        for variable in step.variables {
            do {
                order.variables[variable.name] = try variable.value.evaluate(in: scope).text
            } catch {
                throw StepFailure("order.variables.\(variable.name): \(error.message)")
            }
        }
        if let dryRun {
            let request: NowHTTPRequest
            do {
                request = try NowServiceCatalogService.orderRequest(order, action: "order_now")
            } catch {
                throw StepFailure("order: \(error)")
            }
            let write = PlannedWrite(step: label, request: request, before: nil, masker: masker)
            planned.append(write)
            var requested: JSONObject = ["requested_for": .string(order.requestedFor ?? "")]
            let standIn = dryRun.standIn("sc_request", requested)
            requested["request"] = standIn["sys_id"]
            requested["cat_item"] = .string(itemID)
            requested["quantity"] = .string(String(order.quantity))
            let item = dryRun.standIn("sc_req_item", requested)
            let result: JSONValue = [
                "sys_id": standIn["sys_id"] ?? "", "number": "", "items": [.object(item)], "tasks": [],
            ]
            return (.value(result), "would order \(itemName) (quantity \(order.quantity)) (dry run)")
        }
        let request = try await calling { try await catalog.orderNow(order) }
        let items = try await requestedItems(of: request, waiting: step.wait)
        guard !items.isEmpty else {
            throw StepFailure(
                "order: \(request.number) has no requested item after \(step.wait); "
                    + "the instance made the request but not its items", fromInstance: true)
        }
        let itemIDs = items.compactMap { $0["sys_id"] }
        let tasks = try await records(
            "sc_task", EncodedQuery(matchingAll: [.init(field: "request_item", op: .isIn, value: itemIDs.joined(separator: ","))]),
            ["sys_id", "number", "short_description", "assignment_group", "request_item", "state"])
        let result: JSONValue = [
            "sys_id": .string(request.sysId), "number": .string(request.number),
            "items": .array(items.map(\.jsonValue)), "tasks": .array(tasks.map(\.jsonValue)),
        ]
        func numbers(_ records: [NowRecord]) -> String { records.compactMap { $0["number"] }.joined(separator: ", ") }
        var summary = "\(request.number): \(String(count: items.count, "requested item")) (\(numbers(items)))"
        summary += tasks.isEmpty ? ", no catalog task" : ", \(String(count: tasks.count, "catalog task")) (\(numbers(tasks)))"
        return (.value(result), summary)
    }

    /// The sys_id of the catalog item `name` (a sys_id is taken as it is): the first item the user may order whose
    /// name is exactly `name`.
    private func catalogItem(_ name: String, _ catalog: NowServiceCatalogService) async throws(StepFailure) -> String {
        guard !name.isEmpty else { throw StepFailure("order.item is empty") }
        if name.isSysID { return name }
        let found = try await calling { try await catalog.items(text: name) }
        guard let item = found.first(where: { $0.name == name }) else {
            throw StepFailure("order.item: no catalog item the job's user may order is named '\(name)'")
        }
        return item.sysId
    }

    /// The sys_id of the user `name` (a sys_id is taken as it is).
    private func user(_ name: String) async throws(StepFailure) -> String {
        guard !name.isEmpty else { throw StepFailure("order.requested_for is empty") }
        if name.isSysID { return name }
        let users = try await records(
            "sys_user", EncodedQuery(matchingAll: [.init(field: "user_name", op: .equals, value: name)]), ["sys_id"],
            limit: 1)
        guard let sysID = users.first?["sys_id"] else {
            throw StepFailure("order.requested_for: no user is named '\(name)'")
        }
        return sysID
    }

    /// The request's requested items, read every second until there are some or `wait` has passed.
    private func requestedItems(of request: NowCatalogRequest, waiting wait: Duration) async throws(StepFailure)
        -> [NowRecord]
    {
        let clock = ContinuousClock()
        let deadline = clock.now + wait
        while true {
            let items = try await records(
                "sc_req_item", EncodedQuery(matchingAll: [.init(field: "request", op: .equals, value: request.sysId)]),
                ["sys_id", "number", "cat_item", "quantity", "stage", "state"])
            guard items.isEmpty, clock.now < deadline else { return items }
            let pause = min(Duration.seconds(1), deadline - clock.now)
            if let interruption = options.interruption {
                _ = try? await interruption.cancellable { try await Task.sleep(for: pause) }
            } else {
                try? await Task.sleep(for: pause)
            }
            if let reason = interruptionReason { throw StepFailure(reason) }
        }
    }

    /// The records of `table` that `query` selects, oldest first, with `fields` (references as sys_ids).
    private func records(_ table: String, _ query: EncodedQuery, _ fields: [FieldName], limit: Int = 100)
        async throws(StepFailure) -> [NowRecord]
    {
        var ordered = query
        ordered.ordering = [.init(field: "sys_created_on", descending: false)]
        let configuration = FetchConfiguration(
            filter: Filter(query: ordered.text), limit: limit,
            readConfiguration: FieldReadConfiguration(includeFields: fields, options: .excludeReferenceLink))
        let data = try await calling { try await service.records(from: table, configuration: configuration) }
        return data.convertToRecords()
    }
}
