"""The suite runs in several processes at once (pytest-xdist): each gets its own Redis
database, so that one process's cache flushes, rate counters and queues never meet
another's. The databases of the SQL server are already one per process (pytest-django adds
the process's name to the test database's).

Loaded with `-p tests.parallel` before Django reads its settings.
"""

import os
import re

_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")


def _own_database(url: str, index: int) -> str:
    """The Redis URL with its database number moved down by the process's index (15 and 14
    for two processes of a suite on database 15)."""
    match = re.fullmatch(r"(rediss?://[^/]+)/(\d+)", url)
    if not match:
        return url
    return f"{match[1]}/{(int(match[2]) - index) % 16}"


if _WORKER.startswith("gw") and _WORKER[2:].isdigit():
    for _name in ("CELERY_BROKER_URL", "CACHE_URL", "AGENCY_TEST_BROKER_URL"):
        if os.environ.get(_name):
            os.environ[_name] = _own_database(os.environ[_name], int(_WORKER[2:]))
