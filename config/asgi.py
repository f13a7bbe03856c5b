"""The service's ASGI application: /mcp to the MCP server, everything else to Django.

Production serves it with gunicorn and uvicorn workers (`make serve`); `make run` with
uvicorn. The MCP transport needs the ASGI lifespan, which this app answers.
"""

import gc
import logging
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# PostgreSQL connections come from a pool here (see DB_POOL in config.settings).
os.environ.setdefault("DB_POOL", "true")

django_application = get_asgi_application()

from django.conf import settings  # noqa: E402

from config.log_filters import RedactSecrets  # noqa: E402
from mcpserver.asgi import McpEndpoint  # noqa: E402

# uvicorn's request lines and errors, as Django's own: no secret of a path in them.
for logger_name in ("uvicorn.access", "uvicorn.error"):
    logging.getLogger(logger_name).addFilter(RedactSecrets())

if settings.DEBUG:
    # As runserver does in development: the app's own static files.
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    django_application = ASGIStaticFilesHandler(django_application)

MCP_PATHS = {"/mcp", "/mcp/"}

mcp_endpoint = McpEndpoint()


async def _lifespan(receive, send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            try:
                await mcp_endpoint.startup()
            except Exception as error:  # noqa: BLE001 - reported to the server, which stops
                await send({"type": "lifespan.startup.failed", "message": str(error)})
                return
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await mcp_endpoint.shutdown()
            await send({"type": "lifespan.shutdown.complete"})
            return


async def application(scope, receive, send):
    if scope["type"] == "lifespan":
        await _lifespan(receive, send)
    elif scope["type"] == "http" and scope["path"] in MCP_PATHS:
        await mcp_endpoint(scope, receive, send)
    else:
        await django_application(scope, receive, send)


# As in config.wsgi: what is loaded now lives as long as the process.
gc.freeze()
