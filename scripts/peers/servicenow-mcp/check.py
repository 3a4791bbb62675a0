"""Calls the tool functions of the MCP server for ServiceNow (echelon-ai-labs/servicenow-mcp) directly, as its MCP
server would on a tool call, against `nowflow serve --tls`: incidents, users and groups, change requests and
knowledge articles. Prints one line per call and closes with 'N passed, N failed'.

    check.py URL ADMIN_PASSWORD      (PYTHONPATH: the checkout's src; REQUESTS_CA_BUNDLE: the server's CA)
"""

import random
import sys
import traceback

from servicenow_mcp.auth.auth_manager import AuthManager
from servicenow_mcp.tools import change_tools as changes
from servicenow_mcp.tools import incident_tools as incidents
from servicenow_mcp.tools import knowledge_base as knowledge
from servicenow_mcp.tools import user_tools as users
from servicenow_mcp.utils.config import AuthConfig, AuthType, BasicAuthConfig, ServerConfig

url, password = sys.argv[1:3]
auth = AuthConfig(type=AuthType.BASIC, basic=BasicAuthConfig(username="admin", password=password))
config = ServerConfig(instance_url=url, auth=auth)
manager = AuthManager(auth, url)
passed = failed = 0
state = {}
suffix = str(random.randint(100000, 999999))


def outcome(result):
    """The tool's success flag and what it said: tools answer a response model or a dict with `success`."""
    if isinstance(result, dict):
        return bool(result.get("success")), result.get("message", "")
    return bool(getattr(result, "success", False)), getattr(result, "message", "")


def check(name, call, expect=lambda result: True):
    global passed, failed
    try:
        result = call()
        ok, message = outcome(result) if not isinstance(result, (bool, str, type(None))) else (result, "")
        ok = ok and expect(result)
        why = message or repr(result)[:300]
    except Exception:  # a tool that raises fails its check, and the others still run
        ok, why, result = False, traceback.format_exc().strip().splitlines()[-1], None
    if ok:
        passed += 1
        print(f"{name:<48} passed")
    else:
        failed += 1
        print(f"{name:<48} FAILED: {why}")
    return result


# Incidents.
created = check("create_incident", lambda: incidents.create_incident(config, manager, incidents.CreateIncidentParams(
    short_description=f"MCP printer {suffix}", description="Paper jam", urgency="2", impact="2", category="hardware")),
    lambda r: r.incident_number.startswith("INC"))
number, incident_id = (created.incident_number, created.incident_id) if created else ("", "")
check("update_incident", lambda: incidents.update_incident(config, manager, incidents.UpdateIncidentParams(
    incident_id=number, state="2", work_notes="Looking at it")))
check("add_comment", lambda: incidents.add_comment(config, manager, incidents.AddCommentParams(
    incident_id=number, comment="Any news?")))
check("get_incident_by_number", lambda: incidents.get_incident_by_number(
    config, manager, incidents.GetIncidentByNumberParams(incident_number=number)),
    lambda r: r["incident"]["number"] == number and r["incident"]["state"] == "In Progress")
check("list_incidents with a query", lambda: incidents.list_incidents(config, manager, incidents.ListIncidentsParams(
    limit=5, query=f"MCP printer {suffix}")),
    lambda r: [i["number"] for i in r["incidents"]] == [number])
check("resolve_incident", lambda: incidents.resolve_incident(config, manager, incidents.ResolveIncidentParams(
    incident_id=incident_id, resolution_code="Solved (Permanently)", resolution_notes="Cleared the jam")))
check("the incident is resolved", lambda: incidents.get_incident_by_number(
    config, manager, incidents.GetIncidentByNumberParams(incident_number=number)),
    lambda r: r["incident"]["state"] == "Resolved")

# Users and groups.
user = check("create_user", lambda: users.create_user(config, manager, users.CreateUserParams(
    user_name=f"mcp.user.{suffix}", first_name="Mia", last_name="Cole", email=f"mia.{suffix}@example.com",
    title="Analyst", password="Mcp-Pa55word!")), lambda r: bool(r.user_id))
user_id = user.user_id if user else ""
check("get_user by user_name", lambda: users.get_user(config, manager, users.GetUserParams(
    user_name=f"mcp.user.{suffix}")), lambda r: r["user"]["sys_id"] == user_id)
check("update_user", lambda: users.update_user(config, manager, users.UpdateUserParams(
    user_id=user_id, title="Senior analyst")))
check("list_users with a query", lambda: users.list_users(config, manager, users.ListUsersParams(
    query=f"mcp.user.{suffix}")), lambda r: [u["sys_id"] for u in r["users"]] == [user_id])
