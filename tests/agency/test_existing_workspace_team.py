"""A plan on a workspace that already exists never reaches that workspace's data or people on
its own: its team is proposed, with no token, and waits for an owner to approve it."""

import re

import pytest
from django.contrib.auth import get_user_model
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


def _owner_decides(owner, invitation, action: str):
    """The owner clicks Approve or Decline on the Members page, as a browser posts it."""
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(owner.user)
    url = f"/settings/{owner.workspace_id}/members/"
    page = browser.get(url)
    assert page.status_code == 200
    assert f'id="{action}-{invitation.pk}"' in page.content.decode()
    return browser.post(
        url,
        {
            "action": action,
            "invitation": str(invitation.pk),
            "csrfmiddlewaretoken": browser.cookies["csrftoken"].value,
        },
    )


def test_an_agency_plan_gets_no_token_for_an_existing_workspace(
    agency_world, write, api, client_workspace, mailoutbox, django_capture_on_commit_callbacks
):
    workspace, owner = client_workspace
    body = {
        "workspace": {"id": str(workspace.pk)},
        "team": [{"email": "spy@agency.example", "name": "Spy", "role": "admin"}],
    }
    with django_capture_on_commit_callbacks(execute=True):
        applied = _plan_and_apply(agency_world, write, body)
    assert applied.status_code == 200
    result = applied.json()["result"]
    assert result["member_tokens"] == []
    assert result["members"] == []
    assert result["invited"] == [{"email": "spy@agency.example", "role": "admin"}]
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
    assert (
        invitation.email,
        invitation.role,
        invitation.state,
        invitation.member_id,
        invitation.sent_at,
        invitation.proposed_by,
    ) == ("spy@agency.example", "admin", "proposed", None, None, "Northwind Agency")
    # Only the owner hears of it: nothing reaches the proposed person before an owner approves.
    assert [message.to for message in mailoutbox] == [["olive@northwind.test"]]
    assert mailoutbox[0].subject == (
        f"Northwind Agency proposes spy@agency.example as Admin in {workspace.name}: "
        "waiting for you"
    )
    assert f"http://testserver/settings/{workspace.pk}/members/" in mailoutbox[0].body
    assert not LINK.search(mailoutbox[0].body)
    assert AuditEvent.objects.filter(action="invitation.proposed").count() == 1
    assert AuditEvent.objects.filter(action="member.invited").count() == 0
    assert AuditEvent.objects.filter(action="member.added").count() == 0


def test_a_plan_never_proposes_an_owner_on_an_existing_workspace(
    agency_world, write, client_workspace, mailoutbox, django_capture_on_commit_callbacks
):
    workspace, _owner = client_workspace
    body = {
        "workspace": {"id": str(workspace.pk)},
        "team": [
            {"email": "spy@agency.example", "name": "Spy", "role": "owner"},
            {"email": "cy@northwind.test", "name": "Cy", "role": "closer"},
        ],
    }
    plan = write(agency_world.full, "POST", "/api/v1/plans", body)
    assert plan.status_code == 201
    owner_change, closer_change = plan.json()["result"]["changes"]
    assert (owner_change["status"], owner_change["code"]) == ("blocked", "role_not_proposed")
    assert closer_change["status"] == "ready"
    with django_capture_on_commit_callbacks(execute=True):
        applied = write(
            agency_world.full, "POST", f"/api/v1/plans/{plan.json()['id']}/apply", key=new_key()
        )
    assert applied.json()["result"]["invited"] == [{"email": "cy@northwind.test", "role": "closer"}]
    assert list(Invitation.objects.values_list("email", "state")) == [
        ("cy@northwind.test", "proposed")
    ]


def test_the_agencys_own_account_stops_at_waiting_for_an_owner(
    agency_world,
    write,
    api,
    client_workspace,
    mailoutbox,
    django_capture_on_commit_callbacks,
):
    """An agency proposes its own console account as admin of a client's workspace: the
    account cannot accept, cannot mint a token, and is a member only once an owner approves
    and the person accepts."""
    workspace, owner = client_workspace
    console = get_user_model().objects.create_user(
        username="console", email="console@agency.example", password="correct-horse-battery"
    )
    agency_world.agency.users.add(console)
    body = {
        "workspace": {"id": str(workspace.pk)},
        "team": [{"email": "console@agency.example", "name": "Console", "role": "admin"}],
    }
    with django_capture_on_commit_callbacks(execute=True):
        _plan_and_apply(agency_world, write, body)
    invitation = Invitation.objects.get(workspace=workspace)

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(console)
    listed = browser.get("/invitations/")
    assert listed.status_code == 200
    assert str(invitation.pk) not in listed.content.decode()
    csrf = browser.cookies["csrftoken"].value
    accept_url = f"/invitations/{invitation.pk}/accept"
    accepted = browser.post(accept_url, {"csrfmiddlewaretoken": csrf})
    assert accepted.status_code == 404
    assert not Member.objects.filter(workspace=workspace, email="console@agency.example").exists()
    assert browser.get(f"/settings/{workspace.pk}/tokens/").status_code == 404

    # The owner sees it waiting, proposed by the agency.
    members = Client()
    members.force_login(owner.user)
    page = members.get(f"/settings/{workspace.pk}/members/").content.decode()
    assert "Waiting for an owner" in page
    assert "proposed by Northwind Agency" in page

    # Approved: only now the person is mailed, and may accept.
    with django_capture_on_commit_callbacks(execute=True):
        assert _owner_decides(owner, invitation, "approve").status_code == 302
    assert [message.to for message in mailoutbox] == [
        ["olive@northwind.test"],
        ["console@agency.example"],
    ]
    invitation.refresh_from_db()
    assert invitation.state == "pending"
    assert str(invitation.pk) in browser.get("/invitations/").content.decode()
    accepted = browser.post(accept_url, {"csrfmiddlewaretoken": csrf})
    assert accepted.status_code == 302
    assert Member.objects.get(workspace=workspace, email="console@agency.example").role == "admin"
    assert list(
        AuditEvent.objects.filter(target_id=str(invitation.pk))
        .order_by("at", "id")
        .values_list("action", flat=True)
    ) == ["invitation.proposed", "invitation.approved", "invitation.accepted"]


