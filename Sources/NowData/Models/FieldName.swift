/// The name of a field (a column), such as `short_description`.
public typealias FieldName = String

/// A record's 32-character sys_id.
public typealias SysID = String
