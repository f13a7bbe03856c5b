"""Making connections: format checks, encrypted secrets, the backfill sent by name, the
connection ids known before the form is sent; and sending tasks by name."""

import uuid

import pytest
from django.db import transaction

from audit.models import AuditEvent
from audit.services import SYSTEM
from config.celery import app
from core.crypto import decrypt_json, decrypt_text
from core.errors import InvalidField
from integrations import services
from integrations.models import Connection

from .conftest import SECRET, STRIPE_KEY

pytestmark = pytest.mark.django_db

CALENDLY_TOKEN = "eyJraWQiOiIxIn0.eyJpc3MiOiJodHRwczovL2F1dGguY2FsZW5kbHkuY29tIn0.c2lnbmF0dXJl"


def test_a_connection_stores_its_secrets_encrypted_and_starts_the_backfill(
    make_workspace, backfills, committed
):
    ws = make_workspace()
    with committed():
        connection = services.connection_create(
            workspace=ws,
            provider="stripe",
            credentials={"secret_key": f" {STRIPE_KEY} ", "webhook_secret": SECRET},
            actor=SYSTEM,
        )
    stored = Connection.objects.get()
    assert (stored.pk, stored.provider, stored.state, stored.workspace_id) == (
        connection.pk,
        "stripe",
        "connected",
        ws.pk,
    )
    assert STRIPE_KEY.encode() not in bytes(stored.credentials_encrypted)
    assert decrypt_json(stored.credentials_encrypted) == {"secret_key": STRIPE_KEY}
    assert decrypt_text(stored.signing_secret_encrypted) == SECRET
    assert backfills == [connection.pk]
    audit = AuditEvent.objects.get(action="integration.connected")
    assert audit.detail == {"provider": "stripe", "fields": ["secret_key"]}


def test_nothing_is_sent_before_the_commit(make_workspace, backfills):
    with transaction.atomic():
        services.connection_create(
            workspace=make_workspace(),
            provider="stripe",
            credentials={"secret_key": STRIPE_KEY, "webhook_secret": SECRET},
            actor=SYSTEM,
        )
        assert backfills == []


@pytest.mark.parametrize(
    "credentials, field",
    [
        ({"webhook_secret": SECRET}, "secret_key"),
        ({"secret_key": STRIPE_KEY}, "webhook_secret"),
        ({"secret_key": STRIPE_KEY, "webhook_secret": "whsec_short"}, "webhook_secret"),
        ({"secret_key": "pk_live_" + "a" * 30, "webhook_secret": SECRET}, "secret_key"),
    ],
)
def test_a_bad_format_names_the_field(make_workspace, backfills, credentials, field):
    with pytest.raises(InvalidField) as refused:
        services.connection_create(
            workspace=make_workspace(), provider="stripe", credentials=credentials, actor=SYSTEM
        )
    assert refused.value.extra == {"field": field}
    assert Connection.objects.count() == 0
    assert backfills == []


def test_an_unknown_provider_is_refused(make_workspace):
    with pytest.raises(InvalidField) as refused:
        services.connection_create(
            workspace=make_workspace(), provider="paypal", credentials={}, actor=SYSTEM
        )
    assert refused.value.extra == {"field": "provider"}


def test_an_optional_signing_key_left_empty_is_generated(make_workspace):
    connection = services.connection_create(
        workspace=make_workspace(),
        provider="calendly",
        credentials={"personal_access_token": CALENDLY_TOKEN, "webhook_signing_key": ""},
        actor=SYSTEM,
    )
    assert decrypt_json(connection.credentials_encrypted) == {
        "personal_access_token": CALENDLY_TOKEN
    }
    assert len(services.connection_signing_secret(connection)) == 43
    assert connection.options == {"signing_secret_generated": True}


def test_connection_ids_known_before_the_form_is_sent(make_workspace):
    link_id = uuid.UUID("6f1c3a52-0b7e-4c1e-9d1a-2b3c4d5e6f70")
    expected = uuid.uuid5(link_id, "stripe")
    assert services.connection_id_for_link(link_id=link_id, provider="stripe") == expected
    connection = services.connection_create(
        workspace=make_workspace(),
        provider="stripe",
        credentials={"secret_key": STRIPE_KEY, "webhook_secret": SECRET},
        actor=SYSTEM,
        connection_id=expected,
    )
    assert connection.pk == expected
    assert services.webhook_url(connection).endswith(f"/hooks/stripe/{expected}")
    # The id is another workspace's connection: refused.
    with pytest.raises(InvalidField):
        services.connection_create(
            workspace=make_workspace(),
            provider="stripe",
            credentials={"secret_key": STRIPE_KEY, "webhook_secret": SECRET},
            actor=SYSTEM,
            connection_id=expected,
        )

    allocated, signed = services.connection_id_allocate()
    assert services.connection_id_unsign(signed) == allocated
    assert services.connection_id_unsign(signed[:-2] + "xx") is None
    assert services.connection_id_unsign("not-signed") is None


def test_failing_and_recovering(make_workspace):
    connection = services.connection_create(
        workspace=make_workspace(),
        provider="stripe",
        credentials={"secret_key": STRIPE_KEY, "webhook_secret": SECRET},
        actor=SYSTEM,
    )
    services.connection_fail(connection=connection, error="Stripe refused the key (401).")
    connection.refresh_from_db()
    assert (connection.state, connection.last_error) == (
        "failing",
        "Stripe answered in a way we could not use.",
    )
    services.connection_recover(connection=connection)
    connection.refresh_from_db()
    assert connection.state == "connected"
    assert sorted(
        AuditEvent.objects.filter(target_id=str(connection.pk)).values_list("action", "actor_kind")
    ) == [
        ("integration.connected", "system"),
        ("integration.failing", "integration"),
        ("integration.recovered", "integration"),
    ]


