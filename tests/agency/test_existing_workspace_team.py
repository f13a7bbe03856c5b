"""A plan on a workspace that already exists never reaches that workspace's data: its team
is invited, with no token, and the workspace's owners hear of a workspace-wide role."""

import re

import pytest
from django.test import Client
from oauth2_provider.models import get_access_token_model

from audit.models import AuditEvent
from workspaces.models import Invitation, Member

from .conftest import new_key

pytestmark = pytest.mark.django_db

LINK = re.compile(r"http://testserver/invite/[^\s\"<]+")


@pytest.fixture
def client_workspace(agency_world, make_member, settings):
    settings.BASE_URL = "http://testserver"
    owner = make_member(agency_world.workspace, "owner", email="olive@northwind.test")
    return agency_world.workspace, owner


def _plan_and_apply(world, write, body):
    plan = write(world.full, "POST", "/api/v1/plans", body)
    assert plan.status_code == 201, plan.content
    return write(world.full, "POST", f"/api/v1/plans/{plan.json()['id']}/apply", key=new_key())


def test_an_agency_plan_gets_no_token_for_an_existing_workspace(
    agency_world, write, api, client_workspace, mailoutbox, django_capture_on_commit_callbacks
):
    workspace, owner = client_workspace
    body = {
        "workspace": {"id": str(workspace.pk)},
        "team": [{"email": "spy@agency.example", "name": "Spy", "role": "owner"}],
    }
    with django_capture_on_commit_callbacks(execute=True):
        applied = _plan_and_apply(agency_world, write, body)
    assert applied.status_code == 200
    result = applied.json()["result"]
    assert result["member_tokens"] == []
    assert result["members"] == []
    assert result["invited"] == [{"email": "spy@agency.example", "role": "owner"}]
    assert [c["status"] for c in result["changes"]] == ["applied"]

    # Nobody became a member, no session token exists, and the agency's token still
    # reaches none of the workspace's data.
    assert list(Member.objects.filter(workspace=workspace).values_list("email", flat=True)) == [
        owner.email
    ]
    assert get_access_token_model().objects.count() == 0
    for path in ("/api/v1/calls", "/api/v1/leads", "/api/v1/audit-events"):
        assert api(agency_world.full).get(path).status_code == 401

    invitation = Invitation.objects.get(workspace=workspace)
    assert (invitation.email, invitation.role, invitation.state, invitation.member_id) == (
        "spy@agency.example",
        "owner",
        "pending",
        None,
    )
    # The invited address gets its link; the workspace's owner hears of the new owner.
    by_recipient = {message.to[0]: message for message in mailoutbox}
    assert sorted(by_recipient) == ["olive@northwind.test", "spy@agency.example"]
    assert by_recipient["olive@northwind.test"].subject == (
        f"spy@agency.example was invited to {workspace.name} as Owner"
    )
    assert LINK.search(by_recipient["spy@agency.example"].body)
    assert AuditEvent.objects.filter(action="member.invited").count() == 1
    assert AuditEvent.objects.filter(action="member.added").count() == 0


def test_owners_are_not_mailed_for_a_closer(
    agency_world, write, client_workspace, mailoutbox, django_capture_on_commit_callbacks
):
    workspace, _owner = client_workspace
    body = {
        "workspace": {"id": str(workspace.pk)},
        "team": [{"email": "cy@northwind.test", "name": "Cy", "role": "closer"}],
    }
    with django_capture_on_commit_callbacks(execute=True):
        assert _plan_and_apply(agency_world, write, body).status_code == 200
    assert [message.to for message in mailoutbox] == [["cy@northwind.test"]]


