"""The web process's gunicorn workers.

`ServiceSyncWorker` is the one `make serve` runs (config.wsgi); `ServiceUvicornWorker` serves
config.asgi to compare (bench/run.py --server asgi). Both:

- send no `Server` header: the answer does not name the server software;
- leave the client's address alone: neither rewrites it from `X-Forwarded-For` (uvicorn's
  default trusts any loopback peer; gunicorn never rewrites REMOTE_ADDR, and `make serve`
  trusts no forwarded scheme either: --forwarded-allow-ips ''). The service reads that
  header itself, trusting exactly NUM_PROXIES proxies (the request rates, the sign-in
  lockout, /mcp), and the scheme from `X-Forwarded-Proto` (SECURE_PROXY_SSL_HEADER), that
  one only when NUM_PROXIES is above 0.
"""

from gunicorn.http import wsgi as gunicorn_wsgi
from gunicorn.workers.sync import SyncWorker
from uvicorn_worker import UvicornWorker


class _AnswerWithoutServer(gunicorn_wsgi.Response):
    def default_headers(self):
        return [line for line in super().default_headers() if not line.startswith("Server:")]


class ServiceSyncWorker(SyncWorker):
    def init_process(self):
        # gunicorn builds every answer of the worker with gunicorn.http.wsgi.Response (its
        # `create` takes no other class from the sync worker): in this process, that class
        # is the one without the `Server` line.
        gunicorn_wsgi.Response = _AnswerWithoutServer
        super().init_process()


class ServiceUvicornWorker(UvicornWorker):
    CONFIG_KWARGS = {
        **UvicornWorker.CONFIG_KWARGS,
        "server_header": False,
        "proxy_headers": False,
    }