check("get_role_id itil", lambda: users.get_role_id(config, manager, "itil"), lambda r: bool(r))
check("assign_roles_to_user", lambda: users.assign_roles_to_user(config, manager, user_id, ["itil"]))
check("check_user_has_role", lambda: users.check_user_has_role(
    config, manager, user_id, users.get_role_id(config, manager, "itil")))
group = check("create_group", lambda: users.create_group(config, manager, users.CreateGroupParams(
    name=f"MCP group {suffix}", description="Made by the MCP tools")), lambda r: bool(r.group_id))
group_id = group.group_id if group else ""
check("update_group", lambda: users.update_group(config, manager, users.UpdateGroupParams(
    group_id=group_id, description="Renamed")))
check("add_group_members", lambda: users.add_group_members(config, manager, users.AddGroupMembersParams(
    group_id=group_id, members=[f"mcp.user.{suffix}"])))
check("list_groups with a query", lambda: users.list_groups(config, manager, users.ListGroupsParams(
    query=f"MCP group {suffix}")), lambda r: [g["sys_id"] for g in r["groups"]] == [group_id])
check("remove_group_members", lambda: users.remove_group_members(config, manager, users.RemoveGroupMembersParams(
    group_id=group_id, members=[f"mcp.user.{suffix}"])))

# Change requests.
change = check("create_change_request", lambda: changes.create_change_request(manager, config, {
    "short_description": f"MCP reboot {suffix}", "type": "normal", "risk": "3", "impact": "2"}),
    lambda r: r["change_request"]["number"].startswith("CHG"))
change_id = change["change_request"]["sys_id"] if change else ""
check("update_change_request", lambda: changes.update_change_request(manager, config, {
    "change_id": change_id, "work_notes": "Planned", "description": "Reboot the app servers"}))
check("add_change_task", lambda: changes.add_change_task(manager, config, {
    "change_id": change_id, "short_description": "Drain the load balancer"}),
    lambda r: r["change_task"]["number"].startswith("CTASK"))
check("get_change_request_details", lambda: changes.get_change_request_details(manager, config, {
    "change_id": change_id}), lambda r: len(r["tasks"]) == 1)
check("list_change_requests of type normal", lambda: changes.list_change_requests(manager, config, {
    "type": "normal", "query": f"short_descriptionLIKEMCP reboot {suffix}"}),
    lambda r: [c["sys_id"] for c in r["change_requests"]] == [change_id])
check("submit_change_for_approval", lambda: changes.submit_change_for_approval(manager, config, {
    "change_id": change_id, "approval_comments": "Please"}))
check("approve_change", lambda: changes.approve_change(manager, config, {
    "change_id": change_id, "approval_comments": "Fine"}))

# Knowledge.
base = check("create_knowledge_base", lambda: knowledge.create_knowledge_base(
    config, manager, knowledge.CreateKnowledgeBaseParams(title=f"MCP KB {suffix}", description="Runbooks")),
    lambda r: bool(r.kb_id))
kb_id = base.kb_id if base else ""
category = check("create_category", lambda: knowledge.create_category(config, manager, knowledge.CreateCategoryParams(
    title="Printers", knowledge_base=kb_id)), lambda r: bool(r.category_id))
category_id = category.category_id if category else ""
article = check("create_article", lambda: knowledge.create_article(config, manager, knowledge.CreateArticleParams(
    title="Clearing a jam", text="<p>Open tray 2.</p>", short_description=f"Clearing a jam {suffix}",
    knowledge_base=kb_id, category=category_id)), lambda r: bool(r.article_id))
article_id = article.article_id if article else ""
check("update_article", lambda: knowledge.update_article(config, manager, knowledge.UpdateArticleParams(
    article_id=article_id, keywords="printer, jam")))
check("publish_article", lambda: knowledge.publish_article(config, manager, knowledge.PublishArticleParams(
    article_id=article_id)))
check("get_article", lambda: knowledge.get_article(config, manager, knowledge.GetArticleParams(
    article_id=article_id)), lambda r: r["article"]["workflow_state"].lower() == "published")
check("list_articles in the base", lambda: knowledge.list_articles(config, manager, knowledge.ListArticlesParams(
    knowledge_base=kb_id)), lambda r: [a["id"] for a in r["articles"]] == [article_id])
check("list_knowledge_bases", lambda: knowledge.list_knowledge_bases(
    config, manager, knowledge.ListKnowledgeBasesParams(query=f"MCP KB {suffix}")),
    lambda r: [k["id"] for k in r["knowledge_bases"]] == [kb_id])
check("list_categories of the base", lambda: knowledge.list_categories(
    config, manager, knowledge.ListCategoriesParams(knowledge_base=kb_id)),
    lambda r: [c["id"] for c in r["categories"]] == [category_id])

print(f"{passed} passed, {failed} failed")
sys.exit(0 if failed == 0 else 1)
