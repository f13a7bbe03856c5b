"""A plan never links an existing account: it invites it, and the person accepts or declines."""

import pytest
from django.test import Client
from oauth2_provider.models import get_access_token_model

from agency.models import Plan
from agency.tasks import apply_plan
from audit.models import AuditEvent
from workspaces.models import Invitation, Member, Workspace

from .conftest import new_key, new_workspace_plan

pytestmark = pytest.mark.django_db


@pytest.fixture
def outsider(make_workspace, make_member):
    """Ana already has an account: a closer of a workspace of nobody's agency."""
    elsewhere = make_workspace(name="Elsewhere Inc")
    return make_member(elsewhere, "closer", email="ana@acme.test")


def signed_in(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def csrf_of(client) -> str:
    client.get("/invitations/")
    return client.cookies["csrftoken"].value


def _apply(world, write, key=None):
    plan = write(world.full, "POST", "/api/v1/plans", new_workspace_plan()).json()
    return plan["id"], write(world.full, "POST", f"/api/v1/plans/{plan['id']}/apply", key=key)


def test_an_existing_account_is_invited_never_linked_and_gets_no_token(
    agency_world, write, outsider, api
):
    tokens_before = get_access_token_model().objects.filter(user=outsider.user).count()
    key = new_key()
    plan_id, response = _apply(agency_world, write, key=key)
    assert response.status_code == 200
    result = response.json()["result"]
    workspace = Workspace.objects.get(slug="acme")

    assert result["invited"] == [{"email": "ana@acme.test", "role": "closer"}]
    assert [(t["email"], t["role"]) for t in result["member_tokens"]] == [
        ("ben@acme.test", "owner")
    ]
    assert [m["email"] for m in result["members"]] == ["ben@acme.test"]
    # No membership, no token, and the account is untouched.
    assert list(Member.objects.filter(workspace=workspace).values_list("email", flat=True)) == [
        "ben@acme.test"
    ]
    assert Member.objects.filter(user=outsider.user).count() == 1
    assert get_access_token_model().objects.filter(user=outsider.user).count() == tokens_before
    invitation = Invitation.objects.get(email="ana@acme.test")
    assert (invitation.workspace_id, invitation.email, invitation.role, invitation.state) == (
        workspace.pk,
        "ana@acme.test",
        "closer",
        "pending",
    )
    assert invitation.plan_id == Plan.objects.get(pk=plan_id).pk
    event = AuditEvent.objects.get(action="member.invited", target_id=str(invitation.pk))
    assert (event.target_id, event.workspace_id, event.agency_id) == (
        str(invitation.pk),
        workspace.pk,
        agency_world.agency.pk,
    )
    assert event.detail == {"plan": plan_id, "email": "ana@acme.test", "role": "closer"}

    # The plan read lists it too; a retry with the key replays the same answer.
    read = api(agency_world.full).get(f"/api/v1/plans/{plan_id}")
    assert read.json()["result"]["invited"] == [{"email": "ana@acme.test", "role": "closer"}]
    again = write(agency_world.full, "POST", f"/api/v1/plans/{plan_id}/apply", key=key)
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == response.json()
    # Ana's invitation to accept, and Ben's (the new owner) to choose a password.
    assert Invitation.objects.count() == 2


def test_an_email_matching_an_account_in_another_case_is_invited(
    agency_world, write, make_workspace, make_member
):
    make_member(make_workspace(), "owner", email="Ana@Acme.Test")
    _, response = _apply(agency_world, write)
    assert response.json()["result"]["invited"] == [{"email": "ana@acme.test", "role": "closer"}]
    assert not Member.objects.filter(workspace__slug="acme", email__iexact="ana@acme.test")


def test_the_invited_person_sees_and_accepts_and_becomes_exactly_that_member(
    agency_world, write, outsider
):
    _apply(agency_world, write)
    invitation = Invitation.objects.get(email="ana@acme.test")
    client = signed_in(outsider.user)
    page = client.get("/invitations/")
    assert page.status_code == 200
    assert "Acme Coaching" in page.content.decode()
    home = client.get("/")
    assert home.status_code == 200  # not sent away to the one workspace: there is a choice
    assert f"/invitations/{invitation.pk}/accept" in home.content.decode()

    # A form without its CSRF token is refused.
    assert client.post(f"/invitations/{invitation.pk}/accept").status_code == 403
    response = client.post(
        f"/invitations/{invitation.pk}/accept", {"csrfmiddlewaretoken": csrf_of(client)}
    )
    assert response.status_code == 302
    workspace = Workspace.objects.get(slug="acme")
    [member] = Member.objects.filter(workspace=workspace, user=outsider.user)
    assert (member.email, member.role, member.name) == ("ana@acme.test", "closer", "Ana Closer")
    assert Member.objects.filter(user=outsider.user).count() == 2
    invitation.refresh_from_db()
    assert (invitation.state, invitation.member_id, invitation.decided_by_id) == (
        "accepted",
        member.pk,
        outsider.user.pk,
    )
    assert invitation.decided_at is not None
    assert list(
        AuditEvent.objects.filter(target_id__in=[str(invitation.pk), str(member.pk)])
        .exclude(action="member.invited")
        .values_list("action", "actor_id")
    ) == [("member.added", str(outsider.user.pk)), ("invitation.accepted", str(outsider.user.pk))]

    # Deciding again: there is nothing pending any more.
    again = client.post(
        f"/invitations/{invitation.pk}/decline", {"csrfmiddlewaretoken": csrf_of(client)}
    )
    assert again.status_code == 404
    assert Invitation.objects.get(email="ana@acme.test").state == "accepted"


def test_declining_makes_no_member(agency_world, write, outsider):
    _apply(agency_world, write)
    invitation = Invitation.objects.get(email="ana@acme.test")
    client = signed_in(outsider.user)
    response = client.post(
        f"/invitations/{invitation.pk}/decline", {"csrfmiddlewaretoken": csrf_of(client)}
    )
    assert response.status_code == 302
    assert Invitation.objects.get(email="ana@acme.test").state == "declined"
    assert not Member.objects.filter(workspace__slug="acme", user=outsider.user).exists()
    assert AuditEvent.objects.filter(action="invitation.declined").count() == 1


def test_another_person_cannot_see_nor_accept_it(
    agency_world, write, outsider, make_workspace, make_member
):
    _apply(agency_world, write)
    invitation = Invitation.objects.get(email="ana@acme.test")
    someone = make_member(make_workspace(), "owner", email="eve@evil.test")
    client = signed_in(someone.user)
    assert "Acme Coaching" not in client.get("/invitations/").content.decode()
    for action in ("accept", "decline"):
        response = client.post(
            f"/invitations/{invitation.pk}/{action}", {"csrfmiddlewaretoken": csrf_of(client)}
        )
        assert response.status_code == 404
    assert Invitation.objects.get(email="ana@acme.test").state == "pending"
    assert Member.objects.filter(workspace__slug="acme").count() == 1
    # Signed out: the sign-in page, nothing decided.
    anonymous = Client()
    response = anonymous.post(f"/invitations/{invitation.pk}/accept")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    assert Invitation.objects.get(email="ana@acme.test").state == "pending"


def test_the_worker_invites_the_same_way(
    agency_world, write, outsider, django_user_model, django_capture_on_commit_callbacks
):
    plan_id = write(agency_world.full, "POST", "/api/v1/plans", new_workspace_plan()).json()["id"]
    assert (
        write(
            agency_world.no_apply, "POST", f"/api/v1/plans/{plan_id}/request-approval"
        ).status_code
        == 200
    )
    approver = django_user_model.objects.create_user("ops", "ops@northwind.test", "pw-12345678")
    agency_world.agency.users.add(approver)
    console = Client()
    console.force_login(approver)
    # Approval enqueues the task on commit; here it runs in-process, as the worker runs it.
    with django_capture_on_commit_callbacks(execute=True):
        decided = console.post(
            f"/agency/{agency_world.agency.pk}/plans/{plan_id}/decide", {"approve": "1"}
        )
    assert decided.status_code == 302
    assert Plan.objects.get(pk=plan_id).state == "applied"
    assert apply_plan(plan_id) == "skipped:applied"
    plan = Plan.objects.get(pk=plan_id)
    assert plan.result["invited"] == [{"email": "ana@acme.test", "role": "closer"}]
    assert [m["email"] for m in plan.result["members"]] == ["ben@acme.test"]
    assert not Member.objects.filter(workspace__slug="acme", user=outsider.user).exists()
    assert Invitation.objects.filter(email="ana@acme.test", state="pending").count() == 1
    # Only the plan's new member has a token, kept for the approver; the invited account none.
    assert list(get_access_token_model().objects.values_list("user__email", flat=True)) == [
        "ben@acme.test"
    ]
