"""The Members page and the workspace settings page, as a browser posts them (CSRF on)."""

import json
import re
from datetime import UTC, datetime, time
from decimal import Decimal
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.utils import timezone

from audit.models import AuditEvent
from tests.conftest import aware
from workspaces import invitations
from workspaces.importer import records_import
from workspaces.models import CommissionRule, Invitation, Member, Workspace
from workspaces.services import lead_upsert, sale_upsert

pytestmark = pytest.mark.django_db


@pytest.fixture
def team(make_workspace, make_member, workspace_token, session_token, settings):
    settings.BASE_URL = "http://testserver"
    workspace = make_workspace(name="Northwind Sales", currency="USD")
    members = {
        role: make_member(workspace, role, name=f"{role.title()} Person")
        for role in ("owner", "admin", "manager", "closer")
    }
    return SimpleNamespace(
        workspace=workspace,
        read=workspace_token(workspace, scopes=("read",)),
        session_token=session_token,
        **members,
    )


def browser(member) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(member.user)
    return client


def post(client, url, data):
    page = client.get(url)
    assert page.status_code == 200, page.status_code
    return client.post(url, {**data, "csrfmiddlewaretoken": client.cookies["csrftoken"].value})


def members_url(team):
    return f"/settings/{team.workspace.pk}/members/"


def settings_url(team):
    return f"/settings/{team.workspace.pk}/workspace/"


