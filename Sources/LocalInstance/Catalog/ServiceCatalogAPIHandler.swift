import Foundation
import NowData

/// The Service Catalog API (`/api/sn_sc/servicecatalog/...`, also `/api/sn_sc/v1/servicecatalog/...`) as
/// ServiceNow's documentation describes it, a thin translation between HTTP and ``ServiceCatalog``:
///
/// - `GET catalogs` (`sysparm_text` in the title, `sysparm_limit`, `sysparm_offset`), `GET catalogs/{sys_id}`,
///   `GET catalogs/{sys_id}/categories` (`sysparm_top_level_only`), `GET categories/{sys_id}`;
/// - `GET items` (`sysparm_catalog`, `sysparm_category`, `sysparm_text` in the name and descriptions),
///   `GET items/{sys_id}` with its `variables`;
/// - `POST items/{sys_id}/order_now` and `POST items/{sys_id}/add_to_cart` with `sysparm_quantity`,
///   `sysparm_requested_for`, `sysparm_also_request_for` and `variables`;
/// - `GET cart`, `DELETE cart/{cart_item_id}`, `DELETE cart/{sys_id}/empty`, `POST cart/submit_order` and
///   `POST cart/checkout` (one-step checkout, the platform's default: it orders as `submit_order` does).
///
/// Any authenticated user may browse and order, as on a PDI; what a user sees and may order is ``ServiceCatalog``'s
/// decision. Prices are in USD. Wish lists, order guides, record producers, delegation and two-step checkout are
/// not modelled: their paths answer 400 `Requested URI does not represent any resource`.
struct ServiceCatalogAPIHandler: Sendable {
    let catalog: ServiceCatalog

    /// A routed path of the API.
    enum Route: Equatable {
        case catalogs
        case catalog(String)
        case catalogCategories(String)
        case category(String)
        case items
        case item(String)
        case orderNow(String)
        case addToCart(String)
        case cart
        case cartItem(String)
        case emptyCart(String)
        case submitOrder
        case checkout
        /// A path of the API that names no resource the local instance has.
        case unknown
    }

    /// The route of `path` when it is under `/api/sn_sc/`, nil otherwise.
    static func route(_ path: String) -> Route? {
        var parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.count >= 2, parts[0] == "api", parts[1] == "sn_sc" else { return nil }
        parts.removeFirst(2)
        if let version = parts.first, version.count >= 2, version.hasPrefix("v"), Int(version.dropFirst()) != nil {
            parts.removeFirst()
        }
        guard parts.first == "servicecatalog" else { return .unknown }
        parts.removeFirst()
        switch parts.count {
        case 1:
            switch parts[0] {
            case "catalogs": return .catalogs
            case "items": return .items
            case "cart": return .cart
            default: return .unknown
            }
        case 2:
            switch (parts[0], parts[1]) {
            case ("catalogs", let id): return .catalog(id)
            case ("categories", let id): return .category(id)
            case ("items", let id): return .item(id)
            case ("cart", "submit_order"): return .submitOrder
            case ("cart", "checkout"): return .checkout
            case ("cart", let id): return .cartItem(id)
            default: return .unknown
            }
        case 3:
            switch (parts[0], parts[2]) {
            case ("catalogs", "categories"): return .catalogCategories(parts[1])
            case ("items", "order_now"): return .orderNow(parts[1])
            case ("items", "add_to_cart"): return .addToCart(parts[1])
            case ("cart", "empty"): return .emptyCart(parts[1])
            default: return .unknown
            }
        default: return .unknown
        }
    }

