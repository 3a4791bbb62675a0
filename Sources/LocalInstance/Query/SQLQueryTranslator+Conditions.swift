import NowData

import Foundation

extension SQLQueryTranslator {
    /// One condition as SQL.
    struct Fragment {
        var sql: String
        var parameters: [SQLValue]
    }

    /// A condition that was ignored and why.
    struct InvalidCondition: Error {
        var text: String
        var reason: String
    }

    func condition(_ term: EncodedQuery.Term, table: String, row: String, _ context: inout Context)
        -> Result<Fragment, InvalidCondition>
    {
        switch term {
        case .invalid(let text, let reason):
            return .failure(InvalidCondition(text: text, reason: reason))
        case .condition(let condition):
            do {
                return .success(try fragment(for: condition, table: table))
            } catch {
                return .failure(InvalidCondition(text: condition.text, reason: error.reason))
            }
        case .join(let join):
            do {
                return .success(try fragment(for: join, table: table, row: row, &context))
            } catch {
                return .failure(InvalidCondition(text: join.text, reason: error.reason))
            }
        case .relatedList(let related):
            do {
                return .success(try fragment(for: related, table: table, row: row, &context))
            } catch {
                return .failure(InvalidCondition(text: related.text, reason: error.reason))
            }
        }
    }

    /// `EXISTS (SELECT 1 FROM "other" AS "_subN" WHERE "_subN"."otherField" = row."field" AND (...))`.
    private func fragment(for join: EncodedQuery.Join, table: String, row: String, _ context: inout Context)
        throws(Mismatch) -> Fragment
    {
        guard join.table == table else {
            throw Mismatch(reason: "the JOIN starts from \(join.table), the query is on \(table)")
        }
        guard schema.fieldType(join.field, in: table) != nil else {
            throw Mismatch(reason: "\(table) has no field '\(join.field)'")
        }
        guard schema.fieldType(join.joinField, in: join.joinTable) != nil else {
            throw Mismatch(reason: "\(join.joinTable) has no field '\(join.joinField)'")
        }
        let alias = context.alias()
        let inner = whereClause(join.query, table: join.joinTable, row: alias, &context)
        var sql =
            "EXISTS (SELECT 1 FROM \(join.joinTable.quotedIdentifier) AS \(alias) WHERE "
            + "\(alias).\(join.joinField.quotedIdentifier) = \(row).\(join.field.quotedIdentifier)"
        if !inner.sql.isEmpty { sql += " AND (\(inner.sql))" }
        return Fragment(sql: sql + ")", parameters: inner.parameters)
    }

    /// `(SELECT count(*) FROM "other" AS "_subN" WHERE "_subN"."field" = row."sys_id" AND (...)) > ?`.
    private func fragment(
        for related: EncodedQuery.RelatedList, table: String, row: String, _ context: inout Context
    ) throws(Mismatch) -> Fragment {
        guard let type = schema.fieldType(related.field, in: related.table) else {
            throw Mismatch(reason: "\(related.table) has no field '\(related.field)'")
        }
        guard case .reference = type else {
            throw Mismatch(reason: "\(related.table).\(related.field) is not a reference to \(table)")
        }
        let alias = context.alias()
        let inner = whereClause(related.query, table: related.table, row: alias, &context)
        var sql =
            "(SELECT count(*) FROM \(related.table.quotedIdentifier) AS \(alias) WHERE "
            + "\(alias).\(related.field.quotedIdentifier) = \(row).\"sys_id\""
        if !inner.sql.isEmpty { sql += " AND (\(inner.sql))" }
        let op = related.comparison == .notEquals ? "<>" : related.comparison.rawValue
        return Fragment(sql: sql + ") \(op) ?", parameters: inner.parameters + [.integer(Int64(related.count))])
    }

