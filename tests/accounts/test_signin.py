"""Sign-in lockout (docs/auth.md, "Sign-in lockout") on every sign-in form, and equal cost for an
unknown email."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import MD5PasswordHasher
from django.db.models import F

from .conftest import PASSWORD, browser_client, hidden_fields

pytestmark = pytest.mark.django_db

LOCKED = (
    "Too many failed sign-ins for this account or from this address: signing in is locked "
    "for 15 minutes. Wait 15 minutes, then try again."
)
WRONG = "That email and password do not match an account."


@pytest.fixture
def person(db):
    return get_user_model().objects.create_user(
        username="ann-3f2a", email="ann@northwind.test", password=PASSWORD
    )


def attempt(client, email, password, *, address="10.0.0.1", path="/accounts/login/"):
    page = client.get(path, REMOTE_ADDR=address)
    assert page.status_code == 200
    token = hidden_fields(page.content.decode())["csrfmiddlewaretoken"]
    return client.post(
        path,
        {"csrfmiddlewaretoken": token, "username": email, "password": password},
        REMOTE_ADDR=address,
    )


def fail(times, email, *, address="10.0.0.1", path="/accounts/login/"):
    for _ in range(times):
        attempt(browser_client(), email, "wrong-password", address=address, path=path)


def signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_ten_failures_lock_the_account_even_for_the_right_password(person):
    client = browser_client()
    for n in range(9):
        response = attempt(client, person.email, "wrong-password")
        assert response.status_code == 200, n
        assert WRONG in response.content.decode()
    tenth = attempt(client, person.email, "wrong-password")
    assert tenth.status_code == 429
    assert LOCKED in tenth.content.decode()

    right = attempt(client, person.email, PASSWORD)
    assert right.status_code == 429
    assert LOCKED in right.content.decode()
    assert not signed_in(client)


def test_nine_failures_still_let_the_right_password_in(person):
    fail(9, person.email)
    client = browser_client()
    response = attempt(client, person.email, PASSWORD)
    assert response.status_code == 302
    assert signed_in(client)


def test_the_lock_ends_after_fifteen_minutes(person):
    fail(10, person.email)
    client = browser_client()
    assert attempt(client, person.email, PASSWORD).status_code == 429

    # Fourteen minutes later it still holds.
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=14))
    assert attempt(client, person.email, PASSWORD).status_code == 429
    # Past fifteen minutes the right password signs in.
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=2))
    response = attempt(client, person.email, PASSWORD)
    assert response.status_code == 302
    assert signed_in(client)


def test_attempts_while_locked_do_not_extend_the_lock(person):
    fail(10, person.email)
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=10))
    fail(5, person.email)
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=6))
    client = browser_client()
    assert attempt(client, person.email, PASSWORD).status_code == 302


def test_the_account_count_ignores_case_spaces_and_the_address(person):
    for n in range(10):
        email = "  ANN@Northwind.test " if n % 2 else "ann@northwind.TEST"
        attempt(browser_client(), email, "wrong-password", address=f"10.0.1.{n}")
    client = browser_client()
    response = attempt(client, person.email, PASSWORD, address="10.0.2.1")
    assert response.status_code == 429
    assert LOCKED in response.content.decode()
    assert not signed_in(client)


def test_one_address_is_locked_across_different_emails(person):
    for n in range(10):
        attempt(browser_client(), f"guess{n}@northwind.test", "wrong-password", address="10.0.3.3")
    client = browser_client()
    response = attempt(client, person.email, PASSWORD, address="10.0.3.3")
    assert response.status_code == 429
    assert LOCKED in response.content.decode()
    assert not signed_in(client)

    # The account itself is not locked: from another address it signs in.
    elsewhere = browser_client()
    assert attempt(elsewhere, person.email, PASSWORD, address="10.0.4.4").status_code == 302
    assert signed_in(elsewhere)


def test_behind_a_proxy_the_forwarded_address_is_counted(person, settings):
    settings.NUM_PROXIES = 1
    for n in range(10):
        page = browser_client()
        token = hidden_fields(page.get("/accounts/login/").content.decode())["csrfmiddlewaretoken"]
        page.post(
            "/accounts/login/",
            {"csrfmiddlewaretoken": token, "username": f"g{n}@x.test", "password": "wrong"},
            REMOTE_ADDR="10.9.9.9",
            HTTP_X_FORWARDED_FOR="203.0.113.7",
        )
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"203.0.113.7"}
    # Another client behind the same proxy is not locked out.
    client = browser_client()
    token = hidden_fields(client.get("/accounts/login/").content.decode())["csrfmiddlewaretoken"]
    response = client.post(
        "/accounts/login/",
        {"csrfmiddlewaretoken": token, "username": person.email, "password": PASSWORD},
        REMOTE_ADDR="10.9.9.9",
        HTTP_X_FORWARDED_FOR="198.51.100.2",
    )
    assert response.status_code == 302


def test_the_admin_sign_in_is_locked_too(db):
    staff = get_user_model().objects.create_user(
        username="root", email="root@example.test", password=PASSWORD, is_staff=True
    )
    fail(10, "root", path="/admin/login/")
    client = browser_client()
    response = attempt(client, "root", PASSWORD, path="/admin/login/")
    assert response.status_code == 429
    assert LOCKED in response.content.decode()
    assert not signed_in(client)
    assert '<a href="/admin/login/" id="back-to-sign-in">' in response.content.decode()
    assert AccessAttempt.objects.get().path_info == "/admin/login/"
    assert staff.is_staff


def test_the_oauth_flow_signs_in_through_the_locked_form(person):
    fail(10, person.email)
    client = browser_client()
    next_url = "/o/authorize/?client_id=x&response_type=code"
    page = client.get("/accounts/login/", {"next": next_url}, REMOTE_ADDR="10.0.0.1")
    fields = hidden_fields(page.content.decode())
    response = client.post(
        "/accounts/login/",
        {**fields, "username": person.email, "password": PASSWORD},
        REMOTE_ADDR="10.0.0.1",
    )
    assert response.status_code == 429
    assert LOCKED in response.content.decode()


def test_a_refused_sign_in_counts_once(person):
    attempt(browser_client(), person.email, "wrong-password")
    attempt(browser_client(), "nobody@northwind.test", "wrong-password")
    assert sorted(AccessAttempt.objects.values_list("username", "failures_since_start")) == [
        ("ann@northwind.test", 1),
        ("nobody@northwind.test", 1),
    ]


class CountingHasher(MD5PasswordHasher):
    """Counts how many times a password is hashed (to check or to set)."""

    algorithm = "counting_md5"
    calls = 0

    def encode(self, password, salt):
        CountingHasher.calls += 1
        return super().encode(password, salt)


@pytest.fixture
def counting_hasher(settings):
    settings.PASSWORD_HASHERS = ["tests.accounts.test_signin.CountingHasher"]
    CountingHasher.calls = 0
    return CountingHasher


@pytest.mark.parametrize(
    "identifier",
    ["nobody@northwind.test", "ann@northwind.test", "ANN@northwind.test", "ann-3f2a"],
)
def test_an_unknown_email_runs_the_hasher_as_often_as_a_known_one(
    identifier, counting_hasher, person
):
    person.set_password(PASSWORD)
    person.save()
    counting_hasher.calls = 0
    response = attempt(browser_client(), identifier, "wrong-password")
    assert response.status_code == 200
    assert WRONG in response.content.decode()
    assert counting_hasher.calls == 1


def test_signing_in_by_email_runs_the_hasher_once(counting_hasher, person):
    person.set_password(PASSWORD)
    person.save()
    counting_hasher.calls = 0
    client = browser_client()
    assert attempt(client, "Ann@Northwind.test", PASSWORD).status_code == 302
    assert signed_in(client)
    assert counting_hasher.calls == 1


LOOK_ALIKES = [
    # A long s (U+017F), which PostgreSQL's upper() folds to S, and case folding to s.
    ("setter@northwind.test", "\u017fetter@northwind.test"),
    # Fullwidth letters, one address in Unicode's compatibility form.
    ("ann@northwind.test", "\uff41nn@northwind.test"),
]


def test_a_dotless_i_is_another_address_and_never_signs_in_to_the_account(db):
    """upper() folds a dotless i (U+0131) to I, case folding does not: it is another
    address everywhere, so it reaches no account, whatever the password."""
    get_user_model().objects.create_user(
        username="admin-1", email="admin@northwind.test", password=PASSWORD
    )
    fail(10, "admin@northwind.test", address="10.0.6.1")
    client = browser_client()
    response = attempt(client, "adm\u0131n@northwind.test", PASSWORD, address="10.0.6.2")
    assert response.status_code == 200
    assert WRONG in response.content.decode()
    assert not signed_in(client)


@pytest.mark.parametrize(("real", "look_alike"), LOOK_ALIKES)
def test_a_look_alike_spelling_is_locked_with_the_account(db, real, look_alike):
    get_user_model().objects.create_user(username=real, email=real, password=PASSWORD)
    fail(10, real, address="10.0.7.1")
    client = browser_client()
    response = attempt(client, look_alike, PASSWORD, address="10.0.7.2")
    assert response.status_code == 429
    assert LOCKED in response.content.decode()
    assert not signed_in(client)


@pytest.mark.parametrize(("real", "look_alike"), LOOK_ALIKES)
def test_failures_under_a_look_alike_count_for_the_account(db, real, look_alike):
    get_user_model().objects.create_user(username=real, email=real, password=PASSWORD)
    fail(10, look_alike, address="10.0.8.1")
    response = attempt(browser_client(), real, PASSWORD, address="10.0.8.2")
    assert response.status_code == 429


def test_a_look_alike_never_reaches_another_account(db):
    """The long s is one address with s: it signs in to that one account, never to another
    whose stored email only a database's case rules would match."""
    setter = get_user_model().objects.create_user(
        username="setter-1", email="setter@northwind.test", password=PASSWORD
    )
    client = browser_client()
    response = attempt(client, "\u017fetter@northwind.test", PASSWORD, address="10.0.9.1")
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(setter.pk)
    assert get_user_model().objects.get(pk=setter.pk).email == "setter@northwind.test"


def test_an_account_email_is_kept_in_one_form(db):
    user = get_user_model().objects.create_user(
        username="ann-x", email="  \uff21nn@Northwind.TEST ", password=PASSWORD
    )
    user.refresh_from_db()
    assert user.email == "ann@northwind.test"


def test_a_256_character_username_is_counted_not_a_server_error(db):
    long_name = "a" * 256
    response = attempt(browser_client(), long_name, "wrong-password", path="/admin/login/")
    assert response.status_code == 200
    assert AccessAttempt.objects.get().username == long_name[:255]
