extension String {
    /// Whether the text is written as a sys_id: 32 lowercase hexadecimal digits.
    var isSysID: Bool {
        utf8.count == 32 && utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
