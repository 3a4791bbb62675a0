"""PySNC's JWT bearer authentication (ServiceNowJWTAuth, unmodified) against `nowflow serve`.

    python pysnc_jwt.py URL CLIENT_ID CLIENT_SECRET ASSERTION

The assertion is a signed JWT made outside (PySNC expects one "from your OIDC provider"); PySNC sends it to
/oauth_token.do in an `Authentication: Bearer` header with the client's id and secret, then uses the access token it
gets. The script creates an incident with it and reads who created it, then tries a client with a wrong secret.

scripts/pysnc/nowflow_local.py lets PySNC use http://127.0.0.1 (it accepts https:// instances only). PySNC builds
the token URL from the instance's host alone (`scheme://host/oauth_token.do`), dropping its port: harmless at a real
instance on 443, but a server on another port never hears it. `requests.post` below sends a port-less loopback URL
to the server's port; nothing else of the request changes.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pysnc"))
import nowflow_local  # noqa: E402,F401
import pysnc  # noqa: E402
import requests  # noqa: E402
from pysnc.auth import ServiceNowJWTAuth  # noqa: E402
from urllib3.util import parse_url  # noqa: E402

url, client_id, client_secret, assertion = sys.argv[1:5]
port = parse_url(url).port
_post = requests.post


def post(target, *args, **kwargs):
    parts = parse_url(target)
    if parts.host in ("127.0.0.1", "localhost") and parts.port is None:
        target = parts._replace(port=port).url
    return _post(target, *args, **kwargs)


requests.post = post

client = pysnc.ServiceNowClient(url, ServiceNowJWTAuth(client_id, client_secret, assertion))
incident = client.GlideRecord("incident")
incident.initialize()
incident.short_description = "pysnc jwt"
sys_id = incident.insert()
created = client.GlideRecord("incident")
created.fields = "sys_created_by,short_description"
print("created", created.get(sys_id), created.sys_created_by, created.short_description)

wrong = pysnc.ServiceNowClient(url, ServiceNowJWTAuth(client_id, "wrong-secret", assertion))
try:
    wrong.GlideRecord("incident").get(sys_id)
    print("wrong secret accepted")
except AssertionError as error:
    print("wrong secret", error)
