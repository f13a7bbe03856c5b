"""The service's ASGI application: /mcp to the MCP server, everything else to Django.

`make run` serves it with uvicorn (production runs config.wsgi on gunicorn's sync workers;
docs/performance.md has the comparison). The MCP transport needs the ASGI lifespan, which
this app answers.

Django's views are synchronous. Its ASGI handler runs each request in a thread of its
own, so a database connection is never reused and every request connects again; here
Django's WSGI handler runs instead, on a fixed pool of threads (config/threads.py), so
each thread keeps its persistent connection (CONN_MAX_AGE) and a REST request takes the
same path as under gunicorn's sync workers. WEB_THREADS (default 10) sets the threads.
"""

import logging
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_wsgi = get_wsgi_application()

from django.conf import settings  # noqa: E402

from config.loaded import freeze_loaded  # noqa: E402
from config.log_filters import RedactAccessLine, RedactSecrets  # noqa: E402
from config.threads import WsgiOnThreads  # noqa: E402
from mcpserver.asgi import MCP_PATHS, McpEndpoint  # noqa: E402

# uvicorn's request lines and errors, as Django's own: no secret of a path in them.
logging.getLogger("uvicorn.access").addFilter(RedactAccessLine())
logging.getLogger("uvicorn.error").addFilter(RedactSecrets())

if settings.DEBUG:
    # As runserver does in development: the app's own static files.
    from django.contrib.staticfiles.handlers import StaticFilesHandler

    django_wsgi = StaticFilesHandler(django_wsgi)

# Requests of one process served at once (each thread keeps one database connection).
django_application = WsgiOnThreads(django_wsgi, threads=int(os.environ.get("WEB_THREADS", "10")))

mcp_endpoint = McpEndpoint()


async def _lifespan(receive, send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            try:
                await mcp_endpoint.startup()
            except Exception as error:  # reported to the server, which stops
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


freeze_loaded()
