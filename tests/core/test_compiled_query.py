"""core.compiled.CompiledQuery: a query compiled once per thread, alias and shape answers
what its queryset answers, with each call's values in place of its parameters."""

import threading
import uuid
from datetime import date, datetime, timedelta

import pytest
from django.db import connection
from django.db.models import (
    CharField,
    Count,
    DateField,
    DateTimeField,
    IntegerField,
    JSONField,
    Sum,
    UUIDField,
)
from django.db.models.functions import Coalesce
from django.test.utils import CaptureQueriesContext

from core.compiled import Aggregate, CompiledQuery, Param
from tests.conftest import aware
from workspaces.models import Lead, Member

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def compiled_on(settings):
    """These tests are about the compiled statements themselves: on, whatever the
    environment says (the tests that turn them off say so)."""
    settings.COMPILED_QUERIES = True


builds = []


def _leads(*, workspace, name=None, since=None, setter=None, shape="rows"):
    builds.append(shape)
    leads = Lead.objects.filter(workspace=workspace)
    if name is not None:
        leads = leads.filter(name=name)
    if since is not None:
        leads = leads.filter(created_at__gte=since)
    leads = leads.filter(setter=setter)
    if shape == "count":
        return Aggregate(leads, n=Count("pk"), value=Coalesce(Sum("cash_collected"), 0))
    if shape == "values":
        return leads.order_by("created_at", "pk").values("name", "created_at", "setter")
    if shape == "flat":
        return leads.order_by("created_at", "pk").values_list("name", flat=True)
    return leads.select_related("setter").order_by("created_at", "pk")


leads = CompiledQuery(
    _leads,
    params={
        "workspace": UUIDField(),
        "name": CharField(),
        "since": DateTimeField(),
        "setter": UUIDField(),
    },
    model=Lead,
)


def plain(built):
    if isinstance(built, Aggregate):
        return built.queryset.aggregate(**built.aggregates)
    return list(built)


def normal(value):
    """A result as comparable data: model instances as their fields, their
    select_related objects included."""
    if isinstance(value, list):
        return [normal(item) for item in value]
    if hasattr(value, "_state"):
        return (
            type(value),
            {name: field for name, field in vars(value).items() if name != "_state"},
            {name: normal(cached) for name, cached in value._state.fields_cache.items()},
            value._state.db,
            value._state.adding,
        )
    return value


def same_as_the_queryset(**arguments):
    """The compiled query's answer, checked against the queryset's."""
    found = leads(**arguments)
    real = {
        name: (value.pk if hasattr(value, "pk") else value) for name, value in arguments.items()
    }
    expected = plain(_leads(**real))
    assert normal(found) == normal(expected)
    return found


@pytest.fixture
def team(make_workspace, make_member):
    ws = make_workspace()
    other = make_workspace()
    setter = make_member(ws, "setter", name="Sam")
    start = aware("2026-03-01 10:00")
    for n, name in enumerate(["Ann", "Bob", "<parameter name>", "Ann", ""]):
        Lead.objects.create(
            workspace=ws,
            name=name,
            created_at=start + timedelta(days=n),
            setter=setter if n % 2 else None,
            cash_collected=1000 * n,
        )
    Lead.objects.create(workspace=other, name="Ann", created_at=start)
    return ws, setter


@pytest.mark.parametrize("shape", ["rows", "values", "flat", "count"])
def test_every_kind_of_answer_is_the_querysets(team, shape):
    ws, setter = team
    for since in (None, aware("2026-03-02 10:00"), aware("2030-01-01 00:00")):
        for name in (None, "Ann", "Zed"):
            for member in (None, setter):
                same_as_the_queryset(
                    workspace=ws.pk, name=name, since=since, setter=pk(member), shape=shape
                )


def pk(record):
    return None if record is None else record.pk


def test_a_value_like_the_marker_is_a_value(team):
    ws, _ = team
    # The marker is an object of its own, never text: text like it is just text.
    found = same_as_the_queryset(workspace=ws.pk, name="<parameter name>", shape="flat")
    assert found == ["<parameter name>"]
    found = same_as_the_queryset(workspace=ws.pk, name="Ann", shape="flat")
    assert found == ["Ann"]


def test_none_is_a_shape_of_its_own(team):
    ws, setter = team
    builds.clear()
    without = same_as_the_queryset(workspace=ws.pk, shape="flat")
    with_setter = same_as_the_queryset(workspace=ws.pk, setter=setter.pk, shape="flat")
    again = same_as_the_queryset(workspace=ws.pk, shape="flat")
    assert without == again == ["Ann", "<parameter name>", ""]
    assert with_setter == ["Bob", "Ann"]
    # setter=None compiled as IS NULL once, and a setter as a parameter once.
    assert builds.count("flat") == 2 + 3  # + the plain querysets of the three checks
    with CaptureQueriesContext(connection) as queries:
        leads(workspace=ws.pk, shape="flat")
        leads(workspace=ws.pk, setter=setter.pk, shape="flat")
    assert "IS NULL" in queries[0]["sql"]
    assert "IS NULL" not in queries[1]["sql"]


