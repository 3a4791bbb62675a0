#!/usr/bin/env python3
"""A JSONv2 client, doing what the Terraform provider for ServiceNow's client does (coveooss/terraform-provider-
servicenow, servicenow/client/client_base.go): create a record (sysparm_action=insert), read it (a GET with
sysparm_query=sys_id=...), update it (sysparm_action=update&sysparm_query=sys_id=...) and delete it
(sysparm_action=deleteRecord&sysparm_sys_id=..., with no body), each with Basic authentication and JSON, a status
other than 2xx and a record whose __status is not success being errors.

Python's standard library only. Run against an instance, it creates, reads, updates, reads, deletes and reads
one record of TABLE, printing a line for each:

    jsonv2_client.py URL USER PASSWORD [TABLE]
"""

import base64
import json
import sys
import urllib.error
import urllib.parse
import urllib.request


class JSONv2Error(Exception):
    """A refused request, or a record the instance could not write."""


class JSONv2Client:
    def __init__(self, base_url, user, password):
        self.base_url = base_url.rstrip("/")
        token = base64.b64encode(f"{user}:{password}".encode()).decode()
        self.authorization = "Basic " + token

    def _request(self, method, table, parameters, body=None):
        query = "JSONv2&" + urllib.parse.urlencode(parameters)
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"{self.base_url}/{table}.do?{query}", data=data, method=method,
            headers={"Authorization": self.authorization, "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request) as response:
                return json.loads(response.read().decode() or "{}")
        except urllib.error.HTTPError as error:
            raise JSONv2Error(f"Response status {error.code}: {error.read().decode()}") from None

    @staticmethod
    def _record(answer, doing):
        records = answer.get("records", [])
        if not records:
            raise JSONv2Error(f"no record was {doing}")
        record = records[0]
        if record.get("__status", "success") != "success":
            error = record.get("__error") or {}
            raise JSONv2Error(f"error during {doing} -> {error.get('message')}: {error.get('reason')}")
        return record

    def create(self, table, fields):
        return self._record(self._request("POST", table, {"sysparm_action": "insert"}, fields), "insert")

    def read(self, table, sys_id):
        records = self._request("GET", table, {"sysparm_query": "sys_id=" + sys_id}).get("records", [])
        return records[0] if records else None

    def update(self, table, sys_id, fields):
        parameters = {"sysparm_action": "update", "sysparm_query": "sys_id=" + sys_id}
        return self._record(self._request("POST", table, parameters, fields), "update")

    def delete(self, table, sys_id):
        parameters = {"sysparm_action": "deleteRecord", "sysparm_sys_id": sys_id}
        return self._record(self._request("POST", table, parameters), "deleteRecord")


def main(arguments):
    if len(arguments) not in (3, 4):
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    url, user, password = arguments[:3]
    table = arguments[3] if len(arguments) == 4 else "incident"
    client = JSONv2Client(url, user, password)
    try:
        created = client.create(table, {"short_description": "Created over JSONv2", "urgency": "2"})
        sys_id = created["sys_id"]
        print("created", created["__status"], created["short_description"], created["urgency"], len(sys_id))
        read = client.read(table, sys_id)
        print("read", read["short_description"], read["sys_id"] == sys_id)
        updated = client.update(table, sys_id, {"short_description": "Updated over JSONv2"})
        print("updated", updated["__status"], updated["short_description"])
        print("read", client.read(table, sys_id)["short_description"])
        deleted = client.delete(table, sys_id)
        print("deleted", deleted["__status"], deleted["sys_id"] == sys_id)
        print("read", client.read(table, sys_id))
        client.delete(table, sys_id)
    except JSONv2Error as error:
        print("error:", error)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
