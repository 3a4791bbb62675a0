/// `:help`: the forms and commands, a step kind's parameters (`:help query`), a command's use (`:help :undo`).
extension ReplSession {
    /// `:help`, `:help KIND`, `:help :COMMAND` (or `:help COMMAND`).
    func help(_ topic: String) -> ReplReply {
        guard !topic.isEmpty else { return ReplReply(SessionCommand.overview) }
        let command = topic.hasPrefix(":") ? topic : ":" + topic
        if let kind = JobSchema.kind(topic) { return ReplReply(kind.help) }
        if let command = SessionCommand(rawValue: command) { return ReplReply(command.help) }
        let topics = StepKind.names + SessionCommand.allCases.map(\.rawValue).sorted()
        let hint = topic.closest(among: topics).map { "; did you mean '\($0)'?" } ?? ""
        return .rejection("no help on '\(topic)'\(hint) (:help names a step kind or a command)", column: 0)
    }
}
