/// The options of `create` and `update`: how the answer's values are shown and how input values are read.
struct WriteSettings: Sendable, Hashable {
    var read = ReadSettings()
    /// `input_display_value`: the values given are display values.
    var inputDisplayValue = false
    /// `suppress_auto_sys_field`: leave the sys_ fields as given.
    var suppressAutoSysField = false
}
