"""Queries compiled to SQL once instead of on every request.

Building a queryset and compiling it to SQL costs more than running an indexed lookup
of one row (the API token of every request: about 0.4 ms of Python against 0.1 ms in
PostgreSQL). `CompiledLookup` compiles the queryset once per thread and database alias,
with a marker in place of the looked-up value, and then runs the same SQL with the value
in its place: the same statement, through the same cursor (its execute wrappers, the
request's query count and the connection's health check included), and the same model
instances, `select_related` objects included, as the queryset would give.

The instances are built as Django's own iterable builds them (`ModelIterable`), from the
compiler's description of the columns; tests/core/test_compiled_lookup.py compares the two.

`CompiledQuery` is the general form, for the figures' queries: any queryset or aggregate,
with named parameters and a statement per shape (tests/core/test_compiled_query.py).

Both lean on how Django's compiler works inside (its `as_sql`, `get_converters` and
`execute_sql`), which a Django upgrade may change. The setting `COMPILED_QUERIES` (on by
default; `off` in the environment) turns them into the plain querysets they stand for,
answering the same: an operator's way out, and how CI runs the figures tests a second
time. Each thread keeps at most `COMPILED_STATEMENTS_MAX` statements per query (the least
recently used go first), so shapes that take many values cannot grow it without bound.
"""

import datetime
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable

from django.conf import settings
from django.db import connections, models, router
from django.db.models import Expression, Field, Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.models.sql.constants import SINGLE

# Stands for the looked-up value while the queryset is compiled.
_MARKER = "\x1fcompiled-lookup-value\x1f"


def compiled_enabled() -> bool:
    """Whether compiled statements run (else the plain querysets they stand for)."""
    return getattr(settings, "COMPILED_QUERIES", True)


def _statements_max() -> int:
    return getattr(settings, "COMPILED_STATEMENTS_MAX", 64)


class _Compiled:
    def __init__(self, queryset: QuerySet, alias: str):
        compiler = queryset.query.get_compiler(using=alias)
        self.sql, params = compiler.as_sql()
        self.params = list(params)
        self.position = self.params.index(_MARKER)
        self.compiler = compiler
        select, klass_info = compiler.select, compiler.klass_info
        self.model = klass_info["model"]
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.names = [column[0].target.attname for column in select[self.start : self.end]]
        self.related = get_related_populators(klass_info, select, alias)
        self.converters = compiler.get_converters([column[0] for column in select])


class CompiledLookup:
    """The first row of `build(value)` (a queryset of `model` filtered by one value), as
    `.first()` gives it: a model instance or None. `build` is called once per thread and
    alias, with a marker in place of the value."""

    def __init__(self, model: type[Model], build: Callable[[str], QuerySet]):
        self.model = model
        self.build = build
        self.local = threading.local()

    def _compiled(self, alias: str) -> _Compiled:
        cache = self.local.__dict__.setdefault("by_alias", {})
        compiled = cache.get(alias)
        if compiled is None:
            queryset = self.build(_MARKER)
            # As .first() does: by primary key unless ordered, and one row.
            queryset = (queryset if queryset.ordered else queryset.order_by("pk"))[:1]
            compiled = cache[alias] = _Compiled(queryset, alias)
        return compiled

    def first(self, value: str) -> Model | None:
        alias = router.db_for_read(self.model)
        if not compiled_enabled():
            return self.build(value).using(alias).first()
        compiled = self._compiled(alias)
        params = list(compiled.params)
        params[compiled.position] = value
        with connections[alias].cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows = cursor.fetchmany(1)
        if not rows:
            return None
        if compiled.converters:
            rows = list(compiled.compiler.apply_converters(rows, compiled.converters))
        row = rows[0]
        instance = compiled.model.from_db(alias, compiled.names, row[compiled.start : compiled.end])
        for populator in compiled.related:
            populator.populate(row, instance)
        return instance


# --- Any query of a fixed shape, compiled once ------------------------------------------


