import Foundation

/// A Codable model of a table's record, identified by its sys_id: what `create`, `update` and `delete` take.
///
/// ```swift
/// struct User: SysIdentifiableModel { var sysId: String = ""; var name: String }
/// ```
///
/// `sysId` maps to the JSON key `sys_id` without `CodingKeys` through the coder's key strategy: ``Coder/default``
/// converts snake_case JSON keys to camelCase properties and back (`sys_id` ↔ `sysId`, `short_description` ↔
/// `shortDescription`), as does a `.custom` coder whose decoder uses `.convertFromSnakeCase` and encoder
/// `.convertToSnakeCase`. A key strategy renames JSON keys before they are matched, so under these strategies:
/// - name properties in camelCase; a property spelled `short_description` does not match (the JSON key has
///   become `shortDescription`): rename it, or give it a `CodingKeys` raw value `"shortDescription"`;
/// - an acronym is one capitalized word: `avatar_url` becomes `avatarUrl`, so a property `avatarURL` needs the
///   raw value `"avatarUrl"` (which encodes back to `avatar_url`).
///
/// A `.custom` decoder that keeps default keys needs `CodingKeys` with `case sysId = "sys_id"`.
public protocol SysIdentifiableModel: Codable {
    /// The record's sys_id; empty for a model not yet created.
    var sysId: SysID { get set }
}