OTHER_KEY = "rk_test_" + "N" * 24
OTHER_SECRET = "whsec_" + "N" * 32


def test_connecting_a_provider_again_replaces_the_first_ones_credentials(
    make_workspace, backfills, committed
):
    ws = make_workspace()
    first = services.connection_create(
        workspace=ws,
        provider="stripe",
        credentials={"secret_key": STRIPE_KEY, "webhook_secret": SECRET},
        actor=SYSTEM,
    )
    services.connection_fail(connection=first, error="Stripe refused the key (401).")
    with committed():
        again = services.connection_create(
            workspace=ws,
            provider="stripe",
            credentials={"secret_key": OTHER_KEY, "webhook_secret": OTHER_SECRET},
            actor=SYSTEM,
            connection_id=first.pk,
        )
    stored = Connection.objects.get()
    assert (again.pk, stored.pk, stored.state, stored.last_error, stored.last_error_at) == (
        first.pk,
        first.pk,
        "connected",
        "",
        None,
    )
    assert services.connection_credentials(stored) == {"secret_key": OTHER_KEY}
    assert services.connection_signing_secret(stored) == OTHER_SECRET
    assert backfills == [first.pk]
    replaced = AuditEvent.objects.get(action="integration.credentials_replaced")
    assert (replaced.target_id, replaced.detail) == (
        str(first.pk),
        {"provider": "stripe", "fields": ["secret_key"]},
    )
    # Without a connection id (the API, a script): the same.
    services.connection_create(
        workspace=ws,
        provider="stripe",
        credentials={"secret_key": STRIPE_KEY, "webhook_secret": SECRET},
        actor=SYSTEM,
    )
    assert Connection.objects.count() == 1
    assert services.connection_credentials(Connection.objects.get()) == {"secret_key": STRIPE_KEY}


def test_a_form_showing_another_webhook_url_is_refused_naming_the_one_to_paste(make_workspace):
    ws = make_workspace()
    first = services.connection_create(
        workspace=ws,
        provider="stripe",
        credentials={"secret_key": STRIPE_KEY, "webhook_secret": SECRET},
        actor=SYSTEM,
    )
    allocated, _signed = services.connection_id_allocate()
    with pytest.raises(InvalidField) as refused:
        services.connection_create(
            workspace=ws,
            provider="stripe",
            credentials={"secret_key": OTHER_KEY, "webhook_secret": OTHER_SECRET},
            actor=SYSTEM,
            connection_id=allocated,
        )
    assert refused.value.extra["field"] == "connection_id"
    assert refused.value.message == (
        "Stripe was connected to this workspace meanwhile: its webhook URL is "
        f"{services.webhook_url(first)}. Paste that URL at Stripe, then enter the credential "
        "again to replace the connection's."
    )
    assert services.connection_credentials(Connection.objects.get()) == {"secret_key": STRIPE_KEY}


def test_an_optional_signing_key_left_empty_keeps_the_replaced_connections(make_workspace):
    ws = make_workspace()
    first = services.connection_create(
        workspace=ws,
        provider="calendly",
        credentials={"personal_access_token": CALENDLY_TOKEN},
        actor=SYSTEM,
    )
    generated = services.connection_signing_secret(first)
    services.connection_create(
        workspace=ws,
        provider="calendly",
        credentials={"personal_access_token": CALENDLY_TOKEN + "x"},
        actor=SYSTEM,
    )
    stored = Connection.objects.get()
    assert services.connection_signing_secret(stored) == generated
    assert stored.options == {"signing_secret_generated": True}


def test_after_a_disconnect_the_provider_connects_anew(make_workspace):
    ws = make_workspace()
    first = services.connection_create(
        workspace=ws,
        provider="stripe",
        credentials={"secret_key": STRIPE_KEY, "webhook_secret": SECRET},
        actor=SYSTEM,
    )
    services.connection_disconnect(connection=first, actor=SYSTEM)
    second = services.connection_create(
        workspace=ws,
        provider="stripe",
        credentials={"secret_key": STRIPE_KEY, "webhook_secret": SECRET},
        actor=SYSTEM,
    )
    assert second.pk != first.pk
    assert dict(Connection.objects.values_list("pk", "state")) == {
        first.pk: "disconnected",
        second.pk: "connected",
    }
    assert services.connection_live(workspace=ws, provider="stripe") == second


def test_the_database_refuses_a_second_live_connection(make_workspace):
    from django.db import IntegrityError  # noqa: PLC0415

    ws = make_workspace()
    first = services.connection_create(
        workspace=ws,
        provider="stripe",
        credentials={"secret_key": STRIPE_KEY, "webhook_secret": SECRET},
        actor=SYSTEM,
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        Connection.objects.create(
            workspace=ws, provider="stripe", credentials_encrypted=first.credentials_encrypted
        )


def test_a_task_sent_by_name_in_eager_mode(monkeypatch):
    ran = []
    monkeypatch.setitem(
        app.tasks,
        "integrations.test_probe",
        type("T", (), {"apply_async": lambda *a, **k: ran.append(k)})(),
    )
    services.task_send("integrations.test_probe", args=["x"])
    assert ran == [{"args": ["x"]}]
    # A task this process does not know is skipped, not an error.
    services.task_send("integrations.no_such_task", args=["x"])
