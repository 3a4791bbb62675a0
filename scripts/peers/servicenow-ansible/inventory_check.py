"""Checks what servicenow.servicenow's `now` inventory plugin built (ansible-inventory --list) against the records
the instance answers for the same table, fields and query. Prints one line per check: name, passed or failed, why.

    inventory_check.py servers|paged INVENTORY_JSON URL CA_FILE ADMIN_PASSWORD
"""

import json
import re
import sys

import requests

kind, inventory_file, url, ca_file, password = sys.argv[1:6]
with open(inventory_file) as handle:
    inventory = json.load(handle)
hostvars = inventory.get("_meta", {}).get("hostvars", {})


def group(name):
    return set(inventory.get(name, {}).get("hosts", []))


def records(fields, query, limit=None):
    params = {
        "sysparm_display_value": "true",
        "sysparm_exclude_reference_link": "true",
        "sysparm_fields": ",".join(fields),
        "sysparm_query": query,
    }
    if limit:
        params["sysparm_limit"] = str(limit)
    response = requests.get(
        url + "/api/now/table/cmdb_ci_server", params=params, auth=("admin", password), verify=ca_file,
        headers={"Accept": "application/json"})
    response.raise_for_status()
    return response


def check(name, ok, why=""):
    print(f"{name}\t{'passed' if ok else 'failed'}\t{'' if ok else why}")


def safe(name):
    # Ansible's to_safe_group_name: every character that is not a letter, digit or underscore becomes one.
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


if kind == "servers":
    fields = ["os", "ip_address", "fqdn", "host_name", "sys_class_name", "name", "disk_space", "cpu_count"]
    expected = {r["name"]: r for r in records(fields, "").json()["result"] if r["name"]}
    check("a host per named server", set(hostvars) == set(expected) and len(expected) > 0,
          f"{len(hostvars)} hosts, {len(expected)} named servers; "
          f"extra {sorted(set(hostvars) - set(expected))[:3]}, missing {sorted(set(expected) - set(hostvars))[:3]}")
    wrong = [h for h, r in expected.items() if any(hostvars.get(h, {}).get("sn_" + f) != r[f] for f in fields)]
    check("each field as sn_ host variables", not wrong, f"differ for {wrong[:3]}")
    wrong = [h for h, r in expected.items() if h not in group("sn_" + safe(r["sys_class_name"]))]
    check("keyed_groups by sys_class_name", not wrong, f"not in their sn_ group: {wrong[:3]}")
    large = {h for h, r in expected.items() if r["disk_space"] and float(r["disk_space"]) > 100}
    check("groups: large by disk_space", group("large") == large and len(large) > 0,
          f"large {sorted(group('large'))[:3]}, expected {sorted(large)[:3]}")
    wrong = [h for h, r in expected.items()
             if hostvars.get(h, {}).get("os_class") != r["os"].split(" ")[0]
             or (r["os"] and h not in group(safe(r["os"].split(" ")[0])))]
    check("compose: os_class and its keyed group", not wrong, f"wrong for {wrong[:3]}")
else:
    fields = ["name", "ip_address", "sys_class_name"]
    first = records(fields, "nameISNOTEMPTY^ORDERBYname", limit=2)
    names = [r["name"] for r in records(fields, "nameISNOTEMPTY^ORDERBYname").json()["result"]]
    check("the instance pages by 2 with Link rel=next", "next" in first.links and len(names) > 2,
          f"{len(names)} servers, Link: {first.headers.get('Link')}")
    check("every page followed", sorted(hostvars) == sorted(names),
          f"{len(hostvars)} hosts of {len(names)} servers")