def test_the_invited_person_chooses_a_password_and_is_a_member(
    agency_world, write, client_workspace, mailoutbox, django_capture_on_commit_callbacks
):
    workspace, _owner = client_workspace
    body = {
        "workspace": {"id": str(workspace.pk)},
        "team": [{"email": "cy@northwind.test", "name": "Cy Setter", "role": "setter"}],
    }
    with django_capture_on_commit_callbacks(execute=True):
        _plan_and_apply(agency_world, write, body)
    link = LINK.search(mailoutbox[0].body).group(0).removeprefix("http://testserver")

    browser = Client(enforce_csrf_checks=True)
    page = browser.get(link)
    assert page.status_code == 200
    assert page["Referrer-Policy"] == "strict-origin"
    csrf = browser.cookies["csrftoken"].value

    # Django's password validators, with the message beside the field.
    weak = browser.post(
        link,
        {"new_password1": "12345678", "new_password2": "12345678", "csrfmiddlewaretoken": csrf},
    )
    assert weak.status_code == 400
    assert "This password is too common." in weak.content.decode()
    assert not Member.objects.filter(email="cy@northwind.test").exists()

    joined = browser.post(
        link,
        {
            "new_password1": "lantern-orchard-42",
            "new_password2": "lantern-orchard-42",
            "csrfmiddlewaretoken": csrf,
        },
    )
    assert joined.status_code == 302
    member = Member.objects.get(workspace=workspace, email="cy@northwind.test")
    assert (member.role, member.name, member.user.check_password("lantern-orchard-42")) == (
        "setter",
        "Cy Setter",
        True,
    )
    # Signed in right away: home sends a setter to their board.
    landing = browser.get(joined["Location"])
    assert landing.status_code == 302
    assert landing["Location"] == f"/app/{workspace.pk}/board/"
    assert Invitation.objects.get().state == "accepted"

    # One use: the link now says so, and makes nothing.
    again = Client().get(link)
    assert again.status_code == 410
    assert "This invitation was already used" in again.content.decode()
    assert Member.objects.filter(email="cy@northwind.test").count() == 1


def test_an_expired_link_offers_a_new_one_and_the_old_stops_opening(
    agency_world,
    write,
    client_workspace,
    mailoutbox,
    django_capture_on_commit_callbacks,
    settings,
):
    workspace, _owner = client_workspace
    body = {
        "workspace": {"id": str(workspace.pk)},
        "team": [{"email": "cy@northwind.test", "name": "Cy", "role": "closer"}],
    }
    with django_capture_on_commit_callbacks(execute=True):
        _plan_and_apply(agency_world, write, body)
    old = LINK.search(mailoutbox[0].body).group(0).removeprefix("http://testserver")
    settings.INVITATION_MAX_AGE = 0

    browser = Client(enforce_csrf_checks=True)
    expired = browser.get(old)
    assert expired.status_code == 410
    assert "This invitation link has expired" in expired.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        resent = browser.post(
            old, {"resend": "1", "csrfmiddlewaretoken": browser.cookies["csrftoken"].value}
        )
    assert resent.status_code == 200
    assert "A new link is on its way" in resent.content.decode()
    assert [message.to for message in mailoutbox] == [["cy@northwind.test"]] * 2
    new = LINK.search(mailoutbox[1].body).group(0).removeprefix("http://testserver")
    assert new != old

    settings.INVITATION_MAX_AGE = 7 * 24 * 3600
    assert Client().get(old).status_code == 404
    assert Client().get(new).status_code == 200
    assert Client().get("/invite/not-a-link").status_code == 404


def test_a_new_workspace_member_sets_the_first_password_of_their_account(
    agency_world, write, mailoutbox, django_capture_on_commit_callbacks, settings
):
    settings.BASE_URL = "http://testserver"
    body = {
        "workspace": {
            "name": "Acme Coaching",
            "slug": "acme",
            "currency": "USD",
            "timezone": "America/New_York",
        },
        "team": [{"email": "ben@acme.test", "name": "Ben Owner", "role": "owner"}],
    }
    with django_capture_on_commit_callbacks(execute=True):
        result = _plan_and_apply(agency_world, write, body).json()["result"]
    [token] = result["member_tokens"]
    assert result["invited"] == []
    member = Member.objects.get(pk=token["member_id"])
    assert not member.user.has_usable_password()

    link = LINK.search(mailoutbox[0].body).group(0).removeprefix("http://testserver")
    browser = Client()
    joined = browser.post(
        link, {"new_password1": "lantern-orchard-42", "new_password2": "lantern-orchard-42"}
    )
    assert joined.status_code == 302
    member.refresh_from_db()
    assert member.user.check_password("lantern-orchard-42")
    # Still the one membership: the link gave the plan's member its password.
    assert Member.objects.filter(email="ben@acme.test").count() == 1
    assert browser.get("/").status_code == 302