def test_values_of_another_type_are_refused(team):
    ws, setter = team
    with pytest.raises(TypeError, match="workspace takes a UUID"):
        leads(workspace=str(ws.pk), shape="flat")
    with pytest.raises(TypeError, match="setter takes a UUID"):
        leads(workspace=ws.pk, setter=setter, shape="flat")
    with pytest.raises(TypeError, match="since takes a datetime"):
        leads(workspace=ws.pk, since=date(2026, 3, 1), shape="flat")
    with pytest.raises(TypeError, match="name takes a str"):
        leads(workspace=ws.pk, name=1, shape="flat")


def test_parameter_kinds_and_their_types():
    days = CompiledQuery(
        lambda *, day, count: Member.objects.filter(joined_at=day, pk__gte=count),
        params={"day": DateField(), "count": IntegerField()},
        model=Member,
    )
    with pytest.raises(TypeError, match="day takes a date"):
        days(day=datetime(2026, 3, 1), count=1)  # a datetime is not a date
    with pytest.raises(TypeError, match="count takes a int"):
        days(day=date(2026, 3, 1), count=True)
    with pytest.raises(TypeError, match="No parameter"):
        CompiledQuery(lambda: None, params={"x": JSONField()}, model=Member)


def test_one_statement_per_thread_and_shape_run_through_the_cursor(team):
    ws, setter = team
    leads.local.__dict__.clear()
    builds.clear()
    for _ in range(3):
        leads(workspace=ws.pk, setter=setter.pk, shape="count")
    assert builds == ["count"]
    with CaptureQueriesContext(connection) as queries:
        answer = leads(workspace=ws.pk, setter=setter.pk, shape="count")
    assert answer == {"n": 2, "value": 4000}
    assert len(queries) == 1
    assert str(ws.pk.hex) in queries[0]["sql"].replace("-", "")

    def other_thread():
        # A thread compiles its own statement (and has its own connection).
        try:
            leads(workspace=ws.pk, shape="count")
        finally:
            connection.close()

    if connection.vendor == "sqlite":
        return  # the test database in memory is not shared with other threads
    thread = threading.Thread(target=other_thread)
    thread.start()
    thread.join()
    assert builds == ["count", "count"]


def test_an_empty_aggregate_is_the_querysets(team):
    found = same_as_the_queryset(workspace=uuid.uuid4(), shape="count")
    assert found == {"n": 0, "value": 0}


def test_a_parameter_compiles_to_one_placeholder():
    param = Param("x", UUIDField())
    assert repr(param) == "Param('x')"
    assert param.as_sql(None, connection) == ("%s", [param.marker])
    assert repr(param.marker) == "<parameter x>"


def test_a_thread_keeps_a_bounded_number_of_statements(team, settings):
    """Shapes that take many values (each a statement) keep at most COMPILED_STATEMENTS_MAX
    of them a thread, the least recently used going first."""
    ws, setter = team
    settings.COMPILED_STATEMENTS_MAX = 2
    leads.local.__dict__.clear()
    builds.clear()
    for shape in ("count", "values", "count", "flat"):
        leads(workspace=ws.pk, setter=setter.pk, shape=shape)
    kept = [dict(key)["shape"] for _alias, key in leads.local.statements]
    assert kept == ["count", "flat"]
    leads(workspace=ws.pk, setter=setter.pk, shape="values")
    assert builds == ["count", "values", "flat", "values"]


def test_turned_off_it_runs_the_plain_queryset(team, settings):
    """COMPILED_QUERIES off: the same answers, from the queryset itself, nothing kept."""
    ws, setter = team
    compiled = {
        shape: leads(workspace=ws.pk, setter=setter.pk, shape=shape)
        for shape in ("count", "values", "flat", "rows")
    }
    settings.COMPILED_QUERIES = False
    leads.local.__dict__.clear()
    plain_answers = {
        shape: leads(workspace=ws.pk, setter=setter.pk, shape=shape)
        for shape in ("count", "values", "flat", "rows")
    }
    assert plain_answers["count"] == compiled["count"] == {"n": 2, "value": 4000}
    assert plain_answers["values"] == compiled["values"]
    assert plain_answers["flat"] == compiled["flat"]
    assert [lead.pk for lead in plain_answers["rows"]] == [lead.pk for lead in compiled["rows"]]
    assert "statements" not in leads.local.__dict__
