"""The agency console: approve or decline waiting plans, make, list and revoke connect links."""

import re
from datetime import date

import pytest
from django.test import Client

from agency.links import connect_link_create
from agency.models import ConnectLink, Plan
from agency.services import user_actor
from audit.models import AuditEvent
from audit.services import SYSTEM
from workspaces.models import Member, Workspace

from .conftest import new_workspace_plan

pytestmark = pytest.mark.django_db


@pytest.fixture
def console(agency_world, django_user_model):
    person = django_user_model.objects.create_user("ops", "ops@northwind.test", "pw-123456789")
    agency_world.agency.users.add(person)
    client = Client()
    client.force_login(person)
    return client


def _waiting_plan(world, write, **extra):
    plan_id = write(world.full, "POST", "/api/v1/plans", new_workspace_plan(**extra)).json()["id"]
    write(world.no_apply, "POST", f"/api/v1/plans/{plan_id}/request-approval")
    return plan_id


def test_sign_in_needed_and_only_the_agencys_people(agency_world, django_user_model):
    url = f"/agency/{agency_world.agency.pk}/"
    anonymous = Client().get(url)
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith("/accounts/login/")
    stranger = django_user_model.objects.create_user("x", "x@example.test", "pw-123456789")
    client = Client()
    client.force_login(stranger)
    assert client.get(url).status_code == 404


