"""The benchmark's bare view is routed by the benchmark's URLconf only, never the service's."""

import pytest
from django.test import override_settings
from django.urls import Resolver404, resolve

from bench import urls as bench_urls
from config import urls as service_urls


def test_the_service_does_not_route_the_bare_view():
    with pytest.raises(Resolver404):
        resolve("/bench/bare", urlconf="config.urls")


def test_the_benchmark_routes_it_beside_every_route_of_the_service(client):
    assert resolve(bench_urls.BARE_PATH, urlconf="bench.urls").func is bench_urls.bare
    assert bench_urls.urlpatterns[1:] == service_urls.urlpatterns
    with override_settings(ROOT_URLCONF="bench.urls"):
        response = client.get(bench_urls.BARE_PATH)
    assert response.status_code == 200 and response.json()["access"] == "read-only"
