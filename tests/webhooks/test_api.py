"""The webhook-endpoint routes and the events feed, over HTTP with real tokens."""

import re

import pytest
from django.db import transaction

from audit.models import AuditEvent
from events.models import Event
from webhooks.models import WebhookEndpoint
from webhooks.transport import endpoint_secret
from workspaces.services import lead_upsert

from ..conftest import aware

pytestmark = pytest.mark.django_db(transaction=False)

WRITE = ("read", "data:write")


@pytest.fixture
def ws(make_workspace):
    return make_workspace()


@pytest.fixture
def writer(ws, workspace_token, api):
    return api(workspace_token(ws, scopes=WRITE))


def _create(client, body, key="key-00000001"):
    return client.post("/api/v1/webhook-endpoints", body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_create_answers_the_secret_once_and_lists_without_it(ws, writer, receiver):
    response = _create(
        writer, {"url": receiver.url, "events": ["lead.created"], "description": "CRM"}
    )
    assert response.status_code == 201
    body = response.json()
    assert re.fullmatch(r"whsec_[A-Za-z0-9+/]{32}", body["secret"])
    assert body["url"] == receiver.url
    assert body["events"] == ["lead.created"]
    assert body["description"] == "CRM"
    assert body["enabled"] is True
    endpoint = WebhookEndpoint.objects.get(pk=body["id"])
    assert endpoint_secret(endpoint) == body["secret"]
    # Stored encrypted, never as the text.
    assert body["secret"].encode() not in bytes(endpoint.secret_encrypted)

    replay = _create(
        writer, {"url": receiver.url, "events": ["lead.created"], "description": "CRM"}
    )
    assert replay.status_code == 201
    assert replay["Idempotent-Replayed"] == "true"
    assert replay.json()["secret"] == body["secret"]
    assert WebhookEndpoint.objects.filter(workspace=ws).count() == 1

    listed = writer.get("/api/v1/webhook-endpoints").json()
    assert listed == {"endpoints": [{k: v for k, v in body.items() if k != "secret"}]}
    one = writer.get(f"/api/v1/webhook-endpoints/{body['id']}").json()
    assert "secret" not in one and one["id"] == body["id"]
    assert AuditEvent.objects.filter(action="webhook_endpoint.created", workspace=ws).count() == 1


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("http://hooks.example.com/x", "https"),
        ("https://10.0.0.5/hook", "private address"),
        ("https://169.254.169.254/latest/meta-data", "link-local"),
        ("https://127.0.0.1/hook", "loopback"),
        ("https://[::1]/hook", "loopback"),
        ("https://[64:ff9b::7f00:1]/hook", "loopback"),
        ("https://[2002:a00:1::1]/hook", "private address"),
        ("https://[::127.0.0.1]/hook", "reserved address"),
        ("https://[::ffff:0:7f00:1]/hook", "reserved address"),
        ("https://[64:ff9b:1::7f00:1]/hook", "reserved address"),
        ("https://user:pw@203.0.113.9/hook", "user name"),
        ("ftp://203.0.113.9/hook", "https"),
        ("https://203.0.113.9/" + "a" * 2000, "2000 characters"),
        ("not a url", "spaces"),
    ],
)
def test_a_url_the_guard_refuses_answers_400_naming_url(writer, settings, url, says):
    settings.WEBHOOK_ALLOW_LOOPBACK = False  # as in production
    response = _create(writer, {"url": url})
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "url"
    assert body["error"]["reason"] == "invalid_field"
    assert says in body["error"]["message"]
    assert not WebhookEndpoint.objects.exists()


def test_unknown_event_types_answer_400_naming_events(writer, receiver):
    response = _create(writer, {"url": receiver.url, "events": ["lead.created", "lead.deleted"]})
    assert response.status_code == 400
    assert response.json()["field"] == "events"
    assert "lead.deleted" in response.json()["error"]["message"]


def test_unknown_members_and_long_descriptions_are_refused(writer, receiver):
    response = _create(writer, {"url": receiver.url, "secret": "mine"})
    assert (response.status_code, response.json()["field"]) == (400, "secret")
    response = _create(writer, {"url": receiver.url, "description": "x" * 201}, key="key-00000002")
    assert (response.status_code, response.json()["field"]) == (400, "description")


