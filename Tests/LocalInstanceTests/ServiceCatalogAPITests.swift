import Foundation
import NowData
import Testing

@testable import LocalInstance

/// The Service Catalog API (`/api/sn_sc/servicecatalog/...`) over the demo catalog, as a user without roles
/// (`joe.employee`), an ITIL user, the admin and an anonymous client: browsing, ordering (the request, requested
/// item, task and variables it creates), the cart, every documented error with its whole body, and role refusals.
@Suite struct ServiceCatalogAPITests {
    static let base = "/api/sn_sc/servicecatalog"
    static let serviceCatalog = "e0d08b13c3330100c8b837659bba8fb4"
    static let technicalCatalog = "742ce428d7211100f2d224837e61036d"
    static let laptop = DemoData.sysID("sc_cat_item", "Standard Laptop")
    static let email = DemoData.sysID("sc_cat_item", "New Email Account")
    static let ipad = "060f3afa3731300054b6a3549dbe5d3e"
    static let server = DemoData.sysID("sc_cat_item", "Provision a Virtual Server")

    static func error(_ message: String, _ detail: String) -> String {
        #"{"error":{"message":"\#(message)","detail":"\#(detail)"},"status":"failure"}"#
    }

    /// Fields of records read through the Table API with display values, as text.
    static func records(
        _ attack: AttackHarness, _ table: String, _ query: String, _ fields: String
    ) async throws -> String {
        Harness.text(
            try await attack.send(
                .admin, "GET", "/api/now/table/\(table)",
                query: [
                    ("sysparm_query", query), ("sysparm_fields", fields), ("sysparm_display_value", "true"),
                    ("sysparm_exclude_reference_link", "true"),
                ]))
    }