    /// The answer to a request of the user `access` is for, on `route`.
    func handle(_ request: NowHTTPRequest, route: Route, as access: AccessPolicy.Access) throws(TableAPIError)
        -> NowHTTPResponse
    {
        let method = request.method.uppercased()
        do {
            switch (method, route) {
            case (_, .unknown): throw TableAPIError.unknownResource
            case ("GET", .catalogs): return try list(request, catalogs(request, access))
            case ("GET", .catalog(let id)): return try answer(catalog(id, access))
            case ("GET", .catalogCategories(let id)): return try list(request, categories(of: id, request, access))
            case ("GET", .category(let id)): return try answer(category(id, access))
            case ("GET", .items): return try list(request, items(request, access))
            case ("GET", .item(let id)): return try answer(item(id, access))
            case ("POST", .orderNow(let id)):
                let order = try catalog.place(catalog.orderLines(id, try Self.body(request), access), by: access.userName)
                return answer([
                    "sys_id": .string(order.sysID), "number": .string(order.number),
                    "request_number": .string(order.number), "request_id": .string(order.sysID),
                    "table": "sc_request",
                ])
            case ("POST", .addToCart(let id)):
                let lines = try catalog.orderLines(id, try Self.body(request), access)
                let cart = try catalog.addToCart(lines, by: access.userName)
                return try answer(addedToCart(cart))
            case ("GET", .cart): return try answer(cartContents(catalog.cart(of: access.userName)))
            case ("DELETE", .cartItem(let id)):
                try catalog.removeCartItem(id, by: access.userName)
                return NowHTTPResponse(statusCode: 204)
            case ("DELETE", .emptyCart(let id)):
                try catalog.emptyCart(id, access)
                return NowHTTPResponse(statusCode: 204)
            case ("POST", .submitOrder), ("POST", .checkout):
                _ = try Self.body(request)
                let order = try catalog.submitCart(by: access.userName)
                return answer(["request_number": .string(order.number), "request_id": .string(order.sysID)])
            default: throw TableAPIError.methodNotSupported(method)
            }
        } catch let error as TableAPIError {
            throw error
        } catch {
            catalog.tables.log("local instance: \(method) \(request.path) failed: \(error)")
            throw .internalFailure
        }
    }

    // MARK: - Catalogs and categories

    /// The catalogs whose title holds `sysparm_text`.
    private func catalogs(_ request: NowHTTPRequest, _ access: AccessPolicy.Access) throws -> [JSONValue] {
        let text = Self.parameter(request, "sysparm_text")?.lowercased() ?? ""
        let visible = try catalog.items(catalog: nil, category: nil, text: nil, access)
        return try catalog.active("sc_catalog").filter {
            text.isEmpty || ($0["title"] ?? "").lowercased().contains(text)
        }.map { try catalogSummary($0, visible) }
    }

    /// A catalog as the list gives it.
    private func catalogSummary(_ record: StoredRecord, _ visible: [StoredRecord]) throws -> JSONValue {
        let id = record["sys_id"] ?? ""
        return [
            "title": .string(record["title"] ?? ""), "sys_id": .string(id),
            "has_categories": .bool(!(try catalog.active("sc_category", where: "\"sc_catalog\" = ?", [.text(id)]).isEmpty)),
            "has_items": .bool(visible.contains { Self.catalogs(of: $0).contains(id) }),
            "description": .string(record["description"] ?? ""), "desktop_image": .string(record["desktop_image"] ?? ""),
        ]
    }

    /// One catalog with its top-level categories.
    private func catalog(_ id: String, _ access: AccessPolicy.Access) throws -> JSONValue {
        guard let record = try catalog.activeRecord("sc_catalog", id) else {
            throw TableAPIError.invalidRecord("catalog", id)
        }
        let visible = try catalog.items(catalog: nil, category: nil, text: nil, access)
        guard case .object(var summary) = try catalogSummary(record, visible) else { return .null }
        let categories = try catalog.active("sc_category", where: "\"sc_catalog\" = ? AND \"parent\" IS NULL", [.text(id)])
        summary["categories"] = .array(
            categories.map {
                [
                    "header_image": .string($0["header_icon"] ?? ""), "sys_id": .string($0["sys_id"] ?? ""),
                    "description": Self.text($0["description"]), "title": .string($0["title"] ?? ""),
                ]
            })
        return .object(summary)
    }

