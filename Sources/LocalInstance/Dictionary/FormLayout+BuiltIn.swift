extension FormLayout {
    /// The form layouts of the built-in tables a platform user opens most, after a PDI's default forms.
    static let builtIn: [String: FormLayout] = [
        "incident": FormLayout(sections: [
            Section(
                left: [
                    "number", "caller_id", "category", "subcategory", "business_service", "service_offering",
                    "cmdb_ci",
                ],
                right: [
                    "opened_at", "contact_type", "state", "hold_reason", "impact", "urgency", "priority",
                    "assignment_group", "assigned_to",
                ],
                wide: ["short_description", "description"]),
            Section("Notes", wide: ["watch_list", "comments", "work_notes"]),
            Section("Related Records", left: ["parent_incident", "problem_id"], right: ["rfc", "caused_by"]),
            Section(
                "Resolution Information", left: ["knowledge", "close_code", "resolved_by"], right: ["resolved_at"],
                wide: ["close_notes"]),
        ]),
        "problem": FormLayout(sections: [
            Section(
                left: [
                    "number", "first_reported_by_task", "category", "subcategory", "business_service",
                    "service_offering", "cmdb_ci",
                ],
                right: [
                    "opened_at", "state", "problem_state", "impact", "urgency", "priority", "assignment_group",
                    "assigned_to",
                ],
                wide: ["short_description", "description"]),
            Section("Notes", wide: ["watch_list", "comments", "work_notes"]),
            Section(
                "Analysis Information", left: ["known_error", "major_problem"], right: ["duplicate_of", "rfc"],
                wide: ["workaround", "cause_notes", "fix_notes"]),
            Section(
                "Resolution Information", left: ["resolution_code", "resolved_by"], right: ["resolved_at"],
                wide: ["close_notes"]),
        ]),
        "change_request": FormLayout(sections: [
            Section(
                left: [
                    "number", "requested_by", "category", "business_service", "service_offering", "cmdb_ci",
                    "priority", "risk", "impact",
                ],
                right: [
                    "type", "state", "conflict_status", "conflict_last_run", "assignment_group", "assigned_to",
                ],
                wide: ["short_description", "description"]),
            Section(
                "Planning",
                wide: ["justification", "implementation_plan", "risk_impact_analysis", "backout_plan", "test_plan"]),
            Section("Schedule", left: ["start_date", "end_date"], right: ["cab_required", "cab_date"]),
            Section("Notes", wide: ["watch_list", "comments", "work_notes"]),
            Section("Closure Information", left: ["close_code"], wide: ["close_notes"]),
        ]),
        "sc_req_item": FormLayout(sections: [
            Section(
                left: ["number", "request", "cat_item", "requested_for", "configuration_item", "opened_by"],
                right: [
                    "opened_at", "due_date", "stage", "state", "assignment_group", "assigned_to", "priority",
                    "quantity", "price",
                ],
                wide: ["short_description", "description"]),
            Section("Notes", wide: ["watch_list", "comments", "work_notes"]),
        ]),
        "sys_user": FormLayout(sections: [
            Section(
                left: [
                    "user_name", "first_name", "last_name", "title", "department", "manager", "company", "location",
                    "email", "phone", "mobile_phone",
                ],
                right: [
                    "active", "locked_out", "password_needs_reset", "web_service_access_only",
                    "internal_integration_user", "vip", "time_zone", "date_format", "preferred_language",
                ])
        ]),
        "cmdb_ci": FormLayout(sections: [
            Section(
                left: [
                    "name", "company", "serial_number", "asset_tag", "asset", "manufacturer", "model_id",
                    "location", "ip_address", "fqdn",
                ],
                right: [
                    "category", "subcategory", "operational_status", "install_status", "environment",
                    "assigned_to", "managed_by", "owned_by", "support_group", "supported_by",
                ],
                wide: ["short_description", "comments"])
        ]),
    ]
}
