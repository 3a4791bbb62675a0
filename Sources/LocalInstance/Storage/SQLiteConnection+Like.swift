internal import CSQLite

extension SQLiteConnection {
    /// Replaces SQLite's `x LIKE y ESCAPE z` on `db` by ``LikePattern``'s, which answers the same but finds the
    /// translator's `%text%`, `text%` and `%text` in linear time: the built-in one backtracks, and a 10 KB pattern
    /// over a 1 MB value runs for minutes inside one virtual machine instruction, where `deadline` (the statement
    /// budget, checked between instructions) cannot stop it.
    static func replaceLike(on db: OpaquePointer, deadline: StatementDeadline) -> Int32 {
        sqlite3_create_function_v2(
            db, "like", 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC, Unmanaged.passUnretained(deadline).toOpaque(), like,
            nil, nil, nil)
    }

    /// `like(pattern, text, escape)`: NULL when one is NULL, an error for an escape that is not one character,
    /// SQLITE_INTERRUPT when the statement's budget runs out while matching.
    private static let like: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
        context, _, arguments in
        guard let context, let arguments, let patternValue = arguments[0], let textValue = arguments[1],
            let escapeValue = arguments[2], let patternText = sqlite3_value_text(patternValue),
            let text = sqlite3_value_text(textValue), let escapeText = sqlite3_value_text(escapeValue)
        else { return }
        let escape = Array(UnsafeBufferPointer(start: escapeText, count: Int(sqlite3_value_bytes(escapeValue))))
        guard let lead = escape.first, escape.count == 1 + (lead < 0xC0 ? 0 : lead < 0xE0 ? 1 : lead < 0xF0 ? 2 : 3)
        else {
            sqlite3_result_error(context, "ESCAPE expression must be a single character", -1)
            return
        }
        // Parsed once per statement: SQLite keeps the parse while the pattern argument stays the same.
        let pattern: LikePattern
        if let cached = sqlite3_get_auxdata(context, 0).map({ Unmanaged<LikePattern>.fromOpaque($0) }),
            cached.takeUnretainedValue().escape == escape
        {
            pattern = cached.takeUnretainedValue()
        } else {
            let count = Int(sqlite3_value_bytes(patternValue))
            pattern = LikePattern(Array(UnsafeBufferPointer(start: patternText, count: count)), escape: escape)
            sqlite3_set_auxdata(context, 0, Unmanaged.passRetained(pattern).toOpaque()) { parsed in
                if let parsed { Unmanaged<LikePattern>.fromOpaque(parsed).release() }
            }
        }
        guard let budget = sqlite3_user_data(context) else { return }
        let deadline = Unmanaged<StatementDeadline>.fromOpaque(budget).takeUnretainedValue()
        let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(textValue)))
        switch pattern.matches(bytes, shouldStop: { deadline.isPast }) {
        case .some(let matched): sqlite3_result_int(context, matched ? 1 : 0)
        case nil: sqlite3_result_error_code(context, SQLITE_INTERRUPT)
        }
    }
}