    /// The categories of catalog `id` (only the top-level ones with `sysparm_top_level_only=true`).
    private func categories(of id: String, _ request: NowHTTPRequest, _ access: AccessPolicy.Access) throws
        -> [JSONValue]
    {
        guard try catalog.activeRecord("sc_catalog", id) != nil else { throw TableAPIError.invalidRecord("catalog", id) }
        let topLevel = Self.parameter(request, "sysparm_top_level_only") == "true"
        let visible = try catalog.items(catalog: nil, category: nil, text: nil, access)
        let all = try catalog.active("sc_category", where: "\"sc_catalog\" = ?", [.text(id)])
        return all.filter { !topLevel || ($0["parent"] ?? "").isEmpty }.map { category in
            let categoryID = category["sys_id"] ?? ""
            return [
                "title": .string(category["title"] ?? ""), "description": Self.text(category["description"]),
                "full_description": Self.text(category["full_description"]), "icon": .string(category["icon"] ?? ""),
                "header_icon": .string(category["header_icon"] ?? ""),
                "homepage_image": .string(category["homepage_image"] ?? ""),
                "count": .number(JSONNumber(visible.filter { $0["category"] == categoryID }.count)),
                "subcategories": .array(
                    all.filter { $0["parent"] == categoryID }.map {
                        ["sys_id": .string($0["sys_id"] ?? ""), "title": .string($0["title"] ?? "")]
                    }),
                "sys_id": .string(categoryID),
            ]
        }
    }

    /// One category with its child categories.
    private func category(_ id: String, _ access: AccessPolicy.Access) throws -> JSONValue {
        guard let record = try catalog.activeRecord("sc_category", id) else {
            throw TableAPIError.invalidRecord("category", id)
        }
        let visible = try catalog.items(catalog: nil, category: nil, text: nil, access)
        let children = try catalog.active("sc_category", where: "\"parent\" = ?", [.text(id)])
        return [
            "title": .string(record["title"] ?? ""), "description": Self.text(record["description"]),
            "full_description": Self.text(record["full_description"]), "icon": .string(record["icon"] ?? ""),
            "header_icon": .string(record["header_icon"] ?? ""),
            "homepage_image": .string(record["homepage_image"] ?? ""), "sys_id": .string(id),
            "child_categories": .array(
                try children.map { child in
                    let childID = child["sys_id"] ?? ""
                    let grandchildren = try catalog.active("sc_category", where: "\"parent\" = ?", [.text(childID)])
                    return [
                        "sys_id": .string(childID), "title": .string(child["title"] ?? ""),
                        "count": .number(JSONNumber(visible.filter { $0["category"] == childID }.count)),
                        "parent": .string(id),
                        "subcategories": .array(
                            grandchildren.map {
                                ["sys_id": .string($0["sys_id"] ?? ""), "title": .string($0["title"] ?? "")]
                            }),
                        "isParentCategory": .bool(!grandchildren.isEmpty),
                    ]
                }),
        ]
    }

    // MARK: - Items

    /// The items of `sysparm_catalog` and `sysparm_category` whose name or descriptions hold `sysparm_text`.
    private func items(_ request: NowHTTPRequest, _ access: AccessPolicy.Access) throws -> [JSONValue] {
        try catalog.items(
            catalog: Self.parameter(request, "sysparm_catalog"), category: Self.parameter(request, "sysparm_category"),
            text: Self.parameter(request, "sysparm_text"), access
        ).map { try itemSummary($0) }
    }

    /// An item as the list gives it.
    private func itemSummary(_ item: StoredRecord) throws -> JSONValue {
        let price = ServiceCatalog.price(item)
        let recurring = Double(item["recurring_price"] ?? "") ?? 0
        let category = try (item["category"]).flatMap { try catalog.record("sc_category", $0) }
        return [
            "short_description": .string(item["short_description"] ?? ""), "kb_article": "", "icon": .string(item["icon"] ?? ""),
            "description": .string(item["description"] ?? ""), "availability": .string(item["availability"] ?? ""),
            "mandatory_attachment": .bool(item["mandatory_attachment"] == "true"),
            "request_method": .string(item["request_method"] ?? ""), "show_price": .bool(price > 0),
            "recurring_price": .string(Self.money(recurring)), "type": "catalog_item",
            "show_quantity": .bool(item["no_quantity"] != "true"), "local_currency": "USD",
            "sys_class_name": .string(item["sys_class_name"] ?? "sc_cat_item"), "picture": .string(item["picture"] ?? ""),
            "url": "", "sys_id": .string(item["sys_id"] ?? ""), "recurring_price_currency": "USD", "content_type": "",
            "localized_price": .string(Self.money(price)), "price": .string(Self.money(price)),
            "catalogs": .array(
                try Self.catalogs(of: item).compactMap { try catalog.record("sc_catalog", $0) }.map {
                    ["sys_id": .string($0["sys_id"] ?? ""), "active": .bool($0["active"] == "true"),
                     "title": .string($0["title"] ?? "")]
                }),
            "recurring_frequency": Self.text(item["recurring_frequency"]), "name": .string(item["name"] ?? ""),
            "localized_recurring_price": .string(Self.money(recurring)),
            "category": category.map {
                ["sys_id": .string($0["sys_id"] ?? ""), "title": .string($0["title"] ?? "")]
            } ?? .null,
            "price_currency": "USD", "order": .number(JSONNumber(Int(item["order"] ?? "") ?? 0)),
        ]
    }

