"""The first-run checklist of a new workspace's overview: above the (empty) headline
tiles, pointing owners and admins to the Import page, ticking an imported file, and
listing the connect links sent for the workspace that nobody has used yet."""

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from agency.links import connect_link_create, connect_link_revoke
from audit.services import SYSTEM
from integrations.models import Connection
from workspaces.models import Member
from workspaces.services.uploads import upload_confirm, upload_create

from .conftest import signed_in

pytestmark = pytest.mark.django_db


def _overview(member) -> str:
    return signed_in(member).get(f"/app/{member.workspace.pk}/").content.decode()


def test_the_checklist_sits_above_the_tiles_and_points_to_the_import_page(
    make_workspace, make_member
):
    ws = make_workspace(name="Fresh")
    owner = make_member(ws, "owner")
    html = _overview(owner)
    assert html.index('id="first-run"') < html.index('id="headline"')
    assert (
        f'on the <a href="/settings/{ws.pk}/import/" id="checklist-import">Import page</a>'
    ) in html
    assert "import_records" not in html
    assert '<li id="step-import" class="todo">' in html
    # A manager reads the overview but may not import: the step says who does.
    manager = make_member(ws, "manager")
    html = _overview(manager)
    assert 'id="checklist-import"' not in html
    assert "an owner or admin does it on the Import page" in html


def test_an_imported_file_ticks_its_step(
    make_workspace, make_member, django_capture_on_commit_callbacks
):
    ws = make_workspace(name="Fresh")
    owner = make_member(ws, "owner")
    # Members only: no lead, call, sale or payment, so the checklist stays.
    with django_capture_on_commit_callbacks(execute=True):
        upload = upload_create(
            workspace=ws,
            user=owner.user,
            file_name="team.csv",
            kind="member",
            content=b"id,name,email,role\nm-1,Cleo Closer,cleo@example.test,closer\n",
            actor=SYSTEM,
        )
    assert '<li id="step-import" class="todo">' in _overview(owner)
    with django_capture_on_commit_callbacks(execute=True):
        upload_confirm(upload=upload, user=owner.user, actor=SYSTEM)
    assert Member.objects.filter(workspace=ws, external_id="m-1").exists()
    html = _overview(owner)
    assert '<li id="step-import" class="done">' in html
    assert '<li id="step-invite" class="done">' in html


def test_the_checklist_lists_the_connect_links_not_used_yet(
    make_agency, make_workspace, make_member
):
    agency = make_agency(name="Northwind Agency")
    ws = make_workspace(name="Fresh", agency=agency, timezone="Europe/Berlin")
    owner = make_member(ws, "owner")
    assert 'id="pending-links"' not in _overview(owner)
    first, _url = connect_link_create(
        agency=agency,
        workspace=ws,
        integrations=["stripe", "calendly"],
        expires_in_hours=48,
        actor=SYSTEM,
    )
    used, _url = connect_link_create(
        agency=agency, workspace=ws, integrations=["zoom"], expires_in_hours=72, actor=SYSTEM
    )
    revoked, _url = connect_link_create(
        agency=agency, workspace=ws, integrations=["hubspot"], expires_in_hours=24, actor=SYSTEM
    )
    connect_link_revoke(link=revoked, actor=SYSTEM)
    connection = Connection.objects.create(
        workspace=ws, provider="zoom", credentials_encrypted=b"x"
    )
    used.connections.add(connection)
    expired, _url = connect_link_create(
        agency=agency, workspace=ws, integrations=["hubspot"], expires_in_hours=1, actor=SYSTEM
    )
    expired.expires_at = timezone.now() - timedelta(minutes=1)
    expired.save(update_fields=["expires_at"])
    html = _overview(owner)
    assert (
        '<span id="pending-links">1 connect link sent for Fresh is not used yet:</span>'
    ) in html
    until = timezone.localtime(first.expires_at, timezone=ZoneInfo(ws.timezone))
    assert (
        f'<ul id="pending-link-list"><li>Stripe, Calendly, open until '
        f"{until.day} {until:%b %Y, %H:%M}</li></ul>"
    ) in html
