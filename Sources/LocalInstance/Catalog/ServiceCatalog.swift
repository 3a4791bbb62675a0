import Foundation
import NowData

/// The Service Catalog over the store: what a user may see and order (catalogs, categories and items), the user's
/// cart, and orders, which create the records ``TableDictionary/catalogFulfillment`` declares. The Service Catalog
/// API (``ServiceCatalogAPIHandler``) only translates between HTTP and this.
///
/// Visibility: an inactive catalog, category or item is not there; an item with `roles` is there only for a user
/// who holds one of them (or `admin`), through the same ``AccessPolicy/Access`` as every route. The records an
/// order creates are written by the catalog itself, not through the Table API, so a user without roles can order
/// (as on the platform, where ordering does not need the ACLs of `sc_request`); they are stamped with the user.
struct ServiceCatalog: Sendable {
    let tables: TableAPIHandler

    var dictionary: TableDictionary { tables.dictionary }

    /// One requested item of an order: a catalog item, its quantity, the user it is for and its variables' values
    /// by variable name.
    struct OrderLine: Sendable {
        var item: StoredRecord
        var quantity: Int
        var requestedFor: String
        var variables: [String: String]
    }

    /// The request an order created.
    struct PlacedOrder: Sendable, Equatable {
        var sysID: String
        var number: String
    }

    // MARK: - Reads

    /// The table `name`, which the built-in dictionary has.
    func table(_ name: String) throws(TableAPIError) -> TableDefinition {
        guard let table = dictionary.table(name) else { throw TableAPIError.internalFailure }
        return table
    }

    /// The active records of `table` matching `condition`, by `order` (when the table has it) and display field.
    func active(_ tableName: String, where condition: String = "", _ parameters: [SQLValue] = []) throws
        -> [StoredRecord]
    {
        let table = try table(tableName)
        let ordering =
            (table.field("order") != nil ? "\"order\", " : "") + "\"\(table.displayField)\""
        return try tables.database.read { db in
            try tables.store.select(
                table, where: "\"active\" = 1" + (condition.isEmpty ? "" : " AND (\(condition))"), parameters,
                orderBy: ordering, limit: -1, offset: 0, db)
        }
    }

    /// The active record `sysID` of `table`, if there is one.
    func activeRecord(_ tableName: String, _ sysID: String) throws -> StoredRecord? {
        try active(tableName, where: "\"sys_id\" = ?", [.text(sysID)]).first
    }

    /// The record `sysID` of `table`, active or not.
    func record(_ tableName: String, _ sysID: String) throws -> StoredRecord? {
        let table = try table(tableName)
        return try tables.database.read { db in try tables.store.fetch(table, sysID: sysID, db) }
    }

