"""Request rates of the app's pages, counted as the API's: a signed-in person's reads and
writes by their account, anyone else's requests by their client address, in the same
shared counters and with the same settings (RATE_LIMIT_READ, RATE_LIMIT_WRITE,
RATE_LIMIT_ANON). Over the rate, a page answers 429 with Retry-After. Prometheus' scrape of
/metrics with METRICS_TOKEN is not counted; a request to it without the token is.

Every HTML page also answers a Permissions-Policy that turns off the browser features no
page uses (PermissionsPolicyMiddleware)."""

import time

from django.shortcuts import render
from rest_framework.throttling import BaseThrottle

from .metrics import metrics_scrape
from .throttling import rate_count

METRICS_PATH = "/metrics"

# The API's routes count in DRF's throttle; static files and the admin are not counted.
NOT_PAGES = ("/api/", "/openapi/", "/o/", "/.well-known/", "/hooks/", "/mcp", "/static/", "/admin/")
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def page_clock() -> float:
    return time.time()


class PageRateLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.address = BaseThrottle()

    def __call__(self, request):
        if request.path.startswith(NOT_PAGES):
            return self.get_response(request)
        if request.path == METRICS_PATH and metrics_scrape(request):
            # Prometheus' scrape, with its token; a guess at the token is counted.
            return self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            policy = "read" if request.method in SAFE_METHODS else "write"
            ident = f"user:{user.pk}"
        else:
            policy, ident = "anonymous", f"address:{self.address.get_ident(request)}"
        state = rate_count(policy, ident, page_clock())
        if state is not None and not state.allowed:
            response = render(request, "429.html", {"state": state}, status=429)
            response["Retry-After"] = str(state.reset)
        else:
            response = self.get_response(request)
        if state is not None:
            for name, value in state.headers().items():
                response[name] = value
        return response


# The browser features no page of the service uses, turned off for the page and every frame.
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "autoplay",
        "browsing-topics",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "publickey-credentials-get",
        "serial",
        "usb",
        "xr-spatial-tracking",
    )
)


class PermissionsPolicyMiddleware:
    """A Permissions-Policy header on every HTML answer (the pages); the API's JSON answers
    carry none."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.get("Content-Type", "").startswith("text/html"):
            response.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response
