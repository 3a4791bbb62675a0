"""pytest plugin for running PySNC's own tests against `nowflow serve` over plain HTTP.

PySNC refuses any http:// instance in `pysnc.utils.get_instance`. This plugin, loaded with
`-p nowflow_local` from outside PySNC's files, replaces that function (where PySNC's modules
imported it) with one that returns a loopback URL (http://127.0.0.1[:port], http://localhost[:port])
unchanged and hands everything else to the original, so PySNC's own tests of the rule still pass.
"""

import re

import pysnc.client
import pysnc.utils

_LOOPBACK = re.compile(r"^http://(127\.0\.0\.1|localhost)(:\d+)?/?$")
_original = pysnc.utils.get_instance


def get_instance(instance):
    if isinstance(instance, str) and _LOOPBACK.match(instance):
        return instance.rstrip("/")
    return _original(instance)


pysnc.utils.get_instance = get_instance
pysnc.client.get_instance = get_instance
try:
    import pysnc.asyncio.client

    pysnc.asyncio.client.get_instance = get_instance
except ImportError:
    pass
