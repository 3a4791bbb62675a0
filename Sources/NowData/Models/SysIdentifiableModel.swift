import Foundation

/// A Codable model of a table's record, identified by its sys_id: what `create`, `update` and `delete` take.
///
/// ```swift
/// struct User: SysIdentifiableModel { var sysId: String = ""; var name: String }
/// ```
public protocol SysIdentifiableModel: Codable {
    /// The record's sys_id; empty for a model not yet created.
    var sysId: SysID { get set }
}