    /// One item with its categories and variables.
    private func item(_ id: String, _ access: AccessPolicy.Access) throws -> JSONValue {
        guard let item = try catalog.activeRecord("sc_cat_item", id), try catalog.mayOrder(item, access) else {
            throw TableAPIError.invalidRecord("item", id)
        }
        guard case .object(var result) = try itemSummary(item) else { return .null }
        var categories: [JSONValue] = []
        if let category = try item["category"].flatMap({ try catalog.record("sc_category", $0) }) {
            let parent = try category["parent"].flatMap { try catalog.record("sc_category", $0) }
            categories.append([
                "sys_id": .string(parent?["sys_id"] ?? category["sys_id"] ?? ""),
                "active": .bool((parent ?? category)["active"] == "true"),
                "category": [
                    "sys_id": .string(category["sys_id"] ?? ""), "active": .bool(category["active"] == "true"),
                    "title": .string(category["title"] ?? ""),
                ],
                "title": .string(parent?["title"] ?? category["title"] ?? ""),
            ])
        }
        result["categories"] = .array(categories)
        result["variables"] = .array(try catalog.variables(of: item).map(variable))
        result["ui_policy"] = []
        result["client_script"] = ["onChange": [], "onSubmit": [], "onLoad": []]
        result["data_lookup"] = []
        return .object(result)
    }

    /// A variable as an item's `variables` gives it (its choices for a select box or multiple choice).
    private func variable(_ record: StoredRecord) throws -> JSONValue {
        let number = Int(record["type"] ?? "") ?? CatalogVariableType.singleLineText.rawValue
        let type = CatalogVariableType(rawValue: number)
        let value = record["default_value"] ?? ""
        var result: JSONObject = [
            "active": .bool(record["active"] == "true"), "label": .string(record["question_text"] ?? ""),
            "type": .number(JSONNumber(number)), "mandatory": .bool(record["mandatory"] == "true"),
            "displayvalue": .string(value), "friendly_type": .string(type?.friendlyType ?? ""),
            "display_type": .string(type?.label ?? ""), "read_only": .bool(record["read_only"] == "true"),
            "name": .string(record["name"] ?? ""), "id": .string(record["sys_id"] ?? ""), "value": .string(value),
            "help_text": .string(record["help_text"] ?? ""),
            "order": .number(JSONNumber(Int(record["order"] ?? "") ?? 0)),
        ]
        if type?.hasChoices == true {
            result["choices"] = .array(
                try catalog.choices(of: record).enumerated().map { index, choice in
                    [
                        "index": .number(JSONNumber(index)), "label": .string(choice["text"] ?? ""),
                        "value": .string(choice["value"] ?? ""),
                    ]
                })
        }
        return .object(result)
    }

    // MARK: - Cart