    /// Whether the user may see and order `item`: it names no roles, or the user holds one of them.
    func mayOrder(_ item: StoredRecord, _ access: AccessPolicy.Access) throws -> Bool {
        let roles = (item["roles"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        if roles.isEmpty { return true }
        return try roles.contains { try access.holds($0) }
    }

    /// The items the user may order, in catalog `catalog` and category `category` when given, whose name or
    /// descriptions hold `text` (ignoring ASCII case) when given.
    func items(catalog: String?, category: String?, text: String?, _ access: AccessPolicy.Access) throws
        -> [StoredRecord]
    {
        var conditions: [String] = []
        var parameters: [SQLValue] = []
        if let catalog {
            conditions.append("',' || \"sc_catalogs\" || ',' LIKE ? ESCAPE '\\'")
            parameters.append(.text("%," + Self.escaped(catalog) + ",%"))
        }
        if let category {
            conditions.append("\"category\" = ?")
            parameters.append(.text(category))
        }
        if let text, !text.isEmpty {
            conditions.append(
                "(\"name\" LIKE ? ESCAPE '\\' OR \"short_description\" LIKE ? ESCAPE '\\' OR \"description\" LIKE ? "
                    + "ESCAPE '\\')")
            let pattern = SQLValue.text("%" + Self.escaped(text) + "%")
            parameters += [pattern, pattern, pattern]
        }
        return try active("sc_cat_item", where: conditions.joined(separator: " AND "), parameters).filter {
            try mayOrder($0, access)
        }
    }

    /// The active variables of `item`, by order.
    func variables(of item: StoredRecord) throws -> [StoredRecord] {
        try active("item_option_new", where: "\"cat_item\" = ?", [.text(item["sys_id"] ?? "")])
    }

    /// The choices of `variable`, by order.
    func choices(of variable: StoredRecord) throws -> [StoredRecord] {
        let table = try table("question_choice")
        return try tables.database.read { db in
            try tables.store.select(
                table, where: "\"question\" = ?", [.text(variable["sys_id"] ?? "")], orderBy: "\"order\", \"text\"",
                limit: -1, offset: 0, db)
        }
    }

    // MARK: - Orders

    /// The lines an order of `itemSysID` with the API's body makes: `sysparm_quantity` (required, at least 1),
    /// `sysparm_requested_for` (a user's sys_id or user name; the ordering user when absent),
    /// `sysparm_also_request_for` (comma-separated users, one more line each) and `variables`.
    ///
    /// - Throws: the platform's 400s: an item the user may not order, an invalid quantity, a missing mandatory
    ///   variable, an unknown user.
    func orderLines(_ itemSysID: String, _ body: JSONObject, _ access: AccessPolicy.Access) throws -> [OrderLine] {
        guard let item = try activeRecord("sc_cat_item", itemSysID), try mayOrder(item, access) else {
            throw TableAPIError.itemNotOrderable(itemSysID)
        }
        let quantity = try Self.quantity(body["sysparm_quantity"])
        let variables = try self.values(of: item, body["variables"])
        var people = [try user(body["sysparm_requested_for"], default: access.userName, parameter: "sysparm_requested_for")]
        if case .string(let others) = body["sysparm_also_request_for"] ?? .null {
            for other in others.split(separator: ",") where !other.trimmingCharacters(in: .whitespaces).isEmpty {
                let person = try user(
                    .string(other.trimmingCharacters(in: .whitespaces)), default: access.userName,
                    parameter: "sysparm_also_request_for")
                if !people.contains(person) { people.append(person) }
            }
        }
        return people.map { OrderLine(item: item, quantity: quantity, requestedFor: $0, variables: variables) }
    }

    /// Creates the request, requested items, ordered variables and catalog tasks of `lines`, as the user
    /// `userName`, in one transaction.
    func place(_ lines: [OrderLine], by userName: String) throws -> PlacedOrder {
        let fulfillment = TableDictionary.catalogFulfillment
        let timestamp = Timestamp.string(tables.now())
        return try tables.database.write { db in
            let opener = try tables.userSysID(userName, db) ?? ""
            let insert = { (name: String, values: StoredRecord) throws -> StoredRecord in
                try tables.insertRecord(try table(name), values, by: userName, userSysID: opener, timestamp, db)
            }
            let total = lines.reduce(0.0) { $0 + Self.price($1.item) * Double($1.quantity) }
            var values = fulfillment.request
            values["requested_for"] = lines.first?.requestedFor ?? opener
            values["opened_by"] = opener
            values["price"] = Self.decimal(total)
            values["short_description"] = lines.first.map { Self.name($0.item) } ?? ""
            let request = try insert("sc_request", values)
            let requestID = request["sys_id"] ?? ""
            let variablesTable = try table("item_option_new")
            for line in lines {
                let itemID = line.item["sys_id"] ?? ""
                let hasTask = !(line.item["group"] ?? "").isEmpty
                var values = fulfillment.requestedItem
                values["request"] = requestID
                values["cat_item"] = itemID
                values["sc_catalog"] = Self.firstCatalog(line.item)
                values["quantity"] = String(line.quantity)
                values["price"] = line.item["price"] ?? "0"
                values["recurring_price"] = line.item["recurring_price"] ?? "0"
                values["recurring_frequency"] = line.item["recurring_frequency"] ?? ""
                values["requested_for"] = line.requestedFor
                values["opened_by"] = opener
                values["short_description"] = Self.name(line.item)
                if hasTask { values["stage"] = fulfillment.stageWithTask }
                let requestedItem = try insert("sc_req_item", values)
                let requestedItemID = requestedItem["sys_id"] ?? ""
                let variables = try tables.store.select(
                    variablesTable, where: "\"cat_item\" = ? AND \"active\" = 1", [.text(itemID)],
                    orderBy: "\"order\", \"name\"", limit: -1, offset: 0, db)
                for variable in variables {
                    let option = try insert(
                        "sc_item_option",
                        [
                            "item_option_new": variable["sys_id"] ?? "",
                            "value": line.variables[variable["name"] ?? ""] ?? "", "order": variable["order"] ?? "",
                        ])
                    _ = try insert(
                        "sc_item_option_mtom",
                        ["request_item": requestedItemID, "sc_item_option": option["sys_id"] ?? ""])
                }
                if hasTask {
                    var task = fulfillment.task
                    task["request"] = requestID
                    task["request_item"] = requestedItemID
                    task["sc_catalog"] = values["sc_catalog"]
                    task["short_description"] = Self.name(line.item)
                    task["assignment_group"] = line.item["group"] ?? ""
                    task["opened_by"] = opener
                    _ = try insert("sc_task", task)
                }
            }
            return PlacedOrder(sysID: requestID, number: request["number"] ?? "")
        }
    }

    // MARK: - Carts

    /// The user's active cart, created when the user has none.
    func cart(of userName: String) throws -> StoredRecord {
        let carts = try table("sc_cart")
        let timestamp = Timestamp.string(tables.now())
        return try tables.database.write { db in
            let userID = try tables.userSysID(userName, db) ?? ""
            if let cart = try tables.store.select(
                carts, where: "\"user\" = ? AND \"active\" = 1", [.text(userID)], orderBy: "\"sys_created_on\"",
                limit: 1, offset: 0, db
            ).first {
                return cart
            }
            return try tables.insertRecord(
                carts, ["name": "DEFAULT", "user": userID, "requested_for": userID], by: userName, userSysID: userID,
                timestamp, db)
        }
    }

    /// The items of `cart`, oldest first.
    func cartItems(_ cart: StoredRecord) throws -> [StoredRecord] {
        let table = try table("sc_cart_item")
        return try tables.database.read { db in
            try tables.store.select(
                table, where: "\"cart\" = ?", [.text(cart["sys_id"] ?? "")], orderBy: "\"sys_created_on\"",
                limit: -1, offset: 0, db)
        }
    }

    /// The variables of a cart item, by variable name.
    func cartVariables(_ cartItem: StoredRecord) throws -> [(name: String, value: String)] {
        let options = try table("sc_item_option")
        let questions = try table("item_option_new")
        return try tables.database.read { db in
            try tables.store.select(
                options, where: "\"cart_item\" = ?", [.text(cartItem["sys_id"] ?? "")], orderBy: "\"order\"",
                limit: -1, offset: 0, db
            ).map { option in
                let name = try tables.store.fetch(questions, sysID: option["item_option_new"] ?? "", db)?["name"] ?? ""
                return (name, option["value"] ?? "")
            }
        }
    }

    /// Puts `lines` in the user's cart, each line a cart item with its variables; returns the cart.
    func addToCart(_ lines: [OrderLine], by userName: String) throws -> StoredRecord {
        let cart = try cart(of: userName)
        let timestamp = Timestamp.string(tables.now())
        try tables.database.write { db in
            let userID = try tables.userSysID(userName, db) ?? ""
            let questions = try table("item_option_new")
            for line in lines {
                let cartItem = try tables.insertRecord(
                    try table("sc_cart_item"),
                    [
                        "cart": cart["sys_id"] ?? "", "cat_item": line.item["sys_id"] ?? "",
                        "quantity": String(line.quantity), "requested_for": line.requestedFor,
                    ], by: userName, userSysID: userID, timestamp, db)
                let variables = try tables.store.select(
                    questions, where: "\"cat_item\" = ? AND \"active\" = 1", [.text(line.item["sys_id"] ?? "")],
                    orderBy: "\"order\", \"name\"", limit: -1, offset: 0, db)
                for variable in variables {
                    _ = try tables.insertRecord(
                        try table("sc_item_option"),
                        [
                            "item_option_new": variable["sys_id"] ?? "", "cart_item": cartItem["sys_id"] ?? "",
                            "value": line.variables[variable["name"] ?? ""] ?? "", "order": variable["order"] ?? "",
                        ], by: userName, userSysID: userID, timestamp, db)
                }
            }
        }
        return cart
    }

    /// Orders what the user's cart holds and empties it (the cart stays, with the same sys_id).
    ///
    /// - Throws: a 400 when the cart is empty.
    func submitCart(by userName: String) throws -> PlacedOrder {
        let cart = try cart(of: userName)
        let items = try cartItems(cart)
        guard !items.isEmpty else { throw TableAPIError.emptyCart }
        var lines: [OrderLine] = []
        for cartItem in items {
            guard let item = try record("sc_cat_item", cartItem["cat_item"] ?? "") else { continue }
            let variables = Dictionary(try cartVariables(cartItem).map { ($0.name, $0.value) }) { first, _ in first }
            lines.append(
                OrderLine(
                    item: item, quantity: Int(cartItem["quantity"] ?? "") ?? 1,
                    requestedFor: cartItem["requested_for"] ?? "", variables: variables))
        }
        let order = try place(lines, by: userName)
        try removeItems(of: cart, by: userName)
        return order
    }

    /// Removes the cart item `sysID` from the user's cart.
    ///
    /// - Throws: a 400 when the user's cart has no such item.
    func removeCartItem(_ sysID: String, by userName: String) throws {
        let cart = try cart(of: userName)
        let items = try table("sc_cart_item")
        let options = try table("sc_item_option")
        let removed = try tables.database.write { db -> Bool in
            guard let item = try tables.store.fetch(items, sysID: sysID, db), item["cart"] == cart["sys_id"] else {
                return false
            }
            try deleteOptions(of: [sysID], options, by: userName, db)
            return try tables.deleteRecord(items, sysID: sysID, by: userName, db)
        }
        guard removed else { throw TableAPIError.invalidCartItem(sysID) }
    }

    /// Empties and deletes the cart `sysID`: the user's own, or anyone's for a user who may write `sc_cart`
    /// (`catalog_admin`, `admin`).
    ///
    /// - Throws: a 400 for a cart that does not exist or is another user's the user may not empty.
    func emptyCart(_ sysID: String, _ access: AccessPolicy.Access) throws {
        let carts = try table("sc_cart")
        guard let cart = try record("sc_cart", sysID) else { throw TableAPIError.invalidCart(sysID) }
        let owner = try tables.database.read { db in try tables.userSysID(access.userName, db) }
        let mayEmpty = try cart["user"] == owner || access.mayWrite(carts)
        guard mayEmpty else { throw TableAPIError.invalidCart(sysID) }
        try removeItems(of: cart, by: access.userName)
        _ = try tables.database.write { db in
            try tables.deleteRecord(carts, sysID: sysID, by: access.userName, db)
        }
    }

    /// Removes every item of `cart` and their variables, on behalf of `userName`.
    private func removeItems(of cart: StoredRecord, by userName: String) throws {
        let items = try table("sc_cart_item")
        let options = try table("sc_item_option")
        try tables.database.write { db in
            let ids = try tables.store.select(
                items, where: "\"cart\" = ?", [.text(cart["sys_id"] ?? "")], orderBy: "", limit: -1, offset: 0, db
            ).compactMap { $0["sys_id"] }
            try deleteOptions(of: ids, options, by: userName, db)
            for id in ids { _ = try tables.deleteRecord(items, sysID: id, by: userName, db) }
        }
    }

    /// Deletes the variables of the cart items `ids`.
    private func deleteOptions(
        of ids: [String], _ options: TableDefinition, by userName: String, _ db: SQLiteConnection
    ) throws {
        for id in ids {
            for option in try tables.store.select(
                options, where: "\"cart_item\" = ?", [.text(id)], orderBy: "", limit: -1, offset: 0, db)
            {
                _ = try tables.deleteRecord(options, sysID: option["sys_id"] ?? "", by: userName, db)
            }
        }
    }

    // MARK: - Values

    /// `sysparm_quantity`: a whole number of at least 1, as a number or a string.
    private static func quantity(_ value: JSONValue?) throws(TableAPIError) -> Int {
        let text: String? =
            switch value {
            case .string(let text): text.trimmingCharacters(in: .whitespaces)
            case .number(let number): number.text
            default: nil
            }
        guard let text, let quantity = Int(text), quantity >= 1 else {
            throw .invalidQuantity(value.map { $0.jsonText() } ?? "none")
        }
        return quantity
    }

    /// The values of `item`'s variables from the body's `variables` (a string, number or boolean each; names the
    /// item does not have are ignored, as the platform ignores them), with the defaults of those not given (an
    /// unticked check box is `false`).
    ///
    /// - Throws: a 400 naming the mandatory variables without a value, or a value not among a variable's choices.
    private func values(of item: StoredRecord, _ given: JSONValue?) throws -> [String: String] {
        var values: [String: String] = [:]
        var missing: [String] = []
        let object = given?.object ?? JSONObject()
        for variable in try variables(of: item) {
            let name = variable["name"] ?? ""
            var value = variable["default_value"] ?? ""
            switch object[name] {
            case .string(let text)?: value = text
            case .number(let number)?: value = number.text
            case .bool(let flag)?: value = flag ? "true" : "false"
            default: break
            }
            let type = Int(variable["type"] ?? "").flatMap(CatalogVariableType.init)
            if type == .checkBox, value.isEmpty { value = "false" }
            if variable["mandatory"] == "true", value.isEmpty { missing.append(name) }
            if let type, type.hasChoices, !value.isEmpty {
                let allowed = try choices(of: variable).compactMap { $0["value"] }
                if !allowed.isEmpty, !allowed.contains(value) {
                    throw TableAPIError.invalidChoice(name, value: value, allowed: allowed)
                }
            }
            values[name] = value
        }
        guard missing.isEmpty else { throw TableAPIError.mandatoryVariables(missing) }
        return values
    }

    /// The sys_id of the user a parameter names by sys_id or user name; `userName`'s when it is absent or empty.
    private func user(_ value: JSONValue?, default userName: String, parameter: String) throws -> String {
        let users = try table("sys_user")
        let given = value?.string?.trimmingCharacters(in: .whitespaces) ?? ""
        let name = given.isEmpty ? userName : given
        let found = try tables.database.read { db in
            try tables.store.select(
                users, where: "\"sys_id\" = ? OR \"user_name\" = ?", [.text(name), .text(name)], orderBy: "",
                limit: 1, offset: 0, db
            ).first?["sys_id"]
        }
        guard let found else { throw TableAPIError.unknownUser(name, parameter: parameter) }
        return found
    }

    /// The item's price, 0 when it has none.
    static func price(_ item: StoredRecord) -> Double { Double(item["price"] ?? "") ?? 0 }

    /// The item's name (its short description when it has no name).
    private static func name(_ item: StoredRecord) -> String {
        let name = item["name"] ?? ""
        return name.isEmpty ? item["short_description"] ?? "" : name
    }

    /// The first of the item's catalogs.
    static func firstCatalog(_ item: StoredRecord) -> String {
        (item["sc_catalogs"] ?? "").split(separator: ",").first.map(String.init) ?? ""
    }

    /// A decimal as the dictionary stores it: `1100`, `12.5`.
    private static func decimal(_ value: Double) -> String {
        value == value.rounded() ? String(Int64(value)) : String(value)
    }

    /// `text` for a LIKE pattern with `\` as its escape character.
    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }
}
