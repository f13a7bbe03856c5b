"""The service's routes (config.urls) and, for the benchmark only, a bare Django JSON view
(bench.settings names this URLconf; production's is config.urls)."""

from django.http import JsonResponse
from django.urls import path

from config.urls import *  # noqa: F403
from config.urls import urlpatterns as service_urlpatterns

BARE_PATH = "/bench/bare"


def bare(request):
    """A plain Django view: no authentication, no REST framework, one small JSON object
    (about the size of whoami's answer), through the same middleware and server."""
    return JsonResponse(
        {
            "workspace": {"id": "00000000-0000-0000-0000-000000000000"},
            "token": {"name": "bench"},
            "access": "read-only",
        }
    )


urlpatterns = [path(BARE_PATH.lstrip("/"), bare, name="bench-bare"), *service_urlpatterns]
