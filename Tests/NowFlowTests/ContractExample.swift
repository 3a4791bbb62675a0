/// The example job of the job-file contract (design/job-files.md), without its comments: checked by the job
/// file tests and run by the runner tests.
enum ContractExample {
    static let text = """
        name: Incident lifecycle
        description: Open, resolve and check an incident, then clean up.
        instance: local
        auth:
          basic: { user: "${env.NOW_USER}", password: "${env.NOW_PASSWORD}" }
        coder:
          dates: servicenow
          timezone: UTC
        vars:
          caller: abel.tuter
          summary: Printer on fire
        steps:
          - id: caller
            query:
              table: sys_user
              where: { user_name: "${vars.caller}" }
              fields: [sys_id, name, email]
              limit: 1
          - id: incident
            create:
              table: incident
              fields:
                short_description: "${vars.summary}"
                caller_id: "${steps.caller.records.0.sys_id}"
                urgency: 2
          - id: number
            extract: { from: "${steps.incident.record}", path: number }
          - id: resolve
            update:
              table: incident
              sys_id: "${steps.incident.sys_id}"
              fields: { state: 6, close_code: Solved (Permanently), close_notes: Restarted the spooler }
          - id: check
            get: { table: incident, sys_id: "${steps.incident.sys_id}", display_value: true }
          - assert: { that: "steps.check.record.state == 'Resolved'", message: the incident was not resolved }
        finally:
          - delete: { table: incident, sys_id: "${steps.incident.sys_id}" }
        """

    /// The environment its `auth` reads: the embedded instance's administrator.
    static let environment = ["NOW_USER": "admin", "NOW_PASSWORD": "admin"]
}
