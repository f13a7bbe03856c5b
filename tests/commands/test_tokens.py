import hashlib
import re

import pytest
from django.core.management.base import CommandError

from audit.models import AuditEvent
from tokens.models import ApiToken

from .conftest import run

pytestmark = pytest.mark.django_db


def test_mint_then_revoke_a_workspace_token(make_workspace, api):
    ws = make_workspace()
    output = run(
        "mint_token",
        "--workspace",
        str(ws.pk),
        "--scope",
        "read",
        "--scope",
        "data:write",
        "--name",
        "Reporting",
    )
    token = output.strip()
    assert re.fullmatch(r"svc_[0-9a-f]{64}", token)
    assert output == token + "\n"
    stored = ApiToken.objects.get()
    assert (stored.kind, stored.workspace, stored.name, stored.scopes) == (
        "workspace",
        ws,
        "Reporting",
        ["read", "data:write"],
    )
    response = api(token).get("/api/v1/whoami")
    assert response.status_code == 200
    assert response.json() == {
        "workspace": {"id": str(ws.pk)},
        "token": {"name": "Reporting"},
        "access": "read-only",
    }

    run("revoke_token", token)
    response = api(token).get("/api/v1/whoami")
    assert response.status_code == 401
    assert response.json()["error"]["reason"] == "unauthenticated"
    assert list(AuditEvent.objects.order_by("at").values_list("action", "actor_kind")) == [
        ("token.minted", "command"),
        ("token.revoked", "command"),
    ]
    # Revoking twice changes nothing more.
    assert "already revoked" in run("revoke_token", token)
    assert AuditEvent.objects.count() == 2


def test_mint_an_agency_token(make_agency, api):
    agency = make_agency(tier="agency")
    token = run(
        "mint_token", "--agency", str(agency.pk), "--scope", "read", "--scope", "config:plan"
    ).strip()
    assert re.fullmatch(r"agy_[0-9a-f]{64}", token)
    stored = ApiToken.objects.get()
    assert (stored.kind, stored.agency, stored.scopes) == (
        "agency",
        agency,
        ["read", "config:plan"],
    )
    assert api(token).get("/api/v1/agency/workspaces").status_code == 200
    run("revoke_token", str(stored.pk))
    assert api(token).get("/api/v1/agency/workspaces").status_code == 401


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--scope", "config:plan"], "Unknown scope 'config:plan'"),
        (["--scope", "write"], "Unknown scope 'write'"),
    ],
)
def test_mint_refuses_a_bad_scope(make_workspace, args, message):
    ws = make_workspace()
    with pytest.raises(CommandError, match=message):
        run("mint_token", "--workspace", str(ws.pk), *args)
    assert ApiToken.objects.count() == 0


def test_mint_refuses_an_unknown_owner(make_workspace, make_agency):
    with pytest.raises(CommandError, match="No workspace has the id"):
        run("mint_token", "--workspace", "00000000-0000-0000-0000-000000000000", "--scope", "read")
    with pytest.raises(CommandError, match="No agency has the id"):
        run("mint_token", "--agency", "not-an-id", "--scope", "read")
    archived = make_workspace(archived_at="2026-01-01T00:00:00Z")
    with pytest.raises(CommandError, match="No workspace has the id"):
        run("mint_token", "--workspace", str(archived.pk), "--scope", "read")
    with pytest.raises(CommandError):
        run("mint_token", "--scope", "read")
    assert ApiToken.objects.count() == 0


def test_revoke_refuses_an_unknown_token(db):
    with pytest.raises(CommandError, match="No token of this service matches"):
        run("revoke_token", "svc_" + "0" * 64)
    with pytest.raises(CommandError, match="No token of this service matches"):
        run("revoke_token", "nonsense")


def test_the_minted_token_is_stored_only_as_its_digest(make_workspace):
    ws = make_workspace()
    token = run("mint_token", "--workspace", str(ws.pk), "--scope", "read").strip()
    row = ApiToken.objects.values().get()
    assert row["digest"] == "sha256$" + hashlib.sha256(token.encode()).hexdigest()
    assert all(token not in str(value) for value in row.values())
    for event in AuditEvent.objects.values():
        assert all(token not in str(value) for value in event.values())