class _Marker:
    """Stands for a parameter in a compiled statement's parameters: a private object,
    told apart by identity, so no real value can be taken for it."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"<parameter {self.name}>"


class Param(Expression):
    """A named parameter of a CompiledQuery: compiles to one placeholder, whose value is
    given when the statement runs, prepared for the database as `output_field` prepares
    it (as a lookup on such a field prepares its value)."""

    def __init__(self, name: str, output_field: Field):
        super().__init__(output_field=output_field)
        self.name = name
        self.marker = _Marker(name)

    def __repr__(self) -> str:
        return f"Param({self.name!r})"

    def as_sql(self, compiler, connection):
        return "%s", [self.marker]


# The Python values each kind of parameter takes; anything else is refused (a value of
# another type may prepare differently or make the ORM write other SQL).
_PARAM_TYPES: list[tuple[type[Field], tuple[type, ...], tuple[type, ...]]] = [
    (models.DateTimeField, (datetime.datetime,), ()),
    (models.DateField, (datetime.date,), (datetime.datetime,)),
    (models.UUIDField, (uuid.UUID,), ()),
    (models.BooleanField, (bool,), ()),
    (models.IntegerField, (int,), (bool,)),
    (models.CharField, (str,), ()),
    (models.TextField, (str,), ()),
]


def _accepted_types(field: Field) -> tuple[tuple[type, ...], tuple[type, ...]]:
    for kind, accepted, refused in _PARAM_TYPES:
        if isinstance(field, kind):
            return accepted, refused
    raise TypeError(f"No parameter of a CompiledQuery can be a {type(field).__name__}.")


class Aggregate:
    """What a CompiledQuery's `build` answers for `queryset.aggregate(**aggregates)`."""

    def __init__(self, queryset: QuerySet, **aggregates):
        self.queryset = queryset
        self.aggregates = aggregates


class _Recorded(Exception):
    def __init__(self, compiler):
        self.compiler = compiler


def _recording(query) -> None:
    """Make `query` (and the clones aggregate() makes of it) hand over the compiler that
    is about to run its statement, compiled but not run (raised as _Recorded)."""
    original = type(query)

    class RecordingQuery(original):
        def get_compiler(self, *args, **kwargs):
            compiler = super().get_compiler(*args, **kwargs)

            def execute_sql(*args, **kwargs):
                compiler.query.__class__ = original
                raise _Recorded(compiler)

            compiler.execute_sql = execute_sql
            return compiler

    query.__class__ = RecordingQuery


class _ConvertersOnce:
    """A compiler's get_converters, each list of columns looked up once (the columns are
    kept, so their ids stay theirs)."""

    def __init__(self, get_converters):
        self.get_converters = get_converters
        self.found: dict[tuple, tuple] = {}

    def __call__(self, expressions):
        expressions = list(expressions)
        key = tuple(map(id, expressions))
        found = self.found.get(key)
        if found is None:
            found = self.found[key] = (self.get_converters(expressions), expressions)
        return found[0]


class _Statement:
    """One shape's statement on one alias: its SQL, its parameters with markers, and the
    compiler Django made for it, which runs it again with other values."""

    def __init__(self, compiler, names=None, empty=None):
        self.compiler = compiler
        self.sql, params = compiler.as_sql()
        self.params = list(params)
        self.slots = [(i, p.name) for i, p in enumerate(self.params) if type(p) is _Marker]
        self.names = names  # an aggregate's keys
        self.empty = empty  # an aggregate's values when the statement finds nothing
        self.queryset = None  # the queryset whose iterable turns rows into results
        self.current: list = self.params
        # The compiler runs this statement, with the current parameters, from now on.
        compiler.as_sql = self.as_sql
        # Its columns are the same on every run, and so are their converters: Django
        # would look them up again for each run.
        compiler.get_converters = _ConvertersOnce(compiler.get_converters)

    def as_sql(self, *args, **kwargs):
        return self.sql, self.current