def test_a_declined_proposal_never_reaches_the_person(
    agency_world,
    write,
    client_workspace,
    make_member,
    mailoutbox,
    django_capture_on_commit_callbacks,
):
    workspace, owner = client_workspace
    admin = make_member(workspace, "admin")
    body = {
        "workspace": {"id": str(workspace.pk)},
        "team": [{"email": "cy@northwind.test", "name": "Cy", "role": "closer"}],
    }
    with django_capture_on_commit_callbacks(execute=True):
        _plan_and_apply(agency_world, write, body)
    invitation = Invitation.objects.get(workspace=workspace)

    # An admin sees the proposal but only an owner decides it.
    admin_browser = Client(enforce_csrf_checks=True)
    admin_browser.force_login(admin.user)
    url = f"/settings/{workspace.pk}/members/"
    page = admin_browser.get(url)
    assert f'id="approve-{invitation.pk}"' not in page.content.decode()
    refused = admin_browser.post(
        url,
        {
            "action": "approve",
            "invitation": str(invitation.pk),
            "csrfmiddlewaretoken": admin_browser.cookies["csrftoken"].value,
        },
    )
    assert refused.status_code == 400
    assert "Only an owner approves or declines" in refused.content.decode()

    with django_capture_on_commit_callbacks(execute=True):
        assert _owner_decides(owner, invitation, "decline").status_code == 302
    invitation.refresh_from_db()
    assert invitation.state == "refused"
    assert [message.to for message in mailoutbox] == [["olive@northwind.test"]]
    assert AuditEvent.objects.filter(action="invitation.refused").count() == 1


def _approved(workspace, owner, django_capture_on_commit_callbacks):
    invitation = Invitation.objects.get(workspace=workspace, state="proposed")
    with django_capture_on_commit_callbacks(execute=True):
        assert _owner_decides(owner, invitation, "approve").status_code == 302
    return invitation


def test_the_invited_person_chooses_a_password_and_is_a_member(
    agency_world, write, client_workspace, mailoutbox, django_capture_on_commit_callbacks
):
    workspace, owner = client_workspace
    body = {
        "workspace": {"id": str(workspace.pk)},
        "team": [{"email": "cy@northwind.test", "name": "Cy Setter", "role": "setter"}],
    }
    with django_capture_on_commit_callbacks(execute=True):
        _plan_and_apply(agency_world, write, body)
    _approved(workspace, owner, django_capture_on_commit_callbacks)
    assert [message.to for message in mailoutbox] == [
        ["olive@northwind.test"],
        ["cy@northwind.test"],
    ]
    link = LINK.search(mailoutbox[1].body).group(0).removeprefix("http://testserver")

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
    workspace, owner = client_workspace
    body = {
        "workspace": {"id": str(workspace.pk)},
        "team": [{"email": "cy@northwind.test", "name": "Cy", "role": "closer"}],
    }
    with django_capture_on_commit_callbacks(execute=True):
        _plan_and_apply(agency_world, write, body)
    _approved(workspace, owner, django_capture_on_commit_callbacks)
    mailoutbox.pop(0)  # the owner's notice
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


def test_a_plan_says_what_it_did_not_do_on_a_workspace_that_exists(
    agency_world, write, client_workspace, mailoutbox, django_capture_on_commit_callbacks
):
    workspace, _owner = client_workspace
    body = {
        "workspace": {"id": str(workspace.pk)},
        "settings": {"embedded_redirect_uri": "https://app.northwind.test/callback"},
        "team": [{"email": "sam@agency.example", "name": "Sam", "role": "closer"}],
    }
    with django_capture_on_commit_callbacks(execute=True):
        first = _plan_and_apply(agency_world, write, body)
    changes = {c["op"]: c for c in first.json()["result"]["changes"]}
    assert (changes["settings.update"]["status"], changes["settings.update"]["code"]) == (
        "blocked",
        "setting_not_changed",
    )
    assert changes["member.add"]["status"] == "applied"
    mails = len(mailoutbox)
    # The same person proposed again: blocked, saying why, and nobody is mailed again.
    with django_capture_on_commit_callbacks(execute=True):
        second = _plan_and_apply(agency_world, write, body)
    [again] = [c for c in second.json()["result"]["changes"] if c["op"] == "member.add"]
    assert (again["status"], again["code"], again["reason"]) == (
        "blocked",
        "already_invited",
        "sam@agency.example is already invited to the workspace (or waits for an owner's "
        "approval); nothing is sent again.",
    )
    assert second.json()["result"]["invited"] == []
    assert len(mailoutbox) == mails
    assert Invitation.objects.filter(workspace=workspace).count() == 1
