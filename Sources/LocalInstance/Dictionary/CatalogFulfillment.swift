/// What ordering catalog items creates, declared beside the catalog's tables (``TableDictionary/catalogFulfillment``)
/// and applied by ``ServiceCatalog``: one request (`sc_request`) per order; one requested item (`sc_req_item`) per
/// item and person it is for, with the item's variables (`sc_item_option`, each tied to it by
/// `sc_item_option_mtom`); and a catalog task (`sc_task`) for each requested item whose catalog item names a
/// fulfilment `group`. Nothing waits for an approval: the values are those a PDI's flow leaves when the item needs
/// none.
struct CatalogFulfillment: Sendable {
    /// The request's values, besides its requester, opener, price and description.
    var request: StoredRecord
    /// A requested item's values, besides its request, item, quantity, price and requester.
    var requestedItem: StoredRecord
    /// The stage of a requested item that got a catalog task (a requested item without one keeps
    /// `requestedItem`'s).
    var stageWithTask: String
    /// A catalog task's values, besides its request, requested item, description and group.
    var task: StoredRecord
}