    /// `add_to_cart`'s answer: the cart's id, subtotal and items.
    private func addedToCart(_ cart: StoredRecord) throws -> JSONValue {
        let entries = try cartEntries(cart)
        return [
            "cart_id": .string(cart["sys_id"] ?? ""),
            "subtotal": .string(Self.money(entries.reduce(0) { $0 + $1.subtotal })),
            "items": .array(
                entries.map { entry in
                    [
                        "catalog_item_id": .string(entry.item["sys_id"] ?? ""), "quantity": .string(String(entry.quantity)),
                        "localized_price": .string(Self.money(entry.price)), "price": .string(Self.money(entry.price)),
                        "recurring_frequency": Self.text(entry.item["recurring_frequency"]),
                        "localized_recurring_price": .string(Self.money(entry.recurring)),
                        "recurring_price": .string(Self.money(entry.recurring)),
                        "item_name": .string(entry.item["name"] ?? ""),
                        "cart_item_id": .string(entry.cartItem["sys_id"] ?? ""),
                    ]
                }),
        ]
    }

    /// `GET cart`'s answer: the cart's totals and its items grouped by recurring frequency (`none` without one).
    private func cartContents(_ cart: StoredRecord) throws -> JSONValue {
        let entries = try cartEntries(cart)
        let total = entries.reduce(0) { $0 + $1.subtotal }
        let recurringTotal = entries.reduce(0) { $0 + $1.recurring * Double($1.quantity) }
        var result: JSONObject = [
            "cart_id": .string(cart["sys_id"] ?? ""), "subtotal_price": .string(Self.money(total)),
            "subtotal_recurring_frequency": "", "subtotal_recurring_price": .string(Self.money(recurringTotal)),
            "total_title": "Total",
        ]
        var frequencies: [String] = []
        for entry in entries where !frequencies.contains(entry.frequency) { frequencies.append(entry.frequency) }
        for frequency in frequencies {
            let group = entries.filter { $0.frequency == frequency }
            result[frequency] = [
                "subtotal_price": .string(Self.money(group.reduce(0) { $0 + $1.subtotal })),
                "subtotal_recurring_frequency": .string(frequency == "none" ? "" : frequency),
                "subtotal_recurring_price": .string(
                    Self.money(group.reduce(0) { $0 + $1.recurring * Double($1.quantity) })),
                "total_title": "Total", "frequency_label": frequency == "none" ? .null : .string(frequency),
                "items": .array(try group.map(cartItem)), "show_subtotal_price": "true", "subtotal_title": "Subtotal",
            ]
        }
        result["show_subtotal_price"] = "true"
        result["subtotal_title"] = "Subtotal"
        return .object(result)
    }

    /// A cart item with its catalog item, quantity and prices.
    private struct CartEntry {
        var cartItem: StoredRecord
        var item: StoredRecord
        var quantity: Int
        var price: Double
        var recurring: Double
        var frequency: String
        var subtotal: Double { price * Double(quantity) }
    }

    /// The entries of `cart`, oldest first (an item since deleted from the catalog is left out).
    private func cartEntries(_ cart: StoredRecord) throws -> [CartEntry] {
        try catalog.cartItems(cart).compactMap { cartItem in
            guard let item = try catalog.record("sc_cat_item", cartItem["cat_item"] ?? "") else { return nil }
            let frequency = item["recurring_frequency"] ?? ""
            return CartEntry(
                cartItem: cartItem, item: item, quantity: Int(cartItem["quantity"] ?? "") ?? 1,
                price: ServiceCatalog.price(item), recurring: Double(item["recurring_price"] ?? "") ?? 0,
                frequency: frequency.isEmpty ? "none" : frequency)
        }
    }

