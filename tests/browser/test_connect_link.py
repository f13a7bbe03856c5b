"""A client opens a connect link an agency made through the API and connects Stripe, then
Calendly, in Chromium, as a person would: no header is set by the test, the browser sends
what it sends (its Origin and Referer under the page's referrer policy)."""

import pytest
from rest_framework.test import APIClient

from agency.models import ConnectLink
from integrations import connections
from integrations.models import Connection

from .conftest import DESKTOP, PHONE, BrowserErrors, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STRIPE_KEY = "sk_test_" + "Nw7dPq2Lr9Xk" * 3
STRIPE_WEBHOOK_SECRET = "whsec_" + "b64Sig9Secret" * 3
CALENDLY_TOKEN = "eyJraWQiOiIxY2UxZTEzNiJ9.eyJpc3MiOiJodHRwcyJ9.c2lnbmF0dXJlLXBhcnQ"


@pytest.fixture
def link_url(make_agency, make_workspace, agency_token, settings, live_server, monkeypatch):
    settings.BASE_URL = live_server.url
    # Nothing here reaches Stripe or Calendly: the backfill a connection starts is not sent.
    monkeypatch.setattr(connections, "backfill_enqueue", lambda connection_id: None)
    agency = make_agency(tier="agency", name="Northwind Agency")
    workspace = make_workspace(agency=agency, name="Acme Coaching", slug="acme")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {agency_token(agency)}")
    made = client.post(
        f"/api/v1/workspaces/{workspace.pk}/connect-links",
        {"integrations": ["stripe", "calendly"]},
        format="json",
        HTTP_IDEMPOTENCY_KEY="connect-link-0001",
    )
    assert made.status_code == 201, made.content
    return workspace, made.json()["url"]


def _connect(page, label: str, fields: dict[str, str], button: str) -> None:
    page.click(f"#choose-{label}")
    for field, value in fields.items():
        page.fill(f"#field-{field}", value)
    page.click(button)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_client_connects_stripe_and_calendly_through_the_link(chromium, link_url, viewport):
    workspace, url = link_url
    context = chromium.new_context(viewport=viewport)
    context.set_default_timeout(15_000)
    errors = BrowserErrors(context)
    sent = []
    context.on(
        "request",
        lambda request: request.method == "POST" and sent.append(request.all_headers()),
    )
    page = context.new_page()
    try:
        page.goto(url)
        assert page.is_visible("text=Connect your tools to Acme Coaching")
        if viewport is DESKTOP:
            page.click("#choose-stripe")
            shot(page, "connect-link.png")
            page.goto(url)

        _connect(
            page,
            "stripe",
            {"secret_key": STRIPE_KEY, "webhook_secret": STRIPE_WEBHOOK_SECRET},
            "#connect-stripe",
        )
        assert page.is_visible("text=Stripe's credentials are saved. Thank you.")
        # The state in the words the Integrations page and the agency console use.
        assert page.text_content("#offered-stripe strong").strip() == "Connected"
        assert page.text_content("#offered-stripe .state-sentence").strip() == (
            "Stripe is connected."
        )

        _connect(page, "calendly", {"personal_access_token": CALENDLY_TOKEN}, "#connect-calendly")
        assert page.is_visible("text=Calendly's credentials are saved. Thank you.")

        # The browser posted with its own origin, and the link's secret left in no Referer.
        assert len(sent) == 2
        secret = url.rsplit("/", 1)[1]
        for headers in sent:
            assert headers.get("origin") != "null"
            assert secret not in headers.get("referer", "")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"]
    finally:
        context.close()
    assert errors.messages == []
    assert sorted(
        Connection.objects.filter(workspace=workspace).values_list("provider", flat=True)
    ) == ["calendly", "stripe"]
    assert ConnectLink.objects.get().connections.count() == 2


def test_a_second_submission_of_the_same_form_makes_one_connection(chromium, link_url):
    workspace, url = link_url
    context = chromium.new_context(viewport=DESKTOP)
    context.set_default_timeout(15_000)
    # The same form open twice (two tabs, or a form sent again), both filled and sent.
    first, second = context.new_page(), context.new_page()
    try:
        for page in (first, second):
            page.goto(url)
            page.click("#choose-stripe")
            page.fill("#field-secret_key", STRIPE_KEY)
            page.fill("#field-webhook_secret", STRIPE_WEBHOOK_SECRET)
        first.click("#connect-stripe")
        assert first.is_visible("text=Stripe's credentials are saved. Thank you.")
        second.click("#connect-stripe")
        assert second.text_content("#error-integration") == (
            f"Stripe is already connected to {workspace.name} and working. An owner or admin "
            f"of {workspace.name} replaces its credentials on the Integrations page."
        )
    finally:
        context.close()
    assert Connection.objects.filter(workspace=workspace, provider="stripe").count() == 1