def test_overview_lists_workspaces_waiting_plans_and_blueprints(
    agency_world, write, console, django_assert_max_num_queries
):
    plan_id = _waiting_plan(agency_world, write)
    write(agency_world.full, "PUT", "/api/v1/templates/starter-kit", {"name": "Starter kit"})
    # 16 (with the invitations, the results shown once, the navigation), and 10 per
    # workspace for its headline figures and the previous period's (calls, 3 of payments,
    # leads).
    with django_assert_max_num_queries(16 + 10):
        page = console.get(f"/agency/{agency_world.agency.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "northwind-one" in html
    assert f'id="plan-{plan_id}"' in html
    assert "ana@acme.test" in html
    assert f'id="approve-{plan_id}"' in html and 'name="approve"' in html
    assert 'name="decline"' in html
    assert "starter-kit" in html


def test_approve_enqueues_the_apply_and_the_plan_is_applied(
    agency_world, write, console, django_capture_on_commit_callbacks, mailoutbox
):
    plan_id = _waiting_plan(agency_world, write)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = console.post(
            f"/agency/{agency_world.agency.pk}/plans/{plan_id}/decide", {"approve": "1"}
        )
    assert response.status_code == 302
    # The apply, sent once the decision commits; then the apply's two invitation mails.
    assert len(callbacks) == 3
    assert sorted(message.to[0] for message in mailoutbox) == ["ana@acme.test", "ben@acme.test"]
    plan = Plan.objects.get(pk=plan_id)
    assert plan.state == "applied"
    assert plan.decided_by.username == "ops"
    workspace = Workspace.objects.get(slug="acme")
    assert Member.objects.filter(workspace=workspace).count() == 2
    # The worker's tokens are never in the plan's result: they are kept encrypted for the
    # person who approved, until the console shows them once.
    assert "member_tokens" not in plan.result
    assert [m["email"] for m in plan.result["members"]] == ["ana@acme.test", "ben@acme.test"]
    assert AuditEvent.objects.filter(action="session_token.minted").count() == 2
    assert plan.revealed_encrypted is not None
    assert list(
        AuditEvent.objects.filter(target_id=plan_id)
        .order_by("at")
        .values_list("action", "actor_kind")
    ) == [
        ("plan.drafted", "agency_token"),
        ("plan.approval_requested", "agency_token"),
        ("plan.approved", "user"),
        ("plan.applied", "system"),
    ]
    page = console.get(f"/agency/{agency_world.agency.pk}/").content.decode()
    assert "Applied" in page
    shown = re.findall(r'<code class="secret member-token" id="token-[0-9-]+">([^<]+)</code>', page)
    assert len(shown) == 2
    assert len(set(shown)) == 2
    assert (
        len(
            re.findall(
                r'<code class="secret connect-url" id="link-[0-9-]+">[^<]+/connect/[^<]+</code>',
                page,
            )
        )
        == 1
    )
    # Once: the next reading shows none, and nothing of them is kept.
    again = console.get(f"/agency/{agency_world.agency.pk}/").content.decode()
    assert 'id="shown-once"' not in again
    assert Plan.objects.get(pk=plan_id).revealed_encrypted is None
    assert AuditEvent.objects.filter(action="plan.result_shown", target_id=plan_id).count() == 1


def test_decline_needs_a_reason_and_is_final(agency_world, write, console):
    plan_id = _waiting_plan(agency_world, write)
    url = f"/agency/{agency_world.agency.pk}/plans/{plan_id}/decide"
    console.post(url, {"decline": "1", "reason": "  "})
    assert Plan.objects.get(pk=plan_id).state == "waiting_for_approval"
    console.post(url, {"decline": "1", "reason": "Wrong currency for this client"})
    plan = Plan.objects.get(pk=plan_id)
    assert (plan.state, plan.decision_reason) == ("refused", "Wrong currency for this client")
    # Deciding again is refused by the state machine; nothing changes.
    follow = console.post(url, {"approve": "1"}, follow=True)
    assert "cannot be approved" in follow.content.decode()
    assert Plan.objects.get(pk=plan_id).state == "refused"
    assert Workspace.objects.filter(slug="acme").count() == 0


def test_another_agencys_plan_cannot_be_decided(
    agency_world, write, console, make_agency, agency_token
):
    other = make_agency(tier="agency")
    token = agency_token(other)
    plan_id = write(token, "POST", "/api/v1/plans", new_workspace_plan()).json()["id"]
    write(token, "POST", f"/api/v1/plans/{plan_id}/request-approval")
    response = console.post(
        f"/agency/{agency_world.agency.pk}/plans/{plan_id}/decide", {"approve": "1"}
    )
    assert response.status_code == 404
    assert Plan.objects.get(pk=plan_id).state == "waiting_for_approval"


def test_make_a_link_shows_the_url_once_then_revoke_with_confirmation(agency_world, console):
    base = f"/agency/{agency_world.agency.pk}"
    made = console.post(
        f"{base}/connect-links/",
        {
            "workspace": str(agency_world.workspace.pk),
            "integrations": ["stripe", "hubspot"],
            "expires_in_hours": "24",
        },
    )
    assert made.status_code == 200
    html = made.content.decode()
    url = re.search(r'id="link-url" value="([^"]+)"', html).group(1)
    assert url.startswith("http://127.0.0.1:8000/connect/")
    assert 'id="copy-url"' in html
    link = ConnectLink.objects.get()
    assert link.integrations == ["stripe", "hubspot"]

    overview = console.get(f"{base}/").content.decode()
    assert url not in overview
    assert f'id="revoke-{link.pk}"' in overview

    confirm = console.get(f"{base}/connect-links/{link.pk}/revoke")
    assert confirm.status_code == 200
    assert 'name="confirm-revoke"' in confirm.content.decode()
    assert ConnectLink.objects.get().revoked_at is None
    console.post(f"{base}/connect-links/{link.pk}/revoke", {"confirm-revoke": ""})
    assert ConnectLink.objects.get().revoked_at is not None
    assert Client().get(url.replace("http://127.0.0.1:8000", "")).status_code == 410


def test_make_a_link_refuses_a_workspace_of_another_agency(
    agency_world, console, make_workspace, make_agency
):
    foreign = make_workspace(agency=make_agency())
    console.post(
        f"/agency/{agency_world.agency.pk}/connect-links/",
        {"workspace": str(foreign.pk), "integrations": ["stripe"], "expires_in_hours": "24"},
    )
    assert ConnectLink.objects.count() == 0


def test_approval_needs_the_agency_plan(agency_world, write, console):
    plan_id = _waiting_plan(agency_world, write)
    agency_world.agency.tier = "starter"
    agency_world.agency.save(update_fields=["tier"])
    page = console.post(
        f"/agency/{agency_world.agency.pk}/plans/{plan_id}/decide", {"approve": "1"}, follow=True
    )
    assert (
        "needs the Agency plan or above" in page.content.decode()
        or "Agency plan" in page.content.decode()
    )
    assert Plan.objects.get(pk=plan_id).state == "waiting_for_approval"


def test_another_agencys_link_cannot_be_revoked_from_the_console(
    agency_world, console, make_agency, make_workspace
):
    other = make_agency(tier="agency")
    link, _url = connect_link_create(
        agency=other,
        workspace=make_workspace(agency=other),
        integrations=["zoom"],
        expires_in_hours=24,
        actor=SYSTEM,
    )
    path = f"/agency/{agency_world.agency.pk}/connect-links/{link.pk}/revoke"
    assert console.get(path).status_code == 404
    assert console.post(path).status_code == 404
    assert ConnectLink.objects.get(pk=link.pk).revoked_at is None
    # Nor does the console list it.
    assert str(link.pk) not in console.get(f"/agency/{agency_world.agency.pk}/").content.decode()


def test_a_decline_reason_with_a_nul_is_refused_and_the_plan_waits(agency_world, write, console):
    plan_id = _waiting_plan(agency_world, write)
    page = console.post(
        f"/agency/{agency_world.agency.pk}/plans/{plan_id}/decide",
        {"decline": "1", "reason": "Not\x00now"},
        follow=True,
    )
    assert page.status_code == 200
    assert "NUL character" in page.content.decode()
    plan = Plan.objects.get(pk=plan_id)
    assert (plan.state, plan.decision_reason) == ("waiting_for_approval", "")


@pytest.mark.parametrize("hours", ["\u0662\u0664", "+24", "2_4", "0", "721"])
def test_make_a_link_refuses_hours_that_are_not_1_to_720_in_ascii_digits(
    agency_world, console, hours
):
    page = console.post(
        f"/agency/{agency_world.agency.pk}/connect-links/",
        {
            "workspace": str(agency_world.workspace.pk),
            "integrations": ["stripe"],
            "expires_in_hours": hours,
        },
        follow=True,
    )
    assert "The link lasts 1 to 720 hours." in page.content.decode()
    assert ConnectLink.objects.count() == 0


@pytest.mark.parametrize("who", ["outsider", "unknown id"])
def test_every_console_page_answers_an_outsider_with_the_plain_404_page(
    who, agency_world, write, django_user_model
):
    plan_id = _waiting_plan(agency_world, write)
    owner = django_user_model.objects.create_user("own", "own@northwind.test", "pw-123456789")
    link, _ = connect_link_create(
        agency=agency_world.agency,
        workspace=agency_world.workspace,
        integrations=["stripe"],
        expires_in_hours=24,
        actor=user_actor(owner),
    )
    stranger = django_user_model.objects.create_user("x", "x@example.test", "pw-123456789")
    client = Client()
    client.force_login(stranger)
    agency_id = (
        agency_world.agency.pk if who == "outsider" else "00000000-0000-0000-0000-000000000000"
    )
    base = f"/agency/{agency_id}"
    answers = [
        client.get(f"{base}/"),
        client.post(f"{base}/plans/{plan_id}/decide", {"approve": "1"}),
        client.post(
            f"{base}/connect-links/",
            {"workspace": str(agency_world.workspace.pk), "integrations": ["stripe"]},
        ),
        client.get(f"{base}/connect-links/{link.pk}/revoke"),
        client.post(f"{base}/connect-links/{link.pk}/revoke", {"confirm-revoke": ""}),
    ]
    for response in answers:
        assert response.status_code == 404
        html = response.content.decode()
        assert "Nothing lives at this address." in html
        assert "Northwind Agency" not in html
    assert Plan.objects.get(pk=plan_id).state == "waiting_for_approval"
    assert ConnectLink.objects.count() == 1
    assert ConnectLink.objects.get().revoked_at is None


def test_the_plan_changes_read_as_sentences(agency_world, write, console):
    _waiting_plan(agency_world, write)
    html = console.get(f"/agency/{agency_world.agency.pk}/").content.decode()
    words = re.findall(r'<td class="change-words">([^<]+)</td>', html)
    assert words == [
        "Create workspace Acme Coaching",
        "Invite closer ana@acme.test",
        "Invite owner ben@acme.test",
        "Add programme Mastermind at 4997.00",
        "Make a connect link for Stripe",
    ]


def test_an_agency_user_opens_a_client_workspace_overview_as_a_manager(
    agency_world, console, make_workspace, make_agency
):
    workspace = agency_world.workspace
    url = f"/agency/{agency_world.agency.pk}/workspaces/{workspace.pk}/"
    console_page = console.get(f"/agency/{agency_world.agency.pk}/").content.decode()
    assert f'href="{url}"' in console_page
    page = console.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="headline"' in html
    # The console's header, and no member's links: no board, settings or integrations of a
    # workspace they are not in.
    assert re.findall(r'id="(nav-[a-z]+)"', html) == [
        "nav-console",
        "nav-tokens",
        "nav-overview",
        "nav-places",
    ]
    event = AuditEvent.objects.get(action="workspace.figures_read_by_agency")
    assert (event.workspace_id, event.agency_id, event.actor_kind) == (
        workspace.pk,
        agency_world.agency.pk,
        "user",
    )
    # Another agency's workspace, or one of no agency: not found, and nothing audited.
    elsewhere = make_workspace(agency=make_agency(tier="agency"), slug="elsewhere")
    alone = make_workspace(slug="alone")
    for other in (elsewhere, alone):
        missing = console.get(f"/agency/{agency_world.agency.pk}/workspaces/{other.pk}/")
        assert missing.status_code == 404
    assert AuditEvent.objects.filter(action="workspace.figures_read_by_agency").count() == 1


def test_the_console_period_picker_and_the_change_from_the_period_before(agency_world, console):
    html = console.get(f"/agency/{agency_world.agency.pk}/?range=7").content.decode()
    shown = re.search(r'id="period-shown" data-from="([0-9-]+)" data-to="([0-9-]+)"', html)
    first, last = shown.groups()
    assert (date.fromisoformat(last) - date.fromisoformat(first)).days == 6
    assert '<option value="7" selected>' in html
    row = re.search(
        rf'<tr data-workspace-id="{agency_world.workspace.pk}">(.*?)</tr>', html, re.S
    ).group(1)
    # Six headline figures, each with its change (or a dash when a figure is null).
    assert len(re.findall(r'<span class="change', row)) == 6


def _plan_form(**extra) -> dict:
    data = {
        "blueprint": "",
        "workspace": "",
        "name": "Acme Coaching",
        "slug": "acme-coaching",
        "currency": "EUR",
        "timezone": "Berlin",
        "team-0-email": "ann@acme.example",
        "team-0-name": "Ann Closer",
        "team-0-role": "closer",
        "team-1-role": "sdr",
        "team-2-role": "closer",
        "team-3-role": "closer",
        "team-4-role": "closer",
        "programme-0-name": "Mastermind",
        "programme-0-price": "4,997.50",
        "connect": ["stripe", "calendly"],
    }
    data.update(extra)
    return data


def test_the_console_makes_a_plan_from_its_form_and_asks_for_approval(agency_world, console):
    agency = agency_world.agency
    page = console.get(f"/agency/{agency.pk}/").content.decode()
    assert f'action="/agency/{agency.pk}/plans/make"' in page
    assert '<option value="sdr">SDR</option>' in page
    assert '<option value="EUR">Euro (EUR)</option>' in page
    answer = console.post(f"/agency/{agency.pk}/plans/make", _plan_form())
    assert answer.status_code == 302
    plan = Plan.objects.get(agency=agency)
    assert answer["Location"] == f"/agency/{agency.pk}/#plan-{plan.pk}"
    assert plan.state == "waiting_for_approval"
    assert plan.body == {
        "workspace": {
            "name": "Acme Coaching",
            "slug": "acme-coaching",
            "currency": "EUR",
            "timezone": "Europe/Berlin",
        },
        "settings": {},
        "team": [{"email": "ann@acme.example", "name": "Ann Closer", "role": "closer"}],
        "programmes": [{"name": "Mastermind", "price": "4997.50"}],
        "integrations": ["stripe", "calendly"],
    }
    actions = list(
        AuditEvent.objects.filter(target_id=str(plan.pk)).values_list("action", flat=True)
    )
    assert sorted(actions) == ["plan.approval_requested", "plan.drafted"]
    listed = console.get(answer["Location"]).content.decode()
    assert "Plan made: check its changes below, then approve it to apply it." in listed
    assert f'id="plan-{plan.pk}"' in listed
    assert "Invite closer ann@acme.example" in listed


def test_the_plan_form_refuses_in_words_beside_each_field(agency_world, console):
    agency = agency_world.agency
    answer = console.post(
        f"/agency/{agency.pk}/plans/make",
        _plan_form(
            **{
                "slug": "Acme Coaching!",
                "team-0-email": "",
                "programme-0-price": "12.345",
                "timezone": "Atlantis",
            }
        ),
    )
    assert answer.status_code == 400
    html = answer.content.decode()
    links = re.findall(r'<li><a href="#([^"]+)">([^<]+)</a></li>', html)
    assert links == [
        (
            "id_slug",
            "Short name in addresses: Use lowercase letters, digits and hyphens, like "
            "acme-coaching.",
        ),
        (
            "id_timezone",
            "Time zone: Choose a time zone from the list, or type a city, like Berlin.",
        ),
        ("id_team-0-email", "Person 1: email: Enter Ann Closer&#x27;s email."),
        (
            "id_programme-0-price",
            "Programme 1: price: Enter an amount with at most 2 decimals, like 4997.",
        ),
    ]
    assert 'aria-invalid="true" aria-describedby="id_slug_helptext id_slug_error"' in html
    assert not Plan.objects.filter(agency=agency).exists()
