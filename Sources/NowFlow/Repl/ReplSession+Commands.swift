import Foundation
import NowData

/// The `:` commands.
extension ReplSession {
    func command(_ line: String) async -> ReplReply {
        let name = String(line.prefix { !$0.isWhitespace })
        let argument = line.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        let argumentColumn = line.count - argument.count + 1
        guard let command = SessionCommand(name: name) else {
            let hint = name.closest(among: SessionCommand.completed).map { "; did you mean '\($0)'?" } ?? ""
            return .rejection("unknown command '\(name)'\(hint) (:help lists them)", column: 1)
        }
        // Under another name (:q, :exit) a command reads no argument, nor refuses one.
        if command.rawValue == name, !command.takesArgument, !argument.isEmpty {
            return .rejection("\(name) takes no argument", column: argumentColumn)
        }
        switch command {
        case .next: return ReplReply(await nextJobStep())
        case .run: return ReplReply(await runJob())
        case .list: return ReplReply(listJob())
        case .vars: return ReplReply(variables())
        case .show: return show(argument, column: argumentColumn)
        case .format: return setFormat(argument)
        case .tz: return setZone(argument)
        case .display: return setDisplay(argument)
        case .history: return ReplReply(history())
        case .undo: return await undo(argument)
        case .save: return save(to: argument, force: false)
        case .saveOver: return save(to: argument, force: true)
        case .help: return help(argument)
        case .describe: return await describe(table: argument)
        case .export: return export(argument)
        case .quit: return ReplReply(await finish(), quit: true)
        }
    }

    /// `:vars`: every variable, then every result, in a few words each.
    private func variables() -> String {
        let vars = scope.vars.keys.sorted().map { "vars.\($0) = \(masker(scope.vars[$0] ?? .null).brief)" }
        let steps = scope.steps.keys.filter { $0 != "_" }.sorted { a, b in
            (resolution[a] ?? -1, a) < (resolution[b] ?? -1, b)
        }.map { "steps.\($0) = \(masker(scope.steps[$0]?.json ?? .null).brief)" }
        var lines = vars + steps
        if let last = resolution["_"], recorded.indices.contains(last) { lines.append("steps._ is steps.\(recorded[last].id)") }
        return lines.isEmpty ? "no variables or results yet" : lines.joined(separator: "\n")
    }

    /// `:show EXPR`: the value of an expression, rendered.
    private func show(_ text: String, column: Int) -> ReplReply {
        guard !text.isEmpty else { return .rejection(":show needs an expression, as in :show steps._.records.0", column: 0) }
        let expression: Expression
        do {
            expression = try Expression.parseCondition(text)
        } catch {
            return .rejection("bad expression: \(error.message)", column: column + error.offset)
        }
        do {
            let shown = masker(renderer.render(try expression.value(in: scope)))
            // An empty text is shown, as '': a reply with nothing would look like no reply.
            return ReplReply(shown.isEmpty ? "''" : shown)
        } catch {
            return .rejection(masker(error.message), column: 0)
        }
    }

    private func setFormat(_ name: String) -> ReplReply {
        guard !name.isEmpty else { return ReplReply("format: \(format.rawValue)") }
        guard let chosen = OutputFormat(rawValue: name) else {
            return .rejection(":format takes table, json or yaml, not '\(name)'", column: 0)
        }
        format = chosen
        return ReplReply("format: \(chosen.rawValue)")
    }

    /// `:display on|off|all`: the display values typed steps ask for when they do not say (`display_value`).
    private func setDisplay(_ name: String) -> ReplReply {
        let modes: [String: DisplayValueMode?] = ["on": .display, "off": nil, "all": .all]
        let current = display.map { $0 == .all ? "all" : "on" } ?? "off"
        guard !name.isEmpty else { return ReplReply("display values: \(current)") }
        guard let mode = modes[name] else {
            return .rejection(":display takes on, off or all, not '\(name)'", column: 0)
        }
        display = mode
        let meaning = ["on": " (steps without display_value ask for display values)",
            "all": " (steps without display_value ask for values and display values)", "off": ""][name] ?? ""
        return ReplReply("display values: \(name)\(meaning)")
    }

    private func setZone(_ name: String) -> ReplReply {
        guard !name.isEmpty else { return ReplReply("time zone: \(zone)") }
        guard JobDates.isTimeZone(name) else {
            return .rejection(JobDates.notATimeZone(name), column: 0)
        }
        zone = name
        return ReplReply("time zone: \(name)")
    }
}
