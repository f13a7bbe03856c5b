import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.urls import reverse

from audit.models import AuditEvent
from tests.conftest import aware
from tokens.models import ApiToken
from workspaces.services import lead_upsert, payment_upsert, sale_upsert

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    user = get_user_model().objects.create_superuser("root", "root@example.test", "pw-123456789")
    client.force_login(user)
    return client


def test_every_model_has_a_working_changelist(staff_client, make_workspace, workspace_token):
    workspace_token(make_workspace())
    for model in admin.site._registry:
        if model._meta.app_label not in {"workspaces", "tokens", "audit"}:
            continue
        meta = model._meta
        url = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        assert staff_client.get(url).status_code == 200, url


def test_tokens_show_no_digest_and_cannot_be_added(staff_client, make_workspace, workspace_token):
    plaintext = workspace_token(make_workspace())
    token = ApiToken.objects.get()
    page = staff_client.get(reverse("admin:tokens_apitoken_change", args=[token.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert token.digest not in html and plaintext not in html
    assert token.display in html
    assert staff_client.get(reverse("admin:tokens_apitoken_add")).status_code == 403


def test_revoke_action_revokes(staff_client, make_workspace, workspace_token, api):
    plaintext = workspace_token(make_workspace())
    token = ApiToken.objects.get()
    staff_client.post(
        reverse("admin:tokens_apitoken_changelist"),
        {"action": "revoke", "_selected_action": [str(token.pk)]},
    )
    assert api(plaintext).get("/api/v1/whoami").status_code == 401
    assert AuditEvent.objects.filter(action="token.revoked", actor_kind="user").count() == 1


def test_audit_events_are_read_only(staff_client, make_workspace, workspace_token):
    workspace_token(make_workspace())
    event = AuditEvent.objects.get()
    url = reverse("admin:audit_auditevent_change", args=[event.pk])
    assert staff_client.get(url).status_code == 200
    staff_client.post(url, {"action": "changed"})
    event.refresh_from_db()
    assert event.action == "token.minted"
    assert staff_client.get(reverse("admin:audit_auditevent_add")).status_code == 403
    assert (
        staff_client.post(reverse("admin:audit_auditevent_delete", args=[event.pk])).status_code
        == 403
    )


def test_sales_records_are_read_only(staff_client, make_workspace):
    ws = make_workspace()
    lead, _ = lead_upsert(workspace=ws, external_id="l", created_at=aware("2026-03-01 09:00"))
    sale, _ = sale_upsert(
        workspace=ws, external_id="s", lead=lead, closed_at=aware("2026-03-02"), contract_value=10
    )
    payment, _ = payment_upsert(
        workspace=ws, external_id="p", sale=sale, paid_at=aware("2026-03-02"), amount=10
    )
    url = reverse("admin:workspaces_payment_change", args=[payment.pk])
    assert staff_client.get(url).status_code == 200
    staff_client.post(url, {"status": "failed", "amount": 999})
    payment.refresh_from_db()
    lead.refresh_from_db()
    assert (payment.status, payment.amount, lead.cash_collected) == ("succeeded", 10, 10)
    assert staff_client.get(reverse("admin:workspaces_payment_add")).status_code == 403
    delete = reverse("admin:workspaces_sale_delete", args=[sale.pk])
    assert staff_client.post(delete, {"post": "yes"}).status_code == 403
    assert staff_client.get(reverse("admin:workspaces_funnel_add")).status_code == 403


def test_the_admin_form_keeps_the_origin_and_logo_rules(make_workspace):
    workspace = make_workspace()
    workspace.embedded_origins = ["https://App.Example.com/", "https://app.example.com:443"]
    workspace.branding = {**workspace.branding, "logo": "https://cdn.example.com/logo.png"}
    workspace.full_clean()
    assert workspace.embedded_origins == ["https://app.example.com"]

    workspace.embedded_origins = ["https://app.example.com", "http://insecure.example"]
    workspace.branding = {**workspace.branding, "logo": "javascript:alert(1)"}
    with pytest.raises(ValidationError) as refused:
        workspace.full_clean()
    assert refused.value.message_dict == {
        "embedded_origins": [
            "'http://insecure.example' must use https (plain http is for localhost and "
            "127.0.0.1 only)."
        ],
        "branding": ["branding.logo must be an https URL, e.g. https://cdn.example.com/logo.png."],
    }


def test_the_admin_refuses_an_origin_with_a_path(staff_client, make_workspace):
    workspace = make_workspace()
    url = reverse("admin:workspaces_workspace_change", args=[workspace.pk])
    data = {
        "name": workspace.name,
        "slug": workspace.slug,
        "currency": workspace.currency,
        "timezone": workspace.timezone,
        "working_days": "[0, 1, 2, 3, 4]",
        "branding": '{"logo": ""}',
        "embedded_origins": '["https://app.example.com/path/"]',
        "agency": "",
        "archived_at_0": "",
        "archived_at_1": "",
        "members-TOTAL_FORMS": "0",
        "members-INITIAL_FORMS": "0",
    }
    page = staff_client.post(url, data)
    assert page.status_code == 200
    assert "is not an origin" in page.content.decode()
    workspace.refresh_from_db()
    assert workspace.embedded_origins == []