class CompiledQuery:
    """A query the ORM builds once per thread, database alias and shape, and that then
    runs as SQL with each call's values, answering what the queryset answers.

    `build(**arguments)` writes the query with the ORM and answers a QuerySet (its rows,
    as iterating it gives them: model instances, select_related objects and annotations
    included, or values() dicts, or values_list() tuples) or an Aggregate (the dict of
    queryset.aggregate()). `params` names the arguments that are parameters of the SQL,
    each with the model field its values are prepared as: they are given to `build` as
    Param expressions, and their values go into the statement each time it runs. Every
    other argument is part of the shape: given to `build` as it is, and a separate
    statement per value (a member filter or not, a limit, a list of weekdays). A
    parameter given as None is part of the shape too (it usually changes the SQL, to an
    IS NULL or to no filter at all); a value of another type than its field's is refused.
    A parameter stands for one value: a list (an `__in` lookup) is a shape, or stays with
    the plain queryset (a lookup on a relation refuses a Param inside a list).

    The statement runs through the connection's cursor (execute wrappers, query counts
    and health checks included), and its rows go through the same converters and
    iterables as the queryset's, so every database gives the values the queryset gives.
    """

    def __init__(
        self,
        build: Callable,
        *,
        params: dict[str, Field],
        model: type[Model],
        finish: Callable[[str, str], str] | None = None,
    ):
        self.build = build
        # finish(sql, vendor): the statement to run instead of the one the ORM wrote, for
        # SQL the ORM does not write; applied once per statement, its rows read as the
        # queryset's. The queryset still answers what the ORM wrote.
        self.finish = finish
        self.params = {
            name: (Param(name, field), *_accepted_types(field), field)
            for name, field in params.items()
        }
        self.model = model  # where router.db_for_read sends the query
        self.local = threading.local()

    def _statement(self, alias: str, shape: tuple, arguments: dict) -> _Statement:
        statements = self.local.__dict__.setdefault("statements", OrderedDict())
        key = (alias, shape)
        statement = statements.get(key)
        if statement is not None:
            statements.move_to_end(key)
        else:
            built = self.build(**arguments)
            if isinstance(built, Aggregate):
                queryset = built.queryset.using(alias)
                _recording(queryset.query)
                try:
                    queryset.aggregate(**built.aggregates)
                except _Recorded as recorded:
                    compiler = recorded.compiler
                    del compiler.execute_sql  # Django's again, to run the statement
                else:  # pragma: no cover - aggregate() always reaches execute_sql
                    raise RuntimeError("The aggregate ran no statement.")
                columns = compiler.query.annotation_select
                statement = _Statement(
                    compiler,
                    names=list(columns),
                    empty=[column.empty_result_set_value for column in columns.values()],
                )
            else:
                if built._prefetch_related_lookups:
                    raise ValueError("A CompiledQuery does not prefetch related objects.")
                queryset = built.using(alias)
                statement = _Statement(queryset.query.get_compiler(using=alias))
                queryset.query.get_compiler = lambda *args, **kwargs: statement.compiler
                statement.queryset = queryset
            if self.finish is not None:
                statement.sql = self.finish(statement.sql, connections[alias].vendor)
            statements[key] = statement
            while len(statements) > _statements_max():
                statements.popitem(last=False)
        return statement

    def plain(self, **arguments):
        """What the statement stands for, run as the plain queryset (or aggregate)."""
        built = self.build(**arguments)
        alias = router.db_for_read(self.model)
        if isinstance(built, Aggregate):
            return built.queryset.using(alias).aggregate(**built.aggregates)
        return list(built.using(alias))

    def __call__(self, **arguments):
        if not compiled_enabled():
            return self.plain(**arguments)
        shape = []
        values = {}
        for name in sorted(arguments):
            value = arguments[name]
            param = self.params.get(name)
            if param is None or value is None:
                shape.append((name, value))
                continue
            expression, accepted, refused, _ = param
            if not isinstance(value, accepted) or isinstance(value, refused):
                raise TypeError(
                    f"Parameter {name} takes a {accepted[0].__name__}, "
                    f"not {type(value).__name__}: {value!r}."
                )
            shape.append((name, Param))
            values[name] = value
            arguments[name] = expression
        alias = router.db_for_read(self.model)
        connection = connections[alias]
        statement = self._statement(alias, tuple(shape), arguments)
        prepared = list(statement.params)
        for position, name in statement.slots:
            prepared[position] = self.params[name][3].get_db_prep_value(
                values[name], connection, prepared=False
            )
        compiler = statement.compiler
        compiler.connection = connection
        statement.current = prepared
        try:
            if statement.queryset is None:
                return self._aggregate(statement)
            queryset = statement.queryset
            return list(queryset._iterable_class(queryset))
        finally:
            statement.current = statement.params

    @staticmethod
    def _aggregate(statement: _Statement) -> dict:
        # As Query.get_aggregation finishes.
        compiler = statement.compiler
        result = compiler.execute_sql(SINGLE)
        if result is None:
            result = statement.empty
        else:
            columns = compiler.query.annotation_select.values()
            rows = compiler.apply_converters((result,), compiler.get_converters(columns))
            result = next(rows)
        return dict(zip(statement.names, result, strict=True))