    /// One entry of a frequency group's `items`.
    private func cartItem(_ entry: CartEntry) throws -> JSONValue {
        let variables = try catalog.cartVariables(entry.cartItem)
        let id = entry.cartItem["sys_id"] ?? ""
        return [
            "updated_on": .string(entry.cartItem["sys_updated_on"] ?? ""),
            "catalog_item_id": .string(entry.item["sys_id"] ?? ""),
            "short_description": .string(entry.item["short_description"] ?? ""),
            "recurring_subtotal_price": .string(Self.money(entry.recurring * Double(entry.quantity))),
            "delivery_time": .string(entry.item["delivery_time"] ?? ""),
            "sys_class_name": .string(entry.item["sys_class_name"] ?? "sc_cat_item"), "sys_id": .string(id),
            "price": .string(Self.money(entry.price)), "recurring_frequency": Self.text(entry.item["recurring_frequency"]),
            "subtotal_price": .string(Self.money(entry.subtotal)),
            "variables": .object(JSONObject(variables.map { ($0.name, JSONValue.string($0.value)) })),
            "quantity": .string(String(entry.quantity)), "item_id": .string(entry.item["sys_id"] ?? ""),
            "recurring_price": .string(Self.money(entry.recurring)), "show_price": .bool(entry.price > 0),
            "item_name": .string(entry.item["name"] ?? ""), "cart_item_id": .string(id),
            "recurring_subtotal": .number(JSONNumber(entry.recurring * Double(entry.quantity)) ?? JSONNumber(0)),
            "show_quantity": .bool(entry.item["no_quantity"] != "true"),
            "created_by": .string(entry.cartItem["sys_created_by"] ?? ""), "picture": .string(entry.item["picture"] ?? ""),
            "created_on": .string(entry.cartItem["sys_created_on"] ?? ""),
            "localized_price": .string(Self.money(entry.price)),
            "subtotal": .number(JSONNumber(entry.subtotal) ?? JSONNumber(0)),
            "show_recurring_price": .bool(entry.recurring > 0), "name": .string(entry.item["name"] ?? ""),
            "updated_by": .string(entry.cartItem["sys_updated_by"] ?? ""),
            "localized_recurring_price": .string(Self.money(entry.recurring)), "order_guide": "",
        ]
    }

    // MARK: - Support

    /// 200 with `{"result": result}`.
    private func answer(_ result: JSONValue) -> NowHTTPResponse {
        NowHTTPResponse(
            statusCode: 200, headers: catalog.tables.jsonHeaders, body: JSONValue.object(["result": result]).jsonData())
    }

    /// 200 with one page of `results`: `sysparm_offset` (default 0) and `sysparm_limit` (default 10000).
    private func list(_ request: NowHTTPRequest, _ results: [JSONValue]) -> NowHTTPResponse {
        let offset = max(0, Self.parameter(request, "sysparm_offset").flatMap { Int($0) } ?? 0)
        let limit = max(0, Self.parameter(request, "sysparm_limit").flatMap { Int($0) } ?? 10000)
        let page = offset >= results.count ? [] : Array(results[offset..<min(results.count, offset + limit)])
        return answer(.array(page))
    }

    /// The value of the query parameter `name`; nil when absent or empty.
    private static func parameter(_ request: NowHTTPRequest, _ name: String) -> String? {
        guard let value = request.queryItems.last(where: { $0.name == name })?.value, !value.isEmpty else { return nil }
        return value
    }

    /// The request's JSON object body (no body and no Content-Type is an empty object); a body that is not
    /// `application/json` is refused as the Table API refuses it (400 without a Content-Type, 415 with another),
    /// and so is a Content-Type other than JSON on an empty body (what a form of another site sends).
    static func body(_ request: NowHTTPRequest) throws(TableAPIError) -> JSONObject {
        let data = request.body ?? Data()
        if data.isEmpty, (request.headers.value(named: "Content-Type") ?? "").isEmpty { return JSONObject() }
        try TableAPIHandler.requireJSON(request)
        if data.isEmpty { return JSONObject() }
        guard case .object(let body) = (try? JSONValue(json: data)) ?? .null else { throw TableAPIError.invalidBody }
        return body
    }

    /// The catalogs an item is in.
    private static func catalogs(of item: StoredRecord) -> [String] {
        (item["sc_catalogs"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Text, or null when empty (as the platform answers an empty description).
    private static func text(_ value: String?) -> JSONValue {
        guard let value, !value.isEmpty else { return .null }
        return .string(value)
    }

    /// An amount in USD as the API shows it: `$1,100.00`.
    static func money(_ amount: Double) -> String {
        let cents = Int64((amount * 100).rounded())
        let whole = String(abs(cents) / 100)
        var grouped = ""
        for (index, digit) in whole.enumerated() {
            if index > 0, (whole.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return (cents < 0 ? "-" : "") + "$" + grouped + "." + String(format: "%02d", abs(cents) % 100)
    }
}
