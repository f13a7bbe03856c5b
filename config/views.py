import sys

from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.views import defaults

from accounts.pages import signed_in_home
from core.errors import ApiError, BodyTooLarge, NotFound, Unavailable, error_headers


def home(request):
    if request.user.is_authenticated:
        return signed_in_home(request)
    return render(request, "home.html")


def favicon(request):
    return HttpResponsePermanentRedirect(static("favicon.svg"))


def _wants_json(request) -> bool:
    return request.path.startswith(("/api/", "/openapi/", "/o/", "/.well-known/", "/hooks/"))


def not_found(request, exception=None):
    if _wants_json(request):
        return JsonResponse(NotFound("No route or resource at this address.").body(), status=404)
    return render(request, "404.html", status=404)


def bad_request(request, exception=None):
    """Django's own 400s (a body over the limit met outside a DRF view, a bad host...)."""
    if _wants_json(request):
        if isinstance(exception, RequestDataTooBig):
            error = BodyTooLarge()
        else:
            error = ApiError("The request cannot be read: check its headers and body.")
        return JsonResponse(error.body(), status=400)
    return defaults.bad_request(request, exception)


def _unavailable(request):
    """A database that cannot be reached answers 503 with Retry-After, in the error shape
    (core.errors.Unavailable): a client retries, and nothing was half-written (the
    request's transaction did not commit)."""
    error = Unavailable()
    if _wants_json(request):
        response = JsonResponse(error.body(), status=error.status_code)
    else:
        # Rendered without the request: the pages' context reads the database.
        response = HttpResponse(render_to_string("503.html"), status=error.status_code)
    for name, value in error_headers(error).items():
        response[name] = value
    return response


def server_error(request):
    # Never a stack trace: the details are in the server's log.
    if isinstance(sys.exc_info()[1], (OperationalError, InterfaceError)):
        return _unavailable(request)
    if _wants_json(request):
        error = ApiError(
            "Something went wrong on our side; retry, and contact support if it persists.",
            reason="server_error",
        )
        return JsonResponse(error.body(), status=500)
    return render(request, "500.html", status=500)
