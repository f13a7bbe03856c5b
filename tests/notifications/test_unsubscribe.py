"""One-click unsubscribe (RFC 8058): the mail's link, signed for its member and kind, stops
that kind for that member; a changed link is refused; the account page's choices."""

from django.core import mail
from django.test import Client

from audit.models import AuditEvent
from notifications.models import Kind, OptOut
from notifications.rounds import round_run
from notifications.services import kinds_received
from tests.conftest import aware


def digest_link(team, django_capture_on_commit_callbacks) -> str:
    with django_capture_on_commit_callbacks(execute=True):
        round_run(now=aware("2026-03-10 12:05"), every=True, inline=True)
    owner = next(m for m in mail.outbox if m.to == ["owner@northwind.test"])
    return owner.extra_headers["List-Unsubscribe"].strip("<>")


def test_the_one_click_post_stops_that_kind_for_that_member(
    team, django_capture_on_commit_callbacks
):
    link = digest_link(team, django_capture_on_commit_callbacks)
    path = link.removeprefix("http://127.0.0.1:8000")
    # A link scanner's GET changes nothing.
    assert Client().get(path).status_code == 200
    assert not OptOut.objects.exists()
    # The mail client's POST, with no session and no CSRF token.
    done = Client(enforce_csrf_checks=True).post(path, {"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200
    assert done.text == "Unsubscribed from the Daily digest."
    assert kinds_received(team.owner) == set(Kind.values) - {Kind.DAILY_DIGEST}
    assert kinds_received(team.manager) == set(Kind.values)
    event = AuditEvent.objects.get(action="notifications.unsubscribed")
    assert (event.actor_kind, event.target_id) == ("unsubscribe_link", str(team.owner.pk))
    # The next digest does not go to them.
    mail.outbox = []
    with django_capture_on_commit_callbacks(execute=True):
        round_run(now=aware("2026-03-11 12:05"), every=True, inline=True)
    assert "owner@northwind.test" not in [a for m in mail.outbox for a in m.to]
    assert len(mail.outbox) == 3


def test_a_tampered_link_is_refused(team, django_capture_on_commit_callbacks):
    link = digest_link(team, django_capture_on_commit_callbacks)
    path = link.removeprefix("http://127.0.0.1:8000")
    token = path.removeprefix("/unsubscribe/")
    body, stamp, signature = token.split(":")
    # The signature's first character changed to another, whatever it was: a signature
    # that happened to end in the replacement would otherwise stay whole.
    changed = "B" if signature[0] == "A" else "A"
    forged = f"/unsubscribe/{body}:{stamp}:{changed}{signature[1:]}"
    assert forged != path
    refused = Client().post(forged, {"List-Unsubscribe": "One-Click"})
    assert refused.status_code == 400
    assert "This link does not work" in refused.text
    assert not OptOut.objects.exists()


def test_a_member_chooses_on_their_account_page(team):
    client = Client()
    client.force_login(team.closer.user)
    account = client.get("/accounts/")
    assert 'id="notification-choices"' in account.text
    assert f'id="kind-{team.workspace.pk}-daily_digest" checked' in account.text
    saved = client.post(
        "/accounts/notifications/",
        {"workspace": str(team.workspace.pk), "kinds": ["speed_to_lead", "eod_reminder"]},
        follow=True,
    )
    assert saved.redirect_chain == [("/accounts/", 302)]
    assert kinds_received(team.closer) == {"speed_to_lead", "eod_reminder"}
    assert f'id="kind-{team.workspace.pk}-daily_digest">' in saved.text
    # Another workspace's membership cannot be chosen for.
    other = Client()
    other.force_login(team.owner.user)
    other.post("/accounts/notifications/", {"workspace": str(team.workspace.pk), "kinds": []})
    assert kinds_received(team.closer) == {"speed_to_lead", "eod_reminder"}
