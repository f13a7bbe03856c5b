"""An agency user mints an agency token, then approves a waiting plan and sees it applied."""

import re
from urllib.parse import urlsplit

import pytest
from rest_framework.test import APIClient

from agency.models import Plan

from .conftest import shot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAN = {
    "workspace": {
        "name": "Acme Coaching",
        "slug": "acme",
        "currency": "USD",
        "timezone": "America/New_York",
    },
    "team": [
        {"email": "ana@acme.test", "name": "Ana Closer", "role": "closer"},
        {"email": "ben@acme.test", "name": "Ben Owner", "role": "owner"},
    ],
    "programmes": [{"name": "Mastermind", "price": "4997.00"}],
}


def _api_write(token, path, body=None, key="k"):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client.post(path, body or {}, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_agency_tokens_then_approve_a_waiting_plan(
    page, live_server, make_agency, make_workspace, agency_token, make_user
):
    agency = make_agency(tier="agency", name="Northwind Agency")
    make_workspace(agency=agency, name="Northwind One", slug="northwind-one")
    person = make_user("ops@northwind.test")
    agency.users.add(person)
    token = agency_token(agency)
    created = _api_write(token, "/api/v1/plans", PLAN, key="create-plan-0001")
    assert created.status_code == 201, created.content
    plan_id = created.json()["id"]
    asked = _api_write(
        token, f"/api/v1/plans/{plan_id}/request-approval", key="request-approval-0001"
    )
    assert asked.status_code == 200, asked.content

    page.goto(f"/agency/{agency.pk}/tokens/")
    sign_in(page, person.email)
    assert urlsplit(page.url).path == f"/agency/{agency.pk}/tokens/"
    page.fill("#id_name", "Provisioning")
    page.check("input[name=scopes][value='config:plan']")
    page.click("#mint")
    assert re.match(r"^agy_[0-9a-f]{64}$", page.text_content("#minted-token").strip())
    shot(page, "agency-tokens.png")

    page.click("#nav-console")
    assert urlsplit(page.url).path == f"/agency/{agency.pk}/"
    assert page.is_visible(f"#plan-{plan_id}")
    shot(page, "agency-console-waiting.png")
    page.click(f"#approve-{plan_id}")
    page.wait_for_url(f"**/agency/{agency.pk}/")
    assert page.is_visible("#no-plans-waiting")
    row = page.text_content(f"tr.plan-row[data-plan-id='{plan_id}'] .plan-state")
    assert row.strip() == "Applied"
    shot(page, "agency-console-applied.png")
    assert Plan.objects.get(pk=plan_id).state == "applied"
