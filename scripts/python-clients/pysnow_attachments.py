"""pysnow's attachment calls against `nowflow serve`: upload (raw), list, download by its link, delete.

    python pysnow_attachments.py URL PASSWORD FILE
"""

import hashlib
import sys

import pysnow

url, password, path = sys.argv[1:4]
data = open(path, "rb").read()
client = pysnow.Client(host=url.split("://", 1)[1], user="admin", password=password, use_ssl=False)
incidents = client.resource(api_path="/table/incident")
record = incidents.create(payload={"short_description": "pysnow attachments"}).one()

uploaded = incidents.attachments.upload(sys_id=record["sys_id"], file_path=path, name="notes from pysnow ü.txt").one()
print("uploaded", uploaded["file_name"], uploaded["size_bytes"], uploaded["content_type"],
      uploaded["hash"] == hashlib.sha256(data).hexdigest())
listed = incidents.attachments.get(sys_id=record["sys_id"])
print("listed", [item["file_name"] for item in listed])
download = client.session.get(uploaded["download_link"])
print("downloaded", download.status_code, download.content == data, "X-Attachment-Metadata" in download.headers)
print("deleted", incidents.attachments.delete(uploaded["sys_id"]))
print("listed", [item["file_name"] for item in incidents.attachments.get(sys_id=record["sys_id"])])
incidents.delete(query={"sys_id": record["sys_id"]})
