"""Forgotten password: the same answer for a known and an unknown email, a one-use link
mailed after the request, and the sign-in lockout's limits on the requests."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.tasks import password_reset_send
from audit.models import AuditEvent
from workspaces.models import Member

from .conftest import PASSWORD, browser_client, hidden_fields, sign_in
from .test_signin import LOCKED, fail

pytestmark = pytest.mark.django_db(transaction=True)

LINK = re.compile(r"http://testserver(/accounts/reset/[^\s\"<]+/)")


@pytest.fixture(autouse=True)
def _fresh(settings):
    settings.BASE_URL = "http://testserver"
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def person():
    return get_user_model().objects.create_user(
        username="ann-3f2a", email="ann@northwind.test", password=PASSWORD
    )


def ask(client, email, address="10.0.0.1"):
    page = client.get("/accounts/password-reset/", REMOTE_ADDR=address)
    token = hidden_fields(page.content.decode())["csrfmiddlewaretoken"]
    return client.post(
        "/accounts/password-reset/",
        {"csrfmiddlewaretoken": token, "email": email},
        REMOTE_ADDR=address,
    )


def test_the_sign_in_page_links_to_the_reset():
    page = browser_client().get("/accounts/login/").content.decode()
    assert 'href="/accounts/password-reset/" id="forgot-password"' in page


def test_a_known_and_an_unknown_email_get_the_same_answer(person, mailoutbox):
    known = ask(browser_client(), "Ann@Northwind.test")
    unknown = ask(browser_client(), "nobody@northwind.test", address="10.0.0.2")
    assert (known.status_code, known["Location"]) == (302, "/accounts/password-reset/sent/")
    assert (unknown.status_code, unknown["Location"]) == (302, "/accounts/password-reset/sent/")
    assert [message.to for message in mailoutbox] == [["ann@northwind.test"]]
    assert mailoutbox[0].subject == "Reset your Sales Figures password"


def test_the_link_sets_a_new_password_once(person, mailoutbox):
    ask(browser_client(), "ann@northwind.test")
    link = LINK.search(mailoutbox[0].body).group(1)
    client = browser_client()
    # Django's view moves the token out of the address before showing the form.
    opened = client.get(link)
    assert opened.status_code == 302
    form_url = opened["Location"]
    assert form_url.endswith("/set-password/")
    form = client.get(form_url)
    token = hidden_fields(form.content.decode())["csrfmiddlewaretoken"]
    weak = client.post(
        form_url,
        {"csrfmiddlewaretoken": token, "new_password1": "password", "new_password2": "password"},
    )
    assert "This password is too common." in weak.content.decode()
    saved = client.post(
        form_url,
        {
            "csrfmiddlewaretoken": token,
            "new_password1": "lantern-orchard-42",
            "new_password2": "lantern-orchard-42",
        },
    )
    assert (saved.status_code, saved["Location"]) == (302, "/accounts/reset/done/")
    person.refresh_from_db()
    assert person.check_password("lantern-orchard-42")
    # Used: the same link opens no form any more.
    again = browser_client().get(link, follow=True)
    assert "This link no longer works" in again.content.decode()


def test_requests_are_limited_like_sign_ins(person, mailoutbox):
    for number in range(10):
        assert (
            ask(browser_client(), "ann@northwind.test", address=f"10.0.1.{number}").status_code
            == 302
        )
    refused = ask(browser_client(), "ann@northwind.test", address="10.0.2.1")
    assert refused.status_code == 429
    assert LOCKED in refused.content.decode()
    assert len(mailoutbox) == 10


def test_an_account_locked_out_of_signing_in_gets_no_reset(person, mailoutbox):
    fail(10, "ann@northwind.test", address="10.0.3.1")
    refused = ask(browser_client(), "ann@northwind.test", address="10.0.3.2")
    assert refused.status_code == 429
    assert mailoutbox == []


def _reset(person, mailoutbox, new_password="lantern-orchard-42"):
    ask(browser_client(), person.email)
    link = LINK.search(mailoutbox[-1].body).group(1)
    client = browser_client()
    form_url = client.get(link)["Location"]
    token = hidden_fields(client.get(form_url).content.decode())["csrfmiddlewaretoken"]
    saved = client.post(
        form_url,
        {
            "csrfmiddlewaretoken": token,
            "new_password1": new_password,
            "new_password2": new_password,
        },
    )
    assert saved.status_code == 302


def test_a_reset_ends_every_session_of_the_account(
    person, mailoutbox, make_workspace, session_token, api
):
    """Browsers signed in before, and the OAuth tokens of every workspace's apps, stop
    working once the password is reset; each workspace's log says so."""
    workspaces = [make_workspace(name="North"), make_workspace(name="South")]
    members = [
        Member.objects.create(
            workspace=ws, user=person, name="Ann", email=person.email, role="closer"
        )
        for ws in workspaces
    ]
    tokens = [session_token(member) for member in members]
    for token in tokens:
        assert api(token).get("/api/v1/me/board").status_code == 200
    signed_in = browser_client()
    assert sign_in(signed_in, person.email).status_code == 302
    assert signed_in.get("/accounts/").status_code == 200

    _reset(person, mailoutbox)

    for token in tokens:
        assert api(token).get("/api/v1/me/board").status_code == 401
    assert signed_in.get("/accounts/")["Location"].startswith("/accounts/login/")
    revoked = AuditEvent.objects.filter(action="session_token.revoked")
    assert sorted(str(event.workspace_id) for event in revoked) == sorted(
        str(ws.pk) for ws in workspaces
    )
    [ended] = AuditEvent.objects.filter(action="sessions.ended")
    assert (ended.target_id, ended.reason, ended.detail) == (
        str(person.pk),
        "Password reset.",
        {"tokens": 2},
    )


