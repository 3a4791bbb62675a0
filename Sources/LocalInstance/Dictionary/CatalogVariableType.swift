/// The type of a catalog variable (`item_option_new.type`), by the platform's number: how the Service Catalog API
/// describes it (`friendly_type`, `display_type`) and how an ordered value is checked.
enum CatalogVariableType: Int, Sendable, CaseIterable {
    case yesNo = 1
    case multiLineText = 2
    case multipleChoice = 3
    case selectBox = 5
    case singleLineText = 6
    case checkBox = 7
    case reference = 8
    case date = 9
    case dateTime = 10
    case email = 26

    /// The name the Service Catalog API gives the type (`friendly_type`).
    var friendlyType: String {
        switch self {
        case .yesNo: "yes_no"
        case .multiLineText: "multi_line_text"
        case .multipleChoice: "multiple_choice"
        case .selectBox: "select_box"
        case .singleLineText: "single_line_text"
        case .checkBox: "boolean"
        case .reference: "reference"
        case .date: "date"
        case .dateTime: "date_time"
        case .email: "email"
        }
    }

    /// The type's label (`display_type`, and its choice label in the dictionary).
    var label: String {
        switch self {
        case .yesNo: "Yes / No"
        case .multiLineText: "Multi Line Text"
        case .multipleChoice: "Multiple Choice"
        case .selectBox: "Select Box"
        case .singleLineText: "Single Line Text"
        case .checkBox: "CheckBox"
        case .reference: "Reference"
        case .date: "Date"
        case .dateTime: "Date/Time"
        case .email: "Email"
        }
    }

    /// The type as a choice of `item_option_new.type`.
    var choice: FieldChoice { FieldChoice(String(rawValue), label) }

    /// Whether an ordered value must be one of the variable's choices (`question_choice`).
    var hasChoices: Bool { self == .selectBox || self == .multipleChoice }
}
