"""Does for `nowflow serve` what WorkArena's installer (`workarena-install`, setup_ui_themes) does for a PDI before
its tests run: loads the WorkArena UI themes from the package's own update set (data_files/setup_files/ui_themes/
workarena_themes.xml) as records of sys_ux_theme, sys_ux_style and m2m_theme_style (their sys_ids kept, so the
references hold), through the Table API. Then checks them as the installer does (get_workarena_theme_variants).

    install_themes.py URL ADMIN_PASSWORD     (REQUESTS_CA_BUNDLE trusts the server)
"""

import html
import re
import sys

import requests
from browsergym.workarena.config import UI_THEMES_UPDATE_SET

url, password = sys.argv[1:3]
FIELDS = {
    "sys_ux_theme": ["sys_id", "name", "active", "description"],
    "sys_ux_style": ["sys_id", "name", "type"],
    "m2m_theme_style": ["sys_id", "theme", "style", "order"],
}
with open(UI_THEMES_UPDATE_SET["update_set"], encoding="utf-8") as handle:
    payloads = [html.unescape(p) for p in re.findall(r"<payload>(.*?)</payload>", handle.read(), re.S)]
made = {table: 0 for table in FIELDS}
for table in FIELDS:  # themes and styles before the records that refer to them
    for payload in payloads:
        match = re.search(rf'<{table} action="INSERT_OR_UPDATE">(.*?)</{table}>', payload, re.S)
        if not match:
            continue
        values = dict(re.findall(r"<(\w+)(?: [^>]*)?>([^<]*)</\1>", match.group(1)))
        record = {field: values.get(field, "") for field in FIELDS[table]}
        response = requests.post(f"{url}/api/now/table/{table}", json=record, auth=("admin", password))
        if response.status_code != 201:
            sys.exit(f"{table}: {response.status_code} {response.text}")
        made[table] += 1
print(", ".join(f"{count} {table}" for table, count in made.items()))