    /// The password field `term` names, of `table` or of a table a dot-walk reaches; nil when it names none. A
    /// term the parser could not read names the password field its text starts with.
    func passwordField(in term: EncodedQuery.Term, table: String) -> String? {
        switch term {
        case .condition(let condition):
            return passwordField(on: condition.field, table: table, exact: true)
        case .invalid(let text, _):
            let name = String(text.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
            return passwordField(on: name, table: table, exact: false)
        case .join(let join):
            return schema.passwordFields(of: table).first { $0 == join.field }
                ?? schema.passwordFields(of: join.joinTable).first { $0 == join.joinField }
        case .relatedList(let related):
            return schema.passwordFields(of: related.table).first { $0 == related.field }
        }
    }

    /// The password field at which a walk of `path` stops: the name itself, or with `exact` false the password
    /// field the name starts with.
    private func passwordField(on path: String, table: String, exact: Bool) -> String? {
        let walk = schema.walk(FieldPath(path), from: table)
        guard case .unknownField(let index, let reached)? = walk.failure else { return nil }
        let name = walk.path.components[index]
        return schema.passwordFields(of: reached).first { exact ? name == $0 : name.hasPrefix($0) }
    }

    /// Why a condition does not fit the schema.
    struct Mismatch: Error {
        var reason: String
    }

    /// A condition on a field of `table`, or on one a dot-walk reaches: each reference walked through becomes
    /// `"ref" IN (SELECT "sys_id" FROM ...)` around the comparison of the last field.
    private func fragment(for condition: EncodedQuery.Condition, table: String) throws(Mismatch) -> Fragment {
        let walk = schema.walk(FieldPath(condition.field), from: table)
        if let failure = walk.failure, failure.index == 0 || !condition.op.comparesFields {
            throw Mismatch(reason: walk.reason ?? "no field")
        }
        if walk.path.isDotWalked, condition.op.comparesFields {
            throw Mismatch(reason: "\(condition.op.rawValue) compares fields of \(table) only, not dot-walked ones")
        }
        guard let leaf = walk.leaf else { throw Mismatch(reason: walk.reason ?? "no field") }
        // `ANYTHING` holds for every record, through any reference (one to no record too, as `sys_domain`'s
        // `global`), as NowData's record predicate reads it.
        if condition.op == .anything { return Fragment(sql: "1", parameters: []) }
        var fragment = try comparison(condition, column: walk.path.last, type: leaf.field, table: leaf.table)
        for index in walk.hops.indices.reversed() {
            let column = walk.path.components[index].quotedIdentifier
            let target = walk.steps[index + 1].table.quotedIdentifier
            let subquery = "\(column) IN (SELECT \"sys_id\" FROM \(target) WHERE \(fragment.sql))"
            fragment = Fragment(
                sql: condition.matchesEmpty ? "(\(column) IS NULL OR \(subquery))" : subquery,
                parameters: fragment.parameters)
        }
        return fragment
    }

    private func comparison(
        _ condition: EncodedQuery.Condition, column name: String, type: FieldType, table: String
    ) throws(Mismatch) -> Fragment {
        let column = name.quotedIdentifier
        let value = condition.value
        // Text compares case-insensitively, as the platform's default collation does (LIKE already does in SQLite);
        // sys_id keeps the binary collation of its unique index.
        let collation = (type == .string || type == .choice) && name != "sys_id" ? " COLLATE NOCASE" : ""
        func typed(_ text: String) throws(Mismatch) -> SQLValue {
            if text.hasPrefix("javascript:") { return try dateHelperValue(text, type: type, field: name) }
            return try type.sqlValue(text, field: name)
        }
        switch condition.op {
        case .equals where value.isEmpty, .isEmpty, .emptyString:
            return Fragment(sql: "(\(column) IS NULL OR \(column) = '')", parameters: [])
        case .notEquals where value.isEmpty, .isNotEmpty:
            return Fragment(sql: "(\(column) IS NOT NULL AND \(column) <> '')", parameters: [])
        case .anything:
            return Fragment(sql: "1", parameters: [])
        case .equals:
            return Fragment(sql: "\(column)\(collation) = ?", parameters: [try typed(value)])
        case .notEquals:
            return Fragment(sql: "\(column)\(collation) IS NOT ?", parameters: [try typed(value)])
        case .lessThan, .lessThanOrEquals, .greaterThan, .greaterThanOrEquals:
            return Fragment(sql: "\(column) \(condition.op.rawValue) ?", parameters: [try typed(value)])
        case .like, .contains:
            return Fragment(sql: "\(column) LIKE ? ESCAPE '\\'", parameters: [.text("%\(value.likeEscaped)%")])
        case .startsWith:
            return Fragment(sql: "\(column) LIKE ? ESCAPE '\\'", parameters: [.text("\(value.likeEscaped)%")])
        case .endsWith, .endsWithAlias:
            return Fragment(sql: "\(column) LIKE ? ESCAPE '\\'", parameters: [.text("%\(value.likeEscaped)")])
        case .notLike, .notLikeAlias, .doesNotContain:
            return Fragment(
                sql: "(\(column) IS NULL OR \(column) NOT LIKE ? ESCAPE '\\')",
                parameters: [.text("%\(value.likeEscaped)%")])
        case .isIn, .notIn:
            let items = value.split(separator: ",").map(String.init)
            if items.isEmpty { throw Mismatch(reason: "\(condition.op.rawValue) needs at least one value") }
            var parameters: [SQLValue] = []
            for item in items { parameters.append(try typed(item)) }
            let list = "(" + Array(repeating: "?", count: items.count).joined(separator: ", ") + ")"
            let sql =
                condition.op == .isIn
                ? "\(column)\(collation) IN \(list)"
                : "(\(column) IS NULL OR \(column)\(collation) NOT IN \(list))"
            return Fragment(sql: sql, parameters: parameters)
        case .between:
            let bounds = value.split(separator: "@", omittingEmptySubsequences: false)
            guard bounds.count == 2 else { throw Mismatch(reason: "BETWEEN needs two values separated by '@'") }
            return Fragment(
                sql: "\(column) BETWEEN ? AND ?",
                parameters: [try typed(String(bounds[0])), try typed(String(bounds[1]))])
        case .sameAs, .notSameAs, .greaterThanField, .lessThanField, .greaterThanOrEqualsField,
            .lessThanOrEqualsField:
            guard schema.fieldType(value, in: table) != nil else {
                throw Mismatch(reason: "\(table) has no field '\(value)'")
            }
            return Fragment(
                sql: "\(column) \(condition.op.sqlFieldComparison) \(value.quotedIdentifier)", parameters: [])
        case .on, .notOn:
            return try dateMatch(condition, column: column, type: type)
        }
    }

    private func dateMatch(
        _ condition: EncodedQuery.Condition, column: String, type: FieldType
    ) throws(Mismatch) -> Fragment {
        let op = condition.op.rawValue
        guard type == .date || type == .dateTime else {
            throw Mismatch(reason: "\(op) needs a date or date-time field")
        }
        let parts = condition.value.split(separator: "@", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 3, parts[1].hasPrefix("javascript:"), parts[2].hasPrefix("javascript:") {
            let low = try dateHelperValue(parts[1], type: type, field: condition.field)
            let high = try dateHelperValue(parts[2], type: type, field: condition.field)
            return condition.op == .on
                ? Fragment(sql: "\(column) BETWEEN ? AND ?", parameters: [low, high])
                : Fragment(sql: "(\(column) IS NULL OR \(column) NOT BETWEEN ? AND ?)", parameters: [low, high])
        }
        guard let day = calendarDay(condition.value) else {
            throw Mismatch(
                reason: "\(op) needs a date yyyy-MM-dd, Today, Yesterday or Tomorrow, not '\(condition.value)'")
        }
        switch (condition.op, type) {
        case (.on, .date):
            return Fragment(sql: "\(column) = ?", parameters: [.text(day)])
        case (.on, _):
            return Fragment(
                sql: "\(column) BETWEEN ? AND ?", parameters: [.text("\(day) 00:00:00"), .text("\(day) 23:59:59")])
        case (_, .date):
            return Fragment(sql: "\(column) IS NOT ?", parameters: [.text(day)])
        default:
            return Fragment(
                sql: "(\(column) IS NULL OR \(column) NOT BETWEEN ? AND ?)",
                parameters: [.text("\(day) 00:00:00"), .text("\(day) 23:59:59")])
        }
    }

    /// The stored value a date helper (`javascript:gs.daysAgoStart(1)`) gives now, computed in ``timeZone``: a UTC
    /// date-time, or its day for a date field.
    private func dateHelperValue(_ text: String, type: FieldType, field: String) throws(Mismatch) -> SQLValue {
        guard type == .dateTime || type == .date else {
            throw Mismatch(reason: "\(field) is not a date or date-time field, a date helper cannot be compared with it")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        guard let helper = QueryDateHelper(text), let date = helper.date(now: now(), calendar: calendar) else {
            throw Mismatch(reason: "'\(text)' is not a date helper the local instance computes")
        }
        let stamp = Timestamp.string(date)
        return .text(type == .date ? String(stamp.prefix(10)) : stamp)
    }

    /// `value` as a day `yyyy-MM-dd`: a date as written, or `Today`, `Yesterday`, `Tomorrow` in UTC.
    private func calendarDay(_ value: String) -> String? {
        let offset: Int
        switch value {
        case "Today": offset = 0
        case "Yesterday": offset = -1
        case "Tomorrow": offset = 1
        default: return value.isCalendarDate ? value : nil
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        guard let date = calendar.date(byAdding: .day, value: offset, to: now()) else { return nil }
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        guard let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
        return "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }
}

extension EncodedQuery.Condition {
    /// Whether a record whose field is empty matches, which decides whether a dot-walk through an empty
    /// reference matches (the platform joins references with an outer join).
    var matchesEmpty: Bool {
        switch op {
        case .notEquals, .notLike, .notLikeAlias, .doesNotContain, .notIn, .isEmpty, .emptyString, .anything,
            .notOn:
            true
        case .equals: value.isEmpty
        default: false
        }
    }
}

extension QueryOperator {
    /// The SQL operator of a field comparison (`SAMEAS` is NULL-safe, as empty equals empty on the platform).
    fileprivate var sqlFieldComparison: String {
        switch self {
        case .sameAs: "IS"
        case .notSameAs: "IS NOT"
        case .greaterThanField: ">"
        case .lessThanField: "<"
        case .greaterThanOrEqualsField: ">="
        default: "<="
        }
    }
}

extension FieldType {
    /// `text` as the value stored in a column of this type.
    fileprivate func sqlValue(_ text: String, field: String) throws(SQLQueryTranslator.Mismatch) -> SQLValue {
        do {
            switch try ComparedValue(text, type: self, field: field) {
            case .integer(let number): return .integer(number)
            case .real(let number): return .real(number)
            case .text(let text): return .text(text)
            }
        } catch {
            throw .init(reason: error.reason)
        }
    }
}

extension String {
    /// The name as an SQL identifier: double-quoted, inner quotes doubled.
    var quotedIdentifier: String {
        "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The text with `\`, `%` and `_` escaped for `LIKE ... ESCAPE '\'`.
    fileprivate var likeEscaped: String {
        var escaped = ""
        escaped.reserveCapacity(utf8.count)
        for character in unicodeScalars {
            if character == "\\" || character == "%" || character == "_" { escaped.unicodeScalars.append("\\") }
            escaped.unicodeScalars.append(character)
        }
        return escaped
    }
}
