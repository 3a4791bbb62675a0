/// A whole number a step needs (`limit`, `max`, `page_size`): written as a number, or as exactly one `${expr}`,
/// which keeps its value's type and must give a whole number at run time.
enum CountSetting: Sendable, Hashable {
    case fixed(Int)
    /// The template, the setting's name for messages and the least value it accepts.
    case template(Template, name: String, minimum: Int)
}
