"""core.compiled: a lookup compiled once gives what the queryset's .first() gives."""

import threading

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.compiled import CompiledLookup
from tokens.models import ApiToken, token_digest


@pytest.fixture(autouse=True)
def compiled_on(settings):
    """These tests are about the compiled statements themselves: on, whatever the
    environment says (the tests that turn them off say so)."""
    settings.COMPILED_QUERIES = True


by_digest = CompiledLookup(
    ApiToken,
    lambda digest: ApiToken.objects.select_related("workspace", "agency").filter(digest=digest),
)


def fields(instance) -> dict:
    return {name: value for name, value in vars(instance).items() if name != "_state"}


def same_as_the_queryset(raw: str) -> ApiToken:
    digest = token_digest(raw)
    expected = ApiToken.objects.select_related("workspace", "agency").filter(digest=digest).first()
    with CaptureQueriesContext(connection) as compiled_queries:
        found = by_digest.first(digest)
    with CaptureQueriesContext(connection) as orm_queries:
        ApiToken.objects.select_related("workspace", "agency").filter(digest=digest).first()
    # The same statement, through the same cursor.
    assert [q["sql"] for q in compiled_queries] == [q["sql"] for q in orm_queries]
    assert fields(found) == fields(expected)
    assert found._state.db == expected._state.db and not found._state.adding
    assert found._state.fields_cache.keys() == expected._state.fields_cache.keys()
    for name in ("workspace", "agency"):
        ours, theirs = getattr(found, name), getattr(expected, name)
        assert (ours is None) == (theirs is None)
        if ours is not None:
            assert fields(ours) == fields(theirs)
    return found


def test_a_workspace_token_with_its_workspace(make_workspace, workspace_token):
    workspace = make_workspace()
    found = same_as_the_queryset(workspace_token(workspace, scopes=("read", "data:write")))
    assert found.workspace == workspace and found.agency is None
    assert found.scopes == ["read", "data:write"]
    # The related objects came with the row: no further query.
    with CaptureQueriesContext(connection) as queries:
        assert found.workspace.name == workspace.name
    assert len(queries) == 0


def test_an_agency_token_with_its_agency(make_agency, agency_token):
    agency = make_agency()
    found = same_as_the_queryset(agency_token(agency))
    assert found.agency == agency and found.workspace is None


def test_no_row(db):
    assert by_digest.first(token_digest("svc_" + "0" * 64)) is None


def test_each_thread_compiles_its_own(db):
    # A thread has its own connection (and compiles the lookup for it).
    by_digest.first(token_digest("svc_" + "1" * 64))
    found, errors = [], []

    def look_up():
        try:
            found.append(by_digest.first(token_digest("svc_" + "2" * 64)))
        except Exception as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=look_up)
    thread.start()
    thread.join()
    assert not errors and found == [None]
    assert len(by_digest.local.__dict__.get("by_alias", {})) == 1


def test_turned_off_it_runs_the_querysets_first(make_workspace, workspace_token, settings):
    settings.COMPILED_QUERIES = False
    workspace = make_workspace()
    found = same_as_the_queryset(workspace_token(workspace))
    assert found.workspace == workspace
    assert by_digest.first(token_digest("svc_" + "1" * 64)) is None
