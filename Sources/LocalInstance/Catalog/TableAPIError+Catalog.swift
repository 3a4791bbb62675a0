/// The Service Catalog API's errors: 400s with the messages ServiceNow's documentation gives (`Invalid quantity
/// value`, `Security constraints prevent ordering of Item`, `Mandatory Variables are required`) and, where it gives
/// none, the local instance's own; the `detail` says what was wrong and where.
extension TableAPIError {
    /// 400: an item that does not exist, is inactive, or names roles the user holds none of.
    static func itemNotOrderable(_ sysID: String) -> TableAPIError {
        TableAPIError(
            status: 400, message: "Security constraints prevent ordering of Item",
            detail: "No active catalog item with the sys_id '\(sysID)' may be ordered by this user")
    }

    /// 400: `sysparm_quantity` missing, not a whole number, or below 1.
    static func invalidQuantity(_ given: String) -> TableAPIError {
        TableAPIError(
            status: 400, message: "Invalid quantity value",
            detail: "sysparm_quantity must be a whole number of at least 1 (given: \(given))")
    }

    /// 400: mandatory variables without a value.
    static func mandatoryVariables(_ names: [String]) -> TableAPIError {
        TableAPIError(
            status: 400, message: "Mandatory Variables are required",
            detail: "Give a value in 'variables' for: " + names.joined(separator: ", "))
    }

    /// 400: a select box's value that is none of its choices.
    static func invalidChoice(_ name: String, value: String, allowed: [String]) -> TableAPIError {
        TableAPIError(
            status: 400, message: "Invalid value for variable \(name)",
            detail: "'\(value)' is not one of its choices: " + allowed.joined(separator: ", "))
    }

    /// 400: a user parameter naming no user.
    static func unknownUser(_ name: String, parameter: String) -> TableAPIError {
        TableAPIError(
            status: 400, message: "Invalid user in \(parameter)",
            detail: "No user (sys_user) has the sys_id or user name '\(name)'")
    }

    /// 400: `submit_order` or `checkout` with nothing in the cart.
    static let emptyCart = TableAPIError(
        status: 400, message: "Cart is empty", detail: "Add items with items/{sys_id}/add_to_cart first")

    /// 400: a cart item that is not in the user's cart.
    static func invalidCartItem(_ sysID: String) -> TableAPIError {
        TableAPIError(
            status: 400, message: "Invalid cart item", detail: "The user's cart has no item with the sys_id '\(sysID)'")
    }

    /// 400: a cart that does not exist, or another user's that the user may not empty.
    static func invalidCart(_ sysID: String) -> TableAPIError {
        TableAPIError(
            status: 400, message: "Invalid cart",
            detail: "No cart with the sys_id '\(sysID)' that this user may empty (another user's takes catalog_admin)")
    }

    /// 400: a catalog, category or item (`kind`) that does not exist, is inactive, or the user may not see.
    static func invalidRecord(_ kind: String, _ sysID: String) -> TableAPIError {
        TableAPIError(
            status: 400, message: "Invalid \(kind) sys_id",
            detail: "No active \(kind) with the sys_id '\(sysID)' is available to this user")
    }
}
