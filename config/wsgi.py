"""The service's WSGI application, which `make serve` runs on gunicorn's sync workers:
/mcp to the MCP server (mcpserver.wsgi), everything else to Django.

docs/performance.md ("Serving: the choice") has the measurements behind the choice of
server; config.asgi serves the same routes to an ASGI server (`make run`).
"""

import logging
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_application = get_wsgi_application()

from config.loaded import freeze_loaded  # noqa: E402
from config.log_filters import RedactSecrets  # noqa: E402
from mcpserver.asgi import MCP_PATHS  # noqa: E402
from mcpserver.wsgi import McpWsgi  # noqa: E402

# gunicorn's own lines (a request that failed outside Django names its path), as Django's:
# no secret of a path in them.
logging.getLogger("gunicorn.error").addFilter(RedactSecrets())

mcp_application = McpWsgi()


def application(environ, start_response):
    if environ.get("PATH_INFO") in MCP_PATHS:
        return mcp_application(environ, start_response)
    return django_application(environ, start_response)


freeze_loaded()