def test_sign_out_everywhere_ends_the_other_browsers_and_every_app_session(
    person, make_workspace, session_token, api
):
    member = Member.objects.create(
        workspace=make_workspace(), user=person, name="Ann", email=person.email, role="closer"
    )
    token = session_token(member)
    elsewhere, here = browser_client(), browser_client()
    sign_in(elsewhere, person.email)
    sign_in(here, person.email)
    page = here.get("/accounts/")
    fields = hidden_fields(page.content.decode(), "sign-out-everywhere")
    wrong = here.post("/accounts/", {**fields, "password": "not-it"})
    assert wrong.status_code == 400
    assert "That is not your password." in wrong.content.decode()
    assert api(token).get("/api/v1/me/board").status_code == 200

    done = here.post("/accounts/", {**fields, "password": PASSWORD})
    assert (done.status_code, done["Location"]) == (302, "/accounts/")
    assert "every other browser and 1 app session ended" in here.get("/accounts/").content.decode()
    assert api(token).get("/api/v1/me/board").status_code == 401
    assert elsewhere.get("/accounts/")["Location"].startswith("/accounts/login/")
    person.refresh_from_db()
    assert person.check_password(PASSWORD)


def test_the_request_does_the_same_work_for_a_known_and_an_unknown_email(
    person, mailoutbox, monkeypatch
):
    """The look-up, the token and the mail are the worker's: the request only queues the
    address, so a known email costs what an unknown one does (the same statements)."""
    queued = []
    monkeypatch.setattr(password_reset_send, "delay", queued.append)
    statements = {}
    for email in ("ann@northwind.test", "nobody@northwind.test"):
        client = browser_client()
        page = client.get("/accounts/password-reset/", REMOTE_ADDR="10.0.0.9")
        token = hidden_fields(page.content.decode())["csrfmiddlewaretoken"]
        with CaptureQueriesContext(connection) as captured:
            answer = client.post(
                "/accounts/password-reset/",
                {"csrfmiddlewaretoken": token, "email": email},
                REMOTE_ADDR="10.0.0.9",
            )
        assert (answer.status_code, answer["Location"]) == (302, "/accounts/password-reset/sent/")
        # The statements with their values left out (the email, the time).
        statements[email] = [
            re.sub(r"'[^']*'|%s|\?", "?", query["sql"]) for query in captured.captured_queries
        ]
    assert statements["ann@northwind.test"] == statements["nobody@northwind.test"]
    assert not any("auth_user" in sql for sql in statements["ann@northwind.test"])
    assert queued == ["ann@northwind.test", "nobody@northwind.test"]
    assert mailoutbox == []
    # The worker's part mails the known address only.
    for email in queued:
        password_reset_send(email)
    assert [message.to for message in mailoutbox] == [["ann@northwind.test"]]
    assert LINK.search(mailoutbox[0].body)
