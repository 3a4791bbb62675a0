/// What the Import Set API answers for a row: the import set it went into and, per transform map, what became
/// of it in the target table.
///
/// ```swift
/// let result = try await imports.insert(["u_name": "lnx-web-09"], into: "u_cmdb_ci_server_import")
/// print(result.importSet, result.rows.map(\.status))   // ISET0010001 [.inserted]
/// ```
public struct NowImportSetResult: Sendable, Hashable {
    /// The import set's name (`ISET0010001`).
    public let importSet: String
    /// The import set table the row was loaded into.
    public let stagingTable: String
    /// One outcome per transform map.
    public let rows: [Row]

    /// A row's outcome through one transform map.
    public struct Row: Sendable, Hashable {
        public let transformMap: String
        /// The target table.
        public let table: String
        public let status: Status
        /// The target record's sys_id; empty on an error.
        public let sysId: SysID
        /// The target's display field (`number`) and its value (`INC0010002`).
        public let displayName: String
        public let displayValue: String
        /// The Table API address of the target record.
        public let recordLink: String
        /// Why the row was ignored, or the error.
        public let message: String
    }

    /// What a transform did.
    public enum Status: Sendable, Hashable {
        case inserted, updated, ignored, error
        /// A status this SDK does not know (`skipped`).
        case other(String)

        init(_ text: String) {
            self =
                switch text {
                case "inserted": .inserted
                case "updated": .updated
                case "ignored": .ignored
                case "error": .error
                default: .other(text)
                }
        }

        /// The status as the instance writes it.
        public var name: String {
            switch self {
            case .inserted: "inserted"
            case .updated: "updated"
            case .ignored: "ignored"
            case .error: "error"
            case .other(let text): text
            }
        }
    }

    /// The result from the API's JSON answer; throws ``NowDataError/cannotParseResponse`` for another shape.
    public init(json: JSONValue) throws {
        guard let object = json.object, case .array(let results) = object["result"] ?? .null else {
            throw NowDataError.cannotParseResponse
        }
        importSet = object["import_set"]?.string ?? ""
        stagingTable = object["staging_table"]?.string ?? ""
        rows = results.map { result in
            func text(_ key: String) -> String { result.object?[key]?.string ?? "" }
            return Row(
                transformMap: text("transform_map"), table: text("table"), status: Status(text("status")),
                sysId: text("sys_id"), displayName: text("display_name"), displayValue: text("display_value"),
                recordLink: text("record_link"),
                message: text("error_message").isEmpty ? text("status_message") : text("error_message"))
        }
    }
}
