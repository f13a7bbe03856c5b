"""The web process's uvicorn worker for gunicorn (`make serve`).

- No `server` header: the answer does not name the server software.
- No proxy headers: uvicorn does not rewrite the client's address from `X-Forwarded-For`
  (its default trusts any loopback peer). The service reads that header itself, trusting
  exactly NUM_PROXIES proxies (the request rates, the sign-in lockout, /mcp), and the
  scheme from `X-Forwarded-Proto` (SECURE_PROXY_SSL_HEADER).
"""

from uvicorn_worker import UvicornWorker


class ServiceUvicornWorker(UvicornWorker):
    CONFIG_KWARGS = {
        **UvicornWorker.CONFIG_KWARGS,
        "server_header": False,
        "proxy_headers": False,
    }
