"""PySNC's attachment calls and its Batch API calls (update_multiple, delete_multiple) against `nowflow serve`.

    python pysnc_attachments_batch.py URL PASSWORD FILE DIRECTORY

scripts/pysnc/nowflow_local.py lets PySNC use http://127.0.0.1 (it accepts https:// instances only).
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pysnc"))
import nowflow_local  # noqa: E402,F401
import pysnc  # noqa: E402

url, password, path, directory = sys.argv[1:5]
data = open(path, "rb").read()
client = pysnc.ServiceNowClient(url, ("admin", password))

incident = client.GlideRecord("incident")
incident.initialize()
incident.short_description = "pysnc attachments"
sys_id = incident.insert()
incident = client.GlideRecord("incident")
incident.get(sys_id)
with open(path, "rb") as file:
    location = incident.add_attachment("pysnc ü ../notes.txt", file, "text/plain")
attachments = incident.get_attachments()
for attachment in attachments:
    print("attachment", attachment.file_name, attachment.size_bytes, attachment.content_type, attachment.read() == data)
    # add_attachment returns the answer's Location header, a link to the new attachment.
    print("location", location.startswith(url + "/") and f"/attachment/{attachment.sys_id}" in location)
    written = attachment.write_to(os.path.join(directory, "copy.txt"))
    print("written", open(written, "rb").read() == data)
    attachment.delete()
print("left", len(incident.get_attachments()))

for number in range(3):
    batch = client.GlideRecord("incident")
    batch.initialize()
    batch.short_description = f"pysnc batch {number}"
    batch.insert()
updates = client.GlideRecord("incident")
updates.add_query("short_description", "STARTSWITH", "pysnc batch")
updates.query()
for record in updates:
    record.urgency = "1"
print("update_multiple", updates.update_multiple())
check = client.GlideRecord("incident")
check.add_query("short_description", "STARTSWITH", "pysnc batch")
check.add_query("urgency", "1")
check.query()
print("updated", len(check))
deletes = client.GlideRecord("incident")
deletes.add_query("short_description", "STARTSWITH", "pysnc")
deletes.query()
print("delete_multiple", deletes.delete_multiple())
left = client.GlideRecord("incident")
left.add_query("short_description", "STARTSWITH", "pysnc")
left.query()
print("left", len(left))
