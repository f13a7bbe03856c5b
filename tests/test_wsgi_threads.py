"""config.threads: Django's WSGI handler as an ASGI app on a pool of threads."""

import asyncio
import threading

from django.core.wsgi import get_wsgi_application
from django.http import HttpResponse, StreamingHttpResponse
from django.test import override_settings
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from config.threads import WsgiOnThreads

seen_threads = set()


def whole(request):
    seen_threads.add(threading.current_thread().name)
    return HttpResponse(b"whole answer", status=201, headers={"X-Kind": "whole"})


def streamed(request):
    return StreamingHttpResponse(iter([b"one,", b"", b"two"]), headers={"X-Kind": "streamed"})


@csrf_exempt
def posted(request):
    return HttpResponse(request.body[::-1])


urlpatterns = [path("whole", whole), path("streamed", streamed), path("posted", posted)]


def call(app, path, method="GET", body=b""):
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"content-length", str(len(body)).encode())],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    sent = []
    requests = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive():
        return requests.pop(0) if requests else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    return sent


@override_settings(ROOT_URLCONF=__name__, ALLOWED_HOSTS=["testserver"])
def test_answers_whole_and_streamed(db):
    app = WsgiOnThreads(get_wsgi_application(), threads=2)
    sent = call(app, "/whole")
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    assert sent[0]["status"] == 201 and (b"x-kind", b"whole") in sent[0]["headers"]
    assert sent[1]["body"] == b"whole answer" and not sent[1].get("more_body")
    assert seen_threads and all(name.startswith("WSGI") for name in seen_threads)

    sent = call(app, "/streamed")
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 200
    assert (b"x-kind", b"streamed") in sent[0]["headers"]
    body = [m for m in sent[1:] if m["type"] == "http.response.body"]
    assert b"".join(m["body"] for m in body) == b"one,two"
    assert [m.get("more_body", False) for m in body] == [True, True, False]

    sent = call(app, "/posted", method="POST", body=b"abc")
    assert sent[1]["body"] == b"cba"