def test_an_owner_invites_a_setter_who_is_mailed_a_link(
    team, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        answer = post(
            browser(team.owner),
            members_url(team),
            {"action": "invite", "email": " Sam@Northwind.Test ", "name": "Sam", "role": "setter"},
        )
    assert answer.status_code == 302
    invitation = Invitation.objects.get(workspace=team.workspace)
    assert (invitation.email, invitation.role, invitation.state) == (
        "sam@northwind.test",
        "setter",
        "pending",
    )
    assert [message.to for message in mailoutbox] == [["sam@northwind.test"]]
    assert re.search(r"http://testserver/invite/\S+", mailoutbox[0].body)
    page = browser(team.owner).get(members_url(team)).content.decode()
    assert 'data-email="sam@northwind.test"' in page
    assert AuditEvent.objects.filter(action="member.invited").count() == 1


def test_the_invitation_mail_states_the_links_expiry_in_utc(
    team, mailoutbox, django_capture_on_commit_callbacks, monkeypatch
):
    # A New York workspace: its pages write times in New York, the mail in UTC.
    Workspace.objects.filter(pk=team.workspace.pk).update(timezone="America/New_York")
    sent = datetime(2026, 11, 28, 3, 35, tzinfo=UTC)
    monkeypatch.setattr(invitations, "timezone", SimpleNamespace(now=lambda: sent))
    with django_capture_on_commit_callbacks(execute=True):
        answer = post(
            browser(team.owner),
            members_url(team),
            {"action": "invite", "email": "sam@northwind.test", "name": "Sam", "role": "setter"},
        )
    assert answer.status_code == 302
    assert Invitation.objects.get().link_expires_at == datetime(2026, 12, 5, 3, 35, tzinfo=UTC)
    [message] = mailoutbox
    html = message.alternatives[0][0]
    for text in (message.body, html):
        assert "The link works once, until 5 Dec 2026, 03:35 UTC." in text
        assert "22:35" not in text


def card_of(answer) -> str:
    """The invitation link page's card: what it says, without the page's header."""
    page = answer.content.decode()
    return page[page.index('id="invitation-link"') :].split("</div>", 1)[0]


def test_a_withdrawn_invitations_link_says_it_was_withdrawn(
    team, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        post(
            browser(team.owner),
            members_url(team),
            {"action": "invite", "email": "sam@northwind.test", "name": "Sam", "role": "setter"},
        )
    link = re.search(r"http://testserver(/invite/\S+)", mailoutbox[0].body).group(1)
    invitation = Invitation.objects.get()
    # The person opens the link (it asks for a password); the workspace then withdraws it.
    person = Client(enforce_csrf_checks=True)
    assert person.get(link).status_code == 200
    withdrawn = post(
        browser(team.owner),
        members_url(team),
        {"action": "revoke", "invitation": str(invitation.pk)},
    )
    assert withdrawn.status_code == 302
    assert Invitation.objects.get().state == "revoked"

    expected = (
        "Northwind Sales withdrew its invitation for sam@northwind.test, so this link no "
        "longer opens. To join, ask Northwind Sales to invite you again."
    )
    opened = Client().get(link)
    assert opened.status_code == 410
    card = card_of(opened)
    assert "This invitation was withdrawn" in card
    assert expected in card
    assert "already used" not in card
    assert "Sign in" not in card
    # The password the person sends from the page opened before: the same answer.
    joined = person.post(
        link,
        {
            "new_password1": "lantern-orchard-42",
            "new_password2": "lantern-orchard-42",
            "csrfmiddlewaretoken": person.cookies["csrftoken"].value,
        },
    )
    assert joined.status_code == 410
    assert expected in card_of(joined)
    assert not Member.objects.filter(email="sam@northwind.test").exists()


def test_the_invite_form_refuses_bad_input_beside_the_field_and_keeps_it(team):
    answer = post(
        browser(team.owner),
        members_url(team),
        {"action": "invite", "email": "not-an-email", "name": "Sam", "role": "setter"},
    )
    assert answer.status_code == 400
    html = answer.content.decode()
    assert "Enter a valid email address." in html
    assert 'value="not-an-email"' in html
    already = post(
        browser(team.owner),
        members_url(team),
        {"action": "invite", "email": team.closer.email, "role": "setter"},
    )
    assert already.status_code == 400
    assert "is already a member of Northwind Sales" in already.content.decode()
    assert Invitation.objects.count() == 0


def test_only_an_owner_grants_or_takes_the_owner_and_admin_roles(team):
    admin = browser(team.admin)
    refused = post(
        admin, members_url(team), {"action": "invite", "email": "x@n.test", "role": "admin"}
    )
    assert refused.status_code == 400
    assert "Only an owner invites an owner or an admin." in refused.content.decode()
    promote = post(
        admin,
        members_url(team),
        {"action": "role", "member": str(team.closer.pk), "role": "admin"},
    )
    assert promote.status_code == 400
    assert "Only an owner grants or takes away" in promote.content.decode()
    assert Member.objects.get(pk=team.closer.pk).role == "closer"
    # An admin manages the other roles.
    ok = post(
        admin,
        members_url(team),
        {"action": "role", "member": str(team.closer.pk), "role": "setter"},
    )
    assert ok.status_code == 302
    assert Member.objects.get(pk=team.closer.pk).role == "setter"
    event = AuditEvent.objects.get(action="member.role_changed")
    assert event.detail == {"email": team.closer.email, "before": "closer", "after": "setter"}


def test_the_last_owner_can_be_neither_demoted_nor_deactivated(team):
    owner = browser(team.owner)
    demote = post(
        owner, members_url(team), {"action": "role", "member": str(team.owner.pk), "role": "admin"}
    )
    assert demote.status_code == 400
    assert "The workspace needs an owner" in demote.content.decode()
    # Another owner first; then the first may step down.
    post(
        owner, members_url(team), {"action": "role", "member": str(team.admin.pk), "role": "owner"}
    )
    again = post(
        owner, members_url(team), {"action": "role", "member": str(team.owner.pk), "role": "admin"}
    )
    assert again.status_code == 302
    assert Member.objects.get(pk=team.owner.pk).role == "admin"


def deactivate_url(team, member):
    return f"/settings/{team.workspace.pk}/members/{member.pk}/deactivate/"


def test_deactivating_ends_the_members_sessions_at_once(team, api):
    token = team.session_token(team.closer)
    assert api(token).get("/api/v1/me/board").status_code == 200
    owner = browser(team.owner)
    # The Members page offers a way to the question, not the deed.
    listed = owner.get(members_url(team)).content.decode()
    assert f'href="{deactivate_url(team, team.closer)}"' in listed
    asked = owner.get(deactivate_url(team, team.closer)).content.decode()
    assert "Closer Person loses access to Northwind Sales now and their sessions end." in asked
    assert Member.objects.get(pk=team.closer.pk).is_active
    answer = post(owner, deactivate_url(team, team.closer), {})
    assert answer.status_code == 302
    closer = Member.objects.get(pk=team.closer.pk)
    assert (closer.is_active, closer.name) == (False, "Closer Person")
    assert api(token).get("/api/v1/me/board").status_code == 401
    assert AuditEvent.objects.filter(action="member.removed", target_id=str(closer.pk)).count() == 1
    assert AuditEvent.objects.filter(action="session_token.revoked").count() == 1


def _mint_on_the_page(client, team, name):
    url = f"/settings/{team.workspace.pk}/tokens/"
    minted = post(client, url, {"name": name, "scopes": ["read", "data:write"]})
    assert minted.status_code == 302, minted.content.decode()[:500]
    shown = client.get(url).content.decode()
    return re.search(r"svc_[0-9a-f]{64}", shown).group(0)


def test_deactivating_revokes_the_tokens_the_member_minted(team, api):
    admin = browser(team.admin)
    first = _mint_on_the_page(admin, team, "Zapier")
    second = _mint_on_the_page(admin, team, "Sheets")
    owners_own = _mint_on_the_page(browser(team.owner), team, "Owner's")
    for token in (first, second, owners_own):
        assert api(token).get("/api/v1/calls").status_code == 200
    owner = browser(team.owner)
    asked = owner.get(deactivate_url(team, team.admin)).content.decode()
    assert (
        "Admin Person loses access to Northwind Sales now and their sessions end; "
        "2 tokens they minted are revoked."
    ) in asked
    answer = post(owner, deactivate_url(team, team.admin), {})
    assert answer.status_code == 302
    assert api(first).get("/api/v1/calls").status_code == 401
    assert api(second).get("/api/v1/calls").status_code == 401
    assert api(owners_own).get("/api/v1/calls").status_code == 200
    revoked = AuditEvent.objects.filter(action="token.revoked").order_by("at")
    assert [(event.detail["name"], event.reason) for event in revoked] == [
        ("Zapier", "Its minter was deactivated."),
        ("Sheets", "Its minter was deactivated."),
    ]
    landing = owner.get(members_url(team)).content.decode()
    assert (
        "Admin Person no longer has access to Northwind Sales; their sessions ended and "
        "2 tokens they minted were revoked."
    ) in landing


def test_a_demoted_admin_loses_the_tokens_they_minted(team, api):
    admin = browser(team.admin)
    minted = _mint_on_the_page(admin, team, "Zapier")
    owners_own = _mint_on_the_page(browser(team.owner), team, "Owner's")
    assert api(minted).get("/api/v1/audit-events").status_code == 200
    owner = browser(team.owner)
    listed = owner.get(members_url(team)).content.decode()
    assert (
        f'<p class="muted" id="role-tokens-{team.admin.pk}">A role other than owner or admin '
        "revokes the token they minted.</p>"
    ) in listed
    # Admin to owner keeps them; owner to manager does not.
    post(
        owner, members_url(team), {"action": "role", "member": str(team.admin.pk), "role": "owner"}
    )
    assert api(minted).get("/api/v1/leads").status_code == 200
    answer = post(
        owner, members_url(team), {"action": "role", "member": str(team.admin.pk), "role": "closer"}
    )
    assert answer.status_code == 302
    assert api(minted).get("/api/v1/leads").status_code == 401
    assert api(minted).get("/api/v1/audit-events").status_code == 401
    assert api(owners_own).get("/api/v1/leads").status_code == 200
    [revoked] = AuditEvent.objects.filter(action="token.revoked")
    assert (revoked.detail["name"], revoked.reason) == (
        "Zapier",
        "Its minter's role no longer mints tokens.",
    )
    landing = owner.get(members_url(team)).content.decode()
    assert "Admin Person&#x27;s role is now Closer; 1 token they minted was revoked." in landing
    assert f'id="role-tokens-{team.admin.pk}"' not in landing


def test_an_import_demoting_an_admin_revokes_the_tokens_they_minted(team, api):
    minted = _mint_on_the_page(browser(team.admin), team, "Sheets")
    line = {
        "type": "member",
        "id": "m-admin",
        "name": "Admin Person",
        "email": team.admin.email,
        "role": "manager",
    }
    records_import(workspace=team.workspace, by_role="owner", lines=[json.dumps(line)])
    assert Member.objects.get(pk=team.admin.pk).role == "manager"
    assert api(minted).get("/api/v1/leads").status_code == 401
    [revoked] = AuditEvent.objects.filter(action="token.revoked")
    assert revoked.reason == "Its minter's role no longer mints tokens."


def test_a_deactivated_member_is_reactivated_with_their_role(team, make_member):
    owner = browser(team.owner)
    post(owner, deactivate_url(team, team.closer), {})
    assert not Member.objects.get(pk=team.closer.pk).is_active
    page = owner.get(members_url(team)).content.decode()
    assert f'id="reactivate-{team.closer.pk}"' in page
    answer = post(owner, members_url(team), {"action": "reactivate", "member": str(team.closer.pk)})
    assert answer.status_code == 302
    closer = Member.objects.get(pk=team.closer.pk)
    assert (closer.is_active, closer.role) == (True, "closer")
    assert AuditEvent.objects.filter(action="member.reactivated").count() == 1
    # An admin gives back no owner or admin role: only an owner does.
    post(owner, deactivate_url(team, team.admin), {})
    other_admin = make_member(team.workspace, "admin")
    refused = post(
        browser(other_admin),
        members_url(team),
        {"action": "reactivate", "member": str(team.admin.pk)},
    )
    assert refused.status_code == 400
    assert "Only an owner gives back the owner and admin roles." in refused.content.decode()
    assert not Member.objects.get(pk=team.admin.pk).is_active


def test_who_sees_the_members_page(team, make_workspace, make_member):
    manager = browser(team.manager).get(members_url(team))
    assert manager.status_code == 200
    assert 'id="invite"' not in manager.content.decode()
    assert "deactivate-" not in manager.content.decode()
    assert browser(team.closer).get(members_url(team)).status_code == 403
    stranger = make_member(make_workspace(), "owner")
    assert browser(stranger).get(members_url(team)).status_code == 404
    # A manager cannot deactivate; another workspace's member id is not found.
    assert browser(team.manager).get(deactivate_url(team, team.closer)).status_code == 403
    other = browser(team.owner).get(
        f"/settings/{team.workspace.pk}/members/{stranger.pk}/deactivate/"
    )
    assert other.status_code == 404
    # An admin is refused an owner's deactivation, with the reason.
    refused = post(browser(team.admin), deactivate_url(team, team.owner), {})
    assert refused.status_code == 400
    assert "Only an owner grants or takes away" in refused.content.decode()
    assert Member.objects.get(pk=team.owner.pk).is_active
    assert Member.objects.get(pk=stranger.pk).is_active


def test_workspace_settings_change_the_display_at_once(team, api):
    answer = post(
        browser(team.admin),
        settings_url(team),
        {
            "action": "settings",
            "leaderboard_visible": "on",
            "name": "Northwind Coaching",
            "timezone": "Europe/Berlin",
            "currency": "EUR",
            "working_days": ["0", "1", "2", "3"],
            "logo": "https://cdn.example.test/logo.png",
            "primary_colour": "#1D2340",
            "accent_colour": "",
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    workspace = Workspace.objects.get(pk=team.workspace.pk)
    assert (workspace.name, workspace.timezone, workspace.currency, workspace.working_days) == (
        "Northwind Coaching",
        "Europe/Berlin",
        "EUR",
        [0, 1, 2, 3],
    )
    assert workspace.branding["colours"] == {"primary": "#1d2340"}
    display = api(team.read).get("/api/v1/display").json()
    assert display["name"] == "Northwind Coaching"
    assert display["currency"] == "EUR"
    event = AuditEvent.objects.get(action="workspace.settings_changed")
    assert event.detail == {
        "settings": ["colours", "currency", "logo", "name", "timezone", "working_days"]
    }


def test_settings_refuse_bad_input_beside_the_field(team):
    answer = post(
        browser(team.owner),
        settings_url(team),
        {
            "action": "settings",
            "leaderboard_visible": "on",
            "name": "Northwind",
            "timezone": "Mars/Olympus",
            "currency": "USD",
            "working_days": ["0"],
            "logo": "http://insecure.example.test/logo.png",
            "primary_colour": "blue",
        },
    )
    assert answer.status_code == 400
    html = answer.content.decode()
    # Beside each field, in words, marked for assistive technology.
    assert (
        '<span class="error" id="id_timezone_error"><span class="visually-hidden">Error: '
        "</span>Choose a time zone from the list, or type a city, like Berlin.</span>"
    ) in html
    assert 'aria-invalid="true" aria-describedby="id_timezone_helptext id_timezone_error"' in html
    assert "Pick a colour, or write one like #2f6fed." in html
    assert 'value="Mars/Olympus"' in html
    # Summed up at the top, each linking to its field.
    summary = html[
        html.index('id="error-summary"') : html.index("</div>", html.index('id="error-summary"'))
    ]
    assert "There are 2 problems" in summary
    assert (
        '<a href="#id_timezone">Time zone: Choose a time zone from the list, or type a city, '
        "like Berlin.</a>"
    ) in summary
    assert '<a href="#id_primary_colour">Primary colour: Pick a colour' in summary
    assert Workspace.objects.get(pk=team.workspace.pk).timezone == "UTC"


def test_the_currency_is_locked_once_the_workspace_holds_money(team):
    lead, _ = lead_upsert(
        workspace=team.workspace, external_id="l1", created_at=aware("2026-03-01 10:00")
    )
    sale_upsert(
        workspace=team.workspace,
        external_id="s1",
        lead=lead,
        closed_at=aware("2026-03-02 10:00"),
        contract_value=100000,
    )
    page = browser(team.owner).get(settings_url(team)).content.decode()
    assert "it cannot change" in page
    post(
        browser(team.owner),
        settings_url(team),
        {
            "action": "settings",
            "leaderboard_visible": "on",
            "name": "Northwind",
            "timezone": "UTC",
            "currency": "EUR",
            "working_days": ["0"],
        },
    )
    assert Workspace.objects.get(pk=team.workspace.pk).currency == "USD"


def test_commission_rules_are_entered_as_percentages(team):
    prefix = f"rule-{team.closer.pk}"
    answer = post(
        browser(team.owner),
        settings_url(team),
        {
            "action": "commission",
            "member": str(team.closer.pk),
            f"{prefix}-basis": "cash_collected",
            f"{prefix}-slot": "closer",
            f"{prefix}-percent": "10",
        },
    )
    assert answer.status_code == 302
    rule = CommissionRule.objects.get(member=team.closer)
    assert (rule.basis, rule.slot, rule.rate) == ("cash_collected", "closer", Decimal("0.1000"))
    page = browser(team.owner).get(settings_url(team)).content.decode()
    assert f'name="{prefix}-percent" value="10.0000"' in page or 'value="10.00"' in page
    # Changed, then removed with an empty rate.
    post(
        browser(team.owner),
        settings_url(team),
        {
            "action": "commission",
            "member": str(team.closer.pk),
            f"{prefix}-basis": "revenue_booked",
            f"{prefix}-slot": "closer",
            f"{prefix}-percent": "7.5",
        },
    )
    assert CommissionRule.objects.get(member=team.closer).rate == Decimal("0.0750")
    post(
        browser(team.owner),
        settings_url(team),
        {
            "action": "commission",
            "member": str(team.closer.pk),
            f"{prefix}-basis": "revenue_booked",
            f"{prefix}-slot": "closer",
            f"{prefix}-percent": "",
        },
    )
    assert not CommissionRule.objects.filter(member=team.closer).exists()
    assert list(
        AuditEvent.objects.filter(action__startswith="commission_rule.")
        .values_list("action", flat=True)
        .order_by("at")
    ) == ["commission_rule.set", "commission_rule.set", "commission_rule.removed"]
    too_much = post(
        browser(team.owner),
        settings_url(team),
        {
            "action": "commission",
            "member": str(team.closer.pk),
            f"{prefix}-basis": "cash_collected",
            f"{prefix}-slot": "closer",
            f"{prefix}-percent": "150",
        },
    )
    assert too_much.status_code == 400
    assert "Enter a percentage of 100 or less." in too_much.content.decode()


def test_only_owners_and_admins_open_the_settings(team):
    assert browser(team.manager).get(settings_url(team)).status_code == 403
    assert browser(team.closer).get(settings_url(team)).status_code == 403


def test_labels_modules_and_programmes_show_in_the_display(team, api):
    answer = post(
        browser(team.owner),
        settings_url(team),
        {
            "action": "settings",
            "leaderboard_visible": "on",
            "name": "Northwind Sales",
            "timezone": "UTC",
            "currency": "USD",
            "working_days": ["0", "1", "2", "3", "4"],
            "labels": "calls.booked = Demos booked\ncalls.taken=Demos held",
            "modules": "calls, payments , ",
            "programmes": "Mastermind = 4997\nGroup = 1200.50",
        },
    )
    assert answer.status_code == 302, answer.content.decode()[-3000:]
    branding = Workspace.objects.get(pk=team.workspace.pk).branding
    assert branding["labels"] == {"calls.booked": "Demos booked", "calls.taken": "Demos held"}
    assert branding["modules"] == ["calls", "payments"]
    assert branding["programmes"] == [
        {"name": "Mastermind", "price_minor": 499700},
        {"name": "Group", "price_minor": 120050},
    ]
    display = api(team.read).get("/api/v1/display").json()
    assert display["modules"] == ["calls", "payments"]
    refused = post(
        browser(team.owner),
        settings_url(team),
        {
            "action": "settings",
            "leaderboard_visible": "on",
            "name": "Northwind Sales",
            "timezone": "UTC",
            "currency": "USD",
            "working_days": ["0"],
            "programmes": "Mastermind = 49.999",
        },
    )
    assert refused.status_code == 400
    assert "Mastermind:" in refused.content.decode()


def test_the_locale_is_one_babel_knows(team):
    fields = {
        "action": "settings",
        "leaderboard_visible": "on",
        "name": "Northwind",
        "timezone": "UTC",
        "currency": "USD",
        "working_days": ["0"],
    }
    refused = post(browser(team.owner), settings_url(team), {**fields, "locale": "xx_QQ"})
    assert refused.status_code == 400
    assert "Choose a language and region from the list." in refused.content.decode()
    assert Workspace.objects.get(pk=team.workspace.pk).locale == "en"
    saved = post(browser(team.owner), settings_url(team), {**fields, "locale": "de-DE"})
    assert saved.status_code == 302
    assert Workspace.objects.get(pk=team.workspace.pk).locale == "de_DE"
    event = AuditEvent.objects.filter(action="workspace.settings_changed").latest("pk")
    assert "locale" in event.detail["settings"]


def test_the_settings_offer_time_zones_by_city_with_their_offset(team):
    html = browser(team.owner).get(settings_url(team)).content.decode()
    midnight = datetime.combine(timezone.now().date(), time.min, tzinfo=ZoneInfo("UTC"))
    offset = midnight.astimezone(ZoneInfo("America/New_York")).utcoffset()
    hours = int(offset.total_seconds() // 3600)
    assert hours in (-5, -4)
    assert (
        f'<option value="America/New_York">New York · UTC-0{-hours}:00 · America/New_York</option>'
    ) in html
    assert '<option value="Asia/Kolkata">Kolkata · UTC+05:30 · Asia/Kolkata</option>' in html
    assert 'list="timezone-options"' in html and '<datalist id="timezone-options">' in html
    # A city typed is its zone.
    answer = post(
        browser(team.owner),
        settings_url(team),
        {
            "action": "settings",
            "leaderboard_visible": "on",
            "name": "Northwind",
            "timezone": "new york",
            "currency": "USD",
            "working_days": ["0"],
            "locale": "en",
        },
    )
    assert answer.status_code == 302
    assert Workspace.objects.get(pk=team.workspace.pk).timezone == "America/New_York"


def test_the_settings_offer_locales_with_a_sample_currencies_by_name_and_colour_pickers(team):
    html = browser(team.owner).get(settings_url(team)).content.decode()
    assert '<option value="de">German — 1.234,50\xa0$ · 28.11.2026</option>' in html
    assert (
        '<option value="en_GB">English (United Kingdom) — US$1,234.50 · 28 Nov 2026</option>'
    ) in html
    assert '<option value="USD" selected>US Dollar (USD)</option>' in html
    assert '<option value="JPY">Japanese Yen (JPY)</option>' in html
    assert 'type="color" name="primary_colour" value="#1d2330"' in html
    # The picker's colour left as it is sets no colour; one picked is kept.
    answer = post(
        browser(team.owner),
        settings_url(team),
        {
            "action": "settings",
            "leaderboard_visible": "on",
            "name": "Northwind",
            "timezone": "UTC",
            "currency": "USD",
            "working_days": ["0"],
            "locale": "de",
            "primary_colour": "#1d2330",
            "accent_colour": "#FF0000",
        },
    )
    assert answer.status_code == 302
    workspace = Workspace.objects.get(pk=team.workspace.pk)
    assert workspace.branding["colours"] == {"accent": "#ff0000"}
    assert workspace.locale == "de"