    @Test func catalogsAreListedWithWhatTheUserMayOrder() async throws {
        let attack = try await AttackHarness()
        func catalogs(hasTechnicalItems: Bool) -> String {
            #"{"result":[{"title":"Service Catalog","sys_id":"\#(Self.serviceCatalog)","has_categories":true,"#
                + #""has_items":true,"description":"Service Catalog - IT Now","desktop_image":""},"#
                + #"{"title":"Technical Catalog","sys_id":"\#(Self.technicalCatalog)","has_categories":true,"#
                + #""has_items":\#(hasTechnicalItems),"description":"Products and services for the IT department","#
                + #""desktop_image":""}]}"#
        }
        let joe = try await attack.send(.joe, "GET", Self.base + "/catalogs")
        #expect(joe.statusCode == 200)
        #expect(Harness.text(joe) == catalogs(hasTechnicalItems: false))
        let itil = try await attack.send(.itil, "GET", "/api/sn_sc/v1/servicecatalog/catalogs")
        #expect(Harness.text(itil) == catalogs(hasTechnicalItems: true))
        let found = try await attack.send(.itil, "GET", Self.base + "/catalogs", query: [("sysparm_text", "TECH")])
        #expect(Harness.text(found).hasPrefix(#"{"result":[{"title":"Technical Catalog","#))
        #expect(try Harness.results(found).count == 1)

        let one = try await attack.send(.joe, "GET", Self.base + "/catalogs/\(Self.technicalCatalog)")
        #expect(
            Harness.text(one)
                == [
                    #"{"result":{"title":"Technical Catalog","sys_id":"\#(Self.technicalCatalog)","#,
                    #""has_categories":true,"has_items":false,"description":"Products and services for the IT "#,
                    #"department","desktop_image":"","categories":[{"header_image":"","#,
                    #""sys_id":"803e95e1c3732100fca206e939ba8f2a","description":"Datacenter hardware and services to "#,
                    #"support business systems.","title":"Infrastructure"}]}}"#,
                ].joined())
        let missing = try await attack.send(.joe, "GET", Self.base + "/catalogs/nope")
        #expect(missing.statusCode == 400)
        #expect(
            Harness.text(missing)
                == Self.error("Invalid catalog sys_id", "No active catalog with the sys_id 'nope' is available to this user"))
    }

    @Test func categoriesOfACatalogAndOneCategory() async throws {
        let attack = try await AttackHarness()
        let top = try await attack.send(
            .joe, "GET", Self.base + "/catalogs/\(Self.serviceCatalog)/categories",
            query: [("sysparm_top_level_only", "true")])
        let laptops = DemoData.sysID("sc_category", "Laptops")
        #expect(
            Harness.text(top)
                == [
                    #"{"result":[{"title":"Hardware","description":"Order from a variety of hardware to meet your "#,
                    #"business needs.","full_description":null,"icon":"","header_icon":"","homepage_image":"","#,
                    #""count":0,"subcategories":[{"sys_id":"\#(laptops)","title":"Laptops"},"#,
                    #"{"sys_id":"b06546f23731300054b6a3549dbe5dd8","title":"Tablets"},"#,
                    #"{"sys_id":"900682363731300054b6a3549dbe5d5f","title":"Desktops"}],"#,
                    #""sys_id":"d258b953c611227a0146101fb1be7c31"},{"title":"Can We Help You?","#,
                    #""description":"Your IT gateway. Report issues and submit requests.","full_description":null,"#,
                    #""icon":"","header_icon":"","homepage_image":"","count":2,"subcategories":[],"#,
                    #""sys_id":"e15706fc0a0a0aa7007fc21e1ab70c2f"},{"title":"Office","description":"Office services "#,
                    #"such as printing, supplies and document delivery.","full_description":null,"icon":"","#,
                    #""header_icon":"","homepage_image":"","count":0,"subcategories":[],"#,
                    #""sys_id":"109cdff8c6112276003b17991a09ad65"}]}"#,
                ].joined())
        let all = try await attack.send(.joe, "GET", Self.base + "/catalogs/\(Self.serviceCatalog)/categories")
        #expect(try Harness.results(all).compactMap { $0["title"] as? String }
            == ["Hardware", "Laptops", "Tablets", "Desktops", "Can We Help You?", "Office"])
        let page = try await attack.send(
            .joe, "GET", Self.base + "/catalogs/\(Self.serviceCatalog)/categories",
            query: [("sysparm_limit", "2"), ("sysparm_offset", "4")])
        #expect(try Harness.results(page).compactMap { $0["title"] as? String } == ["Can We Help You?", "Office"])

        let hardware = try await attack.send(.joe, "GET", Self.base + "/categories/d258b953c611227a0146101fb1be7c31")
        #expect(
            Harness.text(hardware)
                == [
                    #"{"result":{"title":"Hardware","description":"Order from a variety of hardware to meet your "#,
                    #"business needs.","full_description":null,"icon":"","header_icon":"","homepage_image":"","#,
                    #""sys_id":"d258b953c611227a0146101fb1be7c31","child_categories":[{"sys_id":"\#(laptops)","#,
                    #""title":"Laptops","count":1,"parent":"d258b953c611227a0146101fb1be7c31","subcategories":[],"#,
                    #""isParentCategory":false},{"sys_id":"b06546f23731300054b6a3549dbe5dd8","title":"Tablets","#,
                    #""count":1,"parent":"d258b953c611227a0146101fb1be7c31","subcategories":[],"#,
                    #""isParentCategory":false},{"sys_id":"900682363731300054b6a3549dbe5d5f","title":"Desktops","#,
                    #""count":1,"parent":"d258b953c611227a0146101fb1be7c31","subcategories":[],"#,
                    #""isParentCategory":false}]}}"#,
                ].joined())
        let missing = try await attack.send(.joe, "GET", Self.base + "/categories/nope")
        #expect(
            Harness.text(missing)
                == Self.error("Invalid category sys_id", "No active category with the sys_id 'nope' is available to this user"))
    }

    @Test func itemsAreSearchedPagedAndReadWithTheirVariables() async throws {
        let attack = try await AttackHarness()
        let ipad = try await attack.send(
            .joe, "GET", Self.base + "/items", query: [("sysparm_catalog", Self.serviceCatalog), ("sysparm_text", "ipad")])
        #expect(
            Harness.text(ipad)
                == [
                    #"{"result":[{"short_description":"Apple iPad 3","kb_article":"","icon":"","#,
                    #""description":"Apple iPad 3","availability":"on_desktop","mandatory_attachment":false,"#,
                    #""request_method":"order","show_price":true,"recurring_price":"$0.00","type":"catalog_item","#,
                    #""show_quantity":true,"local_currency":"USD","sys_class_name":"sc_cat_item","picture":"","url":"","#,
                    #""sys_id":"\#(Self.ipad)","recurring_price_currency":"USD","content_type":"","#,
                    #""localized_price":"$600.00","price":"$600.00","catalogs":[{"sys_id":"\#(Self.serviceCatalog)","#,
                    #""active":true,"title":"Service Catalog"}],"recurring_frequency":null,"name":"Apple iPad 3","#,
                    #""localized_recurring_price":"$0.00","category":{"sys_id":"b06546f23731300054b6a3549dbe5dd8","#,
                    #""title":"Tablets"},"price_currency":"USD","order":10}]}"#,
                ].joined())
        var names: [String] = []
        for offset in stride(from: 0, through: 6, by: 2) {
            let page = try await attack.send(
                .joe, "GET", Self.base + "/items",
                query: [("sysparm_catalog", Self.serviceCatalog), ("sysparm_limit", "2"), ("sysparm_offset", "\(offset)")])
            names += try Harness.results(page).compactMap { $0["name"] as? String }
        }
        #expect(
            names == ["Standard Laptop", "Apple iPad 3", "Standard Desktop", "New Email Account", "File Share Access"])
        let none = try await attack.send(.admin, "GET", Self.base + "/items", query: [("sysparm_text", "no_such_thing")])
        #expect(Harness.text(none) == #"{"result":[]}"#)

        let item = try await attack.send(.joe, "GET", Self.base + "/items/\(Self.email)")
        let variable = DemoData.sysID("item_option_new", "New Email Account/new_email")
        #expect(
            Harness.text(item)
                == [
                    #"{"result":{"short_description":"Request a new email account","kb_article":"","icon":"","#,
                    #""description":"Request a new email account","availability":"on_desktop","#,
                    #""mandatory_attachment":false,"request_method":"order","show_price":false,"#,
                    #""recurring_price":"$0.00","type":"catalog_item","show_quantity":true,"local_currency":"USD","#,
                    #""sys_class_name":"sc_cat_item","picture":"","url":"","sys_id":"\#(Self.email)","#,
                    #""recurring_price_currency":"USD","content_type":"","localized_price":"$0.00","price":"$0.00","#,
                    #""catalogs":[{"sys_id":"\#(Self.serviceCatalog)","active":true,"title":"Service Catalog"}],"#,
                    #""recurring_frequency":null,"name":"New Email Account","localized_recurring_price":"$0.00","#,
                    #""category":{"sys_id":"e15706fc0a0a0aa7007fc21e1ab70c2f","title":"Can We Help You?"},"#,
                    #""price_currency":"USD","order":30,"categories":[{"sys_id":"e15706fc0a0a0aa7007fc21e1ab70c2f","#,
                    #""active":true,"category":{"sys_id":"e15706fc0a0a0aa7007fc21e1ab70c2f","active":true,"#,
                    #""title":"Can We Help You?"},"title":"Can We Help You?"}],"variables":[{"active":true,"#,
                    #""label":"New email address","type":6,"mandatory":true,"displayvalue":"","#,
                    #""friendly_type":"single_line_text","display_type":"Single Line Text","read_only":false,"#,
                    #""name":"new_email","id":"\#(variable)","value":"","help_text":"","order":100}],"ui_policy":[],"#,
                    #""client_script":{"onChange":[],"onSubmit":[],"onLoad":[]},"data_lookup":[]}}"#,
                ].joined())
        let share = try Harness.result(
            try await attack.send(.joe, "GET", Self.base + "/items/\(DemoData.sysID("sc_cat_item", "File Share Access"))"))
        let access = try #require((share["variables"] as? [[String: Any]])?.last)
        #expect(access["name"] as? String == "access" && access["value"] as? String == "read")
        let choices = try #require(access["choices"] as? [[String: Any]])
        #expect(choices.compactMap { $0["value"] as? String } == ["read", "write"])
    }

    @Test func orderNowCreatesTheRequestItsItemTaskAndVariables() async throws {
        let attack = try await AttackHarness()
        let body = #"{"sysparm_quantity":"2","variables":{"acrobat":true,"Additional_software_requirements":"Xcode"}}"#
        let ordered = try await attack.send(.joe, "POST", Self.base + "/items/\(Self.laptop)/order_now", body: body)
        #expect(ordered.statusCode == 200)
        let request = try #require(try Harness.result(ordered)["sys_id"] as? String)
        #expect(
            Harness.text(ordered)
                == [
                    #"{"result":{"sys_id":"\#(request)","number":"REQ0010003","request_number":"REQ0010003","#,
                    #""request_id":"\#(request)","table":"sc_request"}}"#,
                ].joined())
        #expect(
            try await Self.records(
                attack, "sc_request", "sys_id=\(request)",
                "number,requested_for,opened_by,price,request_state,approval,state,short_description")
                == [
                    #"{"result":[{"number":"REQ0010003","requested_for":"Joe Employee","opened_by":"Joe Employee","#,
                    #""price":"2200","request_state":"Approved","approval":"Approved","state":"Open","#,
                    #""short_description":"Standard Laptop"}]}"#,
                ].joined())
        #expect(
            try await Self.records(
                attack, "sc_req_item", "request=\(request)",
                "number,cat_item,sc_catalog,quantity,price,requested_for,stage,approval,state,sys_created_by")
                == [
                    #"{"result":[{"number":"RITM0010003","cat_item":"Standard Laptop","sc_catalog":"Service Catalog","#,
                    #""quantity":"2","price":"1100","requested_for":"Joe Employee","stage":"fulfillment","#,
                    #""approval":"Approved","state":"Open","sys_created_by":"joe.employee"}]}"#,
                ].joined())
        #expect(
            try await Self.records(
                attack, "sc_task", "request=\(request)", "number,request_item,short_description,assignment_group,state")
                == [
                    #"{"result":[{"number":"SCTASK0010003","request_item":"RITM0010003","#,
                    #""short_description":"Standard Laptop","assignment_group":"Hardware","state":"Open"}]}"#,
                ].joined())
        #expect(
            try await Self.records(
                attack, "sc_item_option_mtom", "request_item.request=\(request)",
                "sc_item_option.item_option_new.name,sc_item_option.value")
                == [
                    #"{"result":[{"sc_item_option.item_option_new.name":"acrobat","sc_item_option.value":"true"},"#,
                    #"{"sc_item_option.item_option_new.name":"photoshop","sc_item_option.value":"false"},"#,
                    #"{"sc_item_option.item_option_new.name":"Additional_software_requirements","#,
                    #""sc_item_option.value":"Xcode"}]}"#,
                ].joined())

        // The same order again is another order: a new request with its own item and task.
        let again = try await attack.send(.joe, "POST", Self.base + "/items/\(Self.laptop)/order_now", body: body)
        #expect(try Harness.result(again)["request_number"] as? String == "REQ0010004")
        #expect(try Harness.result(again)["sys_id"] as? String != request)
        let items = try await Self.records(attack, "sc_req_item", "cat_item=\(Self.laptop)^ORDERBYnumber", "number")
        #expect(items == #"{"result":[{"number":"RITM0010001"},{"number":"RITM0010003"},{"number":"RITM0010004"}]}"#)

        // Ordering for other people: one requested item each, in one request.
        let forOthers = try await attack.send(
            .itil, "POST", Self.base + "/items/\(Self.ipad)/order_now",
            body: #"{"sysparm_quantity":1,"sysparm_requested_for":"abraham.lincoln","#
                + #""sysparm_also_request_for":"\#(DemoData.sysID("sys_user", "abel.tuter"))"}"#)
        let shared = try #require(try Harness.result(forOthers)["sys_id"] as? String)
        #expect(
            try await Self.records(attack, "sc_req_item", "request=\(shared)^ORDERBYnumber", "number,requested_for")
                == [
                    #"{"result":[{"number":"RITM0010005","requested_for":"Abraham Lincoln"},"#,
                    #"{"number":"RITM0010006","requested_for":"Abel Tuter"}]}"#,
                ].joined())
    }

    @Test func aBadOrderIsRefusedWithTheDocumentedErrors() async throws {
        let attack = try await AttackHarness()
        let path = Self.base + "/items/\(Self.email)/order_now"
        let cases: [(String?, String)] = [
            (
                #"{"variables":{"new_email":"x@example.com"}}"#,
                Self.error("Invalid quantity value", "sysparm_quantity must be a whole number of at least 1 (given: none)")
            ),
            (
                #"{"sysparm_quantity":0,"variables":{"new_email":"x@example.com"}}"#,
                Self.error("Invalid quantity value", "sysparm_quantity must be a whole number of at least 1 (given: 0)")
            ),
            (
                #"{"sysparm_quantity":"two","variables":{"new_email":"x@example.com"}}"#,
                Self.error(
                    "Invalid quantity value", #"sysparm_quantity must be a whole number of at least 1 (given: \"two\")"#)
            ),
            (
                #"{"sysparm_quantity":1}"#,
                Self.error("Mandatory Variables are required", "Give a value in 'variables' for: new_email")
            ),
            (
                #"{"sysparm_quantity":1,"variables":{"new_email":""}}"#,
                Self.error("Mandatory Variables are required", "Give a value in 'variables' for: new_email")
            ),
            (
                #"{"sysparm_quantity":1,"sysparm_requested_for":"no.body","variables":{"new_email":"x@example.com"}}"#,
                Self.error("Invalid user in sysparm_requested_for", "No user (sys_user) has the sys_id or user name 'no.body'")
            ),
            (nil, Self.error("Invalid quantity value", "sysparm_quantity must be a whole number of at least 1 (given: none)")),
        ]
        for (body, expected) in cases {
            let refused = try await attack.send(.joe, "POST", path, body: body)
            #expect(refused.statusCode == 400)
            #expect(Harness.text(refused) == expected)
        }
        let choice = try await attack.send(
            .joe, "POST", Self.base + "/items/\(DemoData.sysID("sc_cat_item", "File Share Access"))/order_now",
            body: #"{"sysparm_quantity":1,"variables":{"share":"\\\\files\\finance","access":"admin"}}"#)
        #expect(Harness.text(choice) == Self.error("Invalid value for variable access", "'admin' is not one of its choices: read, write"))
        for item in ["nope", Self.server] {
            let refused = try await attack.send(
                .joe, "POST", Self.base + "/items/\(item)/order_now", body: #"{"sysparm_quantity":1}"#)
            #expect(refused.statusCode == 400)
            #expect(
                Harness.text(refused)
                    == Self.error(
                        "Security constraints prevent ordering of Item",
                        "No active catalog item with the sys_id '\(item)' may be ordered by this user"))
        }
        let form = try await attack.send(
            .joe, "POST", path, body: "sysparm_quantity=1", headers: [("Content-Type", "application/x-www-form-urlencoded")])
        #expect(form.statusCode == 415)
        // Nothing was ordered.
        #expect(try await Self.records(attack, "sc_request", "opened_by.user_name=joe.employee^ORDERBYnumber", "number")
            == #"{"result":[{"number":"REQ0010002"}]}"#)
    }

    @Test func anItemNamingRolesIsOnlyForThoseWhoHoldOne() async throws {
        let attack = try await AttackHarness()
        let technical = [("sysparm_catalog", Self.technicalCatalog)]
        let joeItems = try await attack.send(.joe, "GET", Self.base + "/items", query: technical)
        #expect(Harness.text(joeItems) == #"{"result":[]}"#)
        let itilItems = try await attack.send(.itil, "GET", Self.base + "/items", query: technical)
        #expect(try Harness.results(itilItems).compactMap { $0["name"] as? String }
            == ["Provision a Virtual Server", "Rack a Network Switch"])
        let hidden = try await attack.send(.joe, "GET", Self.base + "/items/\(Self.server)")
        #expect(
            Harness.text(hidden)
                == Self.error("Invalid item sys_id", "No active item with the sys_id '\(Self.server)' is available to this user"))
        let ordered = try await attack.send(
            .itil, "POST", Self.base + "/items/\(Self.server)/order_now",
            body: #"{"sysparm_quantity":1,"variables":{"server_name":"app-07","cpus":"4"}}"#)
        #expect(ordered.statusCode == 200)
        let request = try #require(try Harness.result(ordered)["sys_id"] as? String)
        #expect(
            try await Self.records(
                attack, "sc_item_option_mtom", "request_item.request=\(request)",
                "sc_item_option.value")
                == [
                    #"{"result":[{"sc_item_option.value":"app-07"},{"sc_item_option.value":"4"},"#,
                    #"{"sc_item_option.value":"development"}]}"#,
                ].joined())
    }

    @Test func theCartIsFilledReadSubmittedAndEmptied() async throws {
        let attack = try await AttackHarness()
        let added = try await attack.send(
            .joe, "POST", Self.base + "/items/\(Self.ipad)/add_to_cart", body: #"{"sysparm_quantity":"2"}"#)
        #expect(added.statusCode == 200)
        let result = try Harness.result(added)
        let cart = try #require(result["cart_id"] as? String)
        let first = try #require((result["items"] as? [[String: Any]])?.first?["cart_item_id"] as? String)
        #expect(
            Harness.text(added)
                == [
                    #"{"result":{"cart_id":"\#(cart)","subtotal":"$1,200.00","items":[{"#,
                    #""catalog_item_id":"\#(Self.ipad)","quantity":"2","localized_price":"$600.00","price":"$600.00","#,
                    #""recurring_frequency":null,"localized_recurring_price":"$0.00","recurring_price":"$0.00","#,
                    #""item_name":"Apple iPad 3","cart_item_id":"\#(first)"}]}}"#,
                ].joined())
        let second = try await attack.send(
            .joe, "POST", Self.base + "/items/\(Self.email)/add_to_cart",
            body: #"{"sysparm_quantity":1,"variables":{"new_email":"joe.e@example.com"}}"#)
        #expect(try Harness.result(second)["cart_id"] as? String == cart)
        let emailLine = try #require((try Harness.result(second)["items"] as? [[String: Any]])?.last?["cart_item_id"] as? String)

        let read = try await attack.send(.joe, "GET", Self.base + "/cart")
        let contents = try Harness.result(read)
        #expect(contents["cart_id"] as? String == cart && contents["subtotal_price"] as? String == "$1,200.00")
        let lines = try #require((contents["none"] as? [String: Any])?["items"] as? [[String: Any]])
        #expect(lines.compactMap { $0["item_name"] as? String } == ["Apple iPad 3", "New Email Account"])
        #expect(lines.last?["variables"] as? [String: String] == ["new_email": "joe.e@example.com"])
        #expect(lines.first?["subtotal_price"] as? String == "$1,200.00" && lines.first?["created_by"] as? String == "joe.employee")

        // Joe's cart is his: another user's cart item is not in it.
        let notMine = try await attack.send(.itil, "DELETE", Self.base + "/cart/\(emailLine)")
        #expect(
            Harness.text(notMine)
                == Self.error("Invalid cart item", "The user's cart has no item with the sys_id '\(emailLine)'"))
        let removed = try await attack.send(.joe, "DELETE", Self.base + "/cart/\(first)")
        #expect(removed.statusCode == 204 && removed.body.isEmpty)

        let submitted = try await attack.send(.joe, "POST", Self.base + "/cart/submit_order")
        let request = try #require(try Harness.result(submitted)["request_id"] as? String)
        #expect(
            Harness.text(submitted)
                == #"{"result":{"request_number":"REQ0010003","request_id":"\#(request)"}}"#)
        #expect(
            try await Self.records(attack, "sc_item_option_mtom", "request_item.request=\(request)", "sc_item_option.value")
                == #"{"result":[{"sc_item_option.value":"joe.e@example.com"}]}"#)
        let emptied = try Harness.result(try await attack.send(.joe, "GET", Self.base + "/cart"))
        #expect(emptied["cart_id"] as? String == cart && emptied["subtotal_price"] as? String == "$0.00")
        #expect(emptied["none"] == nil)
        for action in ["submit_order", "checkout"] {
            let empty = try await attack.send(.joe, "POST", Self.base + "/cart/\(action)")
            #expect(empty.statusCode == 400)
            #expect(Harness.text(empty) == Self.error("Cart is empty", "Add items with items/{sys_id}/add_to_cart first"))
        }
        _ = try await attack.send(
            .joe, "POST", Self.base + "/items/\(Self.ipad)/add_to_cart", body: #"{"sysparm_quantity":1}"#)
        let checkedOut = try await attack.send(.joe, "POST", Self.base + "/cart/checkout")
        #expect(try Harness.result(checkedOut)["request_number"] as? String == "REQ0010004")
    }

    @Test func emptyingACartTakesItsOwnerOrCatalogAdmin() async throws {
        let attack = try await AttackHarness()
        _ = try await attack.send(
            .joe, "POST", Self.base + "/items/\(Self.ipad)/add_to_cart", body: #"{"sysparm_quantity":1}"#)
        let cart = try #require(try Harness.result(try await attack.send(.joe, "GET", Self.base + "/cart"))["cart_id"] as? String)
        let refusal = Self.error(
            "Invalid cart",
            "No cart with the sys_id '\(cart)' that this user may empty (another user's takes catalog_admin)")
        let byITIL = try await attack.send(.itil, "DELETE", Self.base + "/cart/\(cart)/empty")
        #expect(byITIL.statusCode == 400)
        #expect(Harness.text(byITIL) == refusal)
        let byAdmin = try await attack.send(.admin, "DELETE", Self.base + "/cart/\(cart)/empty")
        #expect(byAdmin.statusCode == 204)
        // The cart is gone: emptying it again is refused; joe's next read makes a new one.
        let again = try await attack.send(.admin, "DELETE", Self.base + "/cart/\(cart)/empty")
        #expect(Harness.text(again) == refusal)
        let next = try #require(try Harness.result(try await attack.send(.joe, "GET", Self.base + "/cart"))["cart_id"] as? String)
        #expect(next != cart)
        let own = try await attack.send(.joe, "DELETE", Self.base + "/cart/\(next)/empty")
        #expect(own.statusCode == 204)
    }

    @Test func anonymousClientsUnknownPathsAndWrongMethodsAreRefused() async throws {
        let attack = try await AttackHarness()
        for (method, path) in [
            ("GET", "/catalogs"), ("GET", "/items/\(Self.ipad)"), ("POST", "/items/\(Self.ipad)/order_now"),
            ("GET", "/cart"), ("POST", "/cart/submit_order"),
        ] {
            let refused = try await attack.send(.anonymous, method, Self.base + path)
            #expect(refused.statusCode == 401)
            #expect(Harness.text(refused) == AttackHarness.notAuthenticated)
        }
        for path in ["/wishlist", "/items/\(Self.ipad)/submit_producer", "/nothing/here/at/all"] {
            let unknown = try await attack.send(.joe, "GET", Self.base + path)
            #expect(unknown.statusCode == 400)
            #expect(
                Harness.text(unknown)
                    == [
                        #"{"error":{"message":"Requested URI does not represent any resource","detail":null},"#,
                        #""status":"failure"}"#,
                    ].joined())
        }
        let wrong = try await attack.send(.joe, "GET", Self.base + "/items/\(Self.ipad)/order_now")
        #expect(wrong.statusCode == 405)
        #expect(Harness.text(wrong) == Self.error("Method not Supported", "GET method not supported for API"))
    }

    @Test func theCatalogsTablesTakeTheirRolesThroughTheTableAPI() async throws {
        let attack = try await AttackHarness()
        let created = try await attack.send(.joe, "POST", "/api/now/table/sc_cat_item", body: #"{"name":"Free pony"}"#)
        #expect(created.statusCode == 403)
        #expect(Harness.text(created) == AttackHarness.refusal("Insert"))
        _ = try await attack.send(
            .joe, "POST", Self.base + "/items/\(Self.ipad)/add_to_cart", body: #"{"sysparm_quantity":1}"#)
        let carts = try await attack.send(.joe, "GET", "/api/now/table/sc_cart")
        #expect(Harness.text(carts) == #"{"result":[]}"#)
        let items = try await attack.send(.joe, "GET", "/api/now/table/sc_cat_item", query: [("sysparm_fields", "name")])
        #expect(try Harness.results(items).count == 7)
    }

    /// A fresh record of the catalog's task tables has every field of its PDI field list
    /// (docs/reference/pdi-fields), with the defaults given there.
    @Test(arguments: ["sc_request", "sc_req_item", "sc_task"])
    func aFreshCatalogRecordHasTheFieldsOfAPDIs(table: String) async throws {
        let harness = try Harness(seed: false)
        let created = try await harness.send(
            "POST", "/api/now/table/\(table)", query: [("sysparm_exclude_reference_link", "true")],
            body: #"{"short_description":"fresh"}"#)
        let record = try Harness.result(created)
        let expected = try PDIFieldListTests.pdiFields(table)
        #expect(expected.keys.filter { record[$0] == nil }.sorted() == [], "\(table) lacks fields a PDI record has")
        var wrong: [String] = []
        for (name, value) in expected.sorted(by: { $0.key < $1.key }) {
            guard let value, !value.hasPrefix("javascript:"), record[name] as? String != value else { continue }
            wrong.append("\(name): \(record[name] as? String ?? "nil") instead of \(value)")
        }
        #expect(wrong == [])
    }
}