def test_a_post_needs_an_idempotency_key(writer, receiver):
    response = writer.post("/api/v1/webhook-endpoints", {"url": receiver.url}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["reason"] == "refused.idempotency_key_required"


def test_who_may_read_and_write(
    ws, workspace_token, agency_token, make_agency, api, make_member, session_token, receiver
):
    reader = api(workspace_token(ws, scopes=("read",)))
    assert reader.get("/api/v1/webhook-endpoints").status_code == 200
    refused = _create(reader, {"url": receiver.url})
    assert refused.status_code == 403
    assert refused.json()["error"]["reason"] == "insufficient_scope"
    assert refused.json()["requiredScope"] == "data:write"

    manager = api(session_token(make_member(ws, "manager")))
    assert manager.get("/api/v1/webhook-endpoints").status_code == 200
    refused = _create(manager, {"url": receiver.url})
    assert (refused.status_code, refused.json()["error"]["reason"]) == (
        403,
        "refused.member_scope",
    )
    admin = api(session_token(make_member(ws, "admin")))
    assert _create(admin, {"url": receiver.url}).status_code == 201

    closer = api(session_token(make_member(ws, "closer")))
    for path in ("/api/v1/webhook-endpoints", "/api/v1/events"):
        refused = closer.get(path)
        assert (refused.status_code, refused.json()["error"]["reason"]) == (
            403,
            "refused.member_scope",
        )
    agency = api(agency_token(make_agency()))
    assert agency.get("/api/v1/webhook-endpoints").status_code == 401
    assert agency.get("/api/v1/events").status_code == 401


def test_another_workspaces_endpoint_is_not_found(
    make_workspace, workspace_token, api, writer, receiver
):
    theirs = api(workspace_token(make_workspace(), scopes=WRITE))
    endpoint_id = _create(theirs, {"url": receiver.url}).json()["id"]
    for method in ("get", "patch", "delete"):
        response = getattr(writer, method)(
            f"/api/v1/webhook-endpoints/{endpoint_id}", {}, format="json"
        )
        assert response.status_code == 404, method
        assert response.json()["error"]["reason"] == "not_found"
    assert writer.get("/api/v1/webhook-endpoints/not-a-uuid").status_code == 404
    assert WebhookEndpoint.objects.filter(pk=endpoint_id).exists()


def test_patch_changes_and_delete_removes(ws, writer, receiver):
    endpoint_id = _create(writer, {"url": receiver.url}).json()["id"]
    path = f"/api/v1/webhook-endpoints/{endpoint_id}"
    response = writer.patch(
        path, {"events": ["sale.closed"], "enabled": False, "description": "Off"}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["events"] == ["sale.closed"]
    assert response.json()["enabled"] is False
    assert "secret" not in response.json()
    refused = writer.patch(path, {"url": "https://192.168.1.4/x"}, format="json")
    assert (refused.status_code, refused.json()["field"]) == (400, "url")
    assert WebhookEndpoint.objects.get(pk=endpoint_id).url == receiver.url
    assert writer.delete(path).status_code == 204
    assert writer.get(path).status_code == 404
    actions = list(
        AuditEvent.objects.filter(workspace=ws, target_type="webhook_endpoint")
        .order_by("at", "id")
        .values_list("action", flat=True)
    )
    assert actions == [
        "webhook_endpoint.created",
        "webhook_endpoint.updated",
        "webhook_endpoint.deleted",
    ]


def test_a_workspace_has_at_most_twenty_endpoints(writer, receiver):
    for n in range(20):
        assert _create(writer, {"url": receiver.url}, key=f"key-{n:08d}").status_code == 201
    response = _create(writer, {"url": receiver.url}, key="key-00000099")
    assert response.status_code == 400
    assert "at most 20" in response.json()["error"]["message"]


# --- The events feed -------------------------------------------------------------------------


def _leads(ws, count, start=0):
    for n in range(start, start + count):
        with transaction.atomic():
            lead_upsert(
                workspace=ws,
                external_id=f"L{n}",
                created_at=aware("2026-11-02 10:00"),
                name=f"Lead {n}",
                email=f"lead{n}@example.test",
            )


def test_the_feed_pages_oldest_first_with_a_cursor(ws, make_workspace, workspace_token, api):
    _leads(ws, 5)
    _leads(make_workspace(), 2)  # another workspace's events never show
    client = api(workspace_token(ws))
    first = client.get("/api/v1/events?limit=2").json()
    assert first["has_more"] is True
    assert [e["data"]["external_id"] for e in first["events"]] == ["L0", "L1"]
    event = first["events"][0]
    assert re.fullmatch(r"evt_[0-9A-HJKMNP-TV-Z]{26}", event["id"])
    assert event["type"] == "lead.created"
    assert event["workspace_id"] == str(ws.pk)
    assert event["timestamp"].endswith("Z")
    second = client.get(f"/api/v1/events?limit=2&after={first['events'][-1]['id']}").json()
    assert [e["data"]["external_id"] for e in second["events"]] == ["L2", "L3"]
    third = client.get(f"/api/v1/events?after={second['events'][-1]['id']}").json()
    assert [e["data"]["external_id"] for e in third["events"]] == ["L4"]
    assert third["has_more"] is False
    assert client.get(f"/api/v1/events?after={third['events'][-1]['id']}").json() == {
        "events": [],
        "has_more": False,
    }


def test_the_feed_filters_by_type(ws, workspace_token, api):
    _leads(ws, 1)
    with transaction.atomic():
        lead_upsert(
            workspace=ws,
            external_id="L0",
            created_at=aware("2026-11-02 10:00"),
            name="Renamed",
            email="lead0@example.test",
        )
    client = api(workspace_token(ws))
    updated = client.get("/api/v1/events?types=lead.updated").json()["events"]
    assert [(e["type"], e["data"]["name"]) for e in updated] == [("lead.updated", "Renamed")]
    both = client.get("/api/v1/events?types=lead.updated,lead.created").json()["events"]
    assert [e["type"] for e in both] == ["lead.created", "lead.updated"]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("limit=0", "limit"),
        ("limit=501", "limit"),
        ("limit=ten", "limit"),
        ("types=lead.created,lead.exploded", "types"),
        ("after=evt_00000000000000000000000000", "after"),
        ("after=F%00", "after"),
        ("after=evt_0000000000000000000000000%00", "after"),
        ("types=lead.created%00", "types"),
        ("limit=1%00", "limit"),
    ],
)
def test_the_feed_refuses_what_it_cannot_use(ws, workspace_token, api, query, field):
    response = api(workspace_token(ws)).get(f"/api/v1/events?{query}")
    assert response.status_code == 400
    assert response.json()["error"]["reason"] == "invalid_parameter"
    assert response.json()["field"] == field


def test_another_workspaces_cursor_is_refused(ws, make_workspace, workspace_token, api):
    other = make_workspace()
    _leads(other, 1)
    theirs = Event.objects.get(workspace=other).id
    response = api(workspace_token(ws)).get(f"/api/v1/events?after={theirs}")
    assert (response.status_code, response.json()["field"]) == (400, "after")
