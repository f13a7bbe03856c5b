"""The SQL of the triggers that mark a roll-up's days dirty (figures/rollups.py), for the
migrations that create them: for a workspace with a roll-up of the kind, each insert,
delete, or update that changes a column the roll-up reads leaves the record's old and new
time in figures_rollupdirty, in the transaction of the write.

A watched entry is (kind, table, time column, the columns a roll-up of the kind reads).
"""

from __future__ import annotations

from django.db import migrations

Watched = tuple[str, str, str, tuple[str, ...]]


def _changed(columns: tuple[str, ...], differs: str) -> str:
    """A row's update changed one of the columns (NULL-safe: `differs` is PostgreSQL's IS
    DISTINCT FROM or SQLite's IS NOT)."""
    return " OR ".join(f"OLD.{column} {differs} NEW.{column}" for column in columns)


def _postgresql(kind: str, table: str, time: str, columns: tuple[str, ...]) -> tuple[str, str]:
    function = f"figures_dirty_{kind}"
    trigger = f"figures_dirty_{kind}"
    mark = (
        "IF EXISTS (SELECT 1 FROM figures_rollupstate s WHERE s.workspace_id = {row}.workspace_id "
        f"AND s.kind = '{kind}') THEN INSERT INTO figures_rollupdirty (workspace_id, kind, at) "
        f"VALUES ({{row}}.workspace_id, '{kind}', {{row}}.{time}); END IF;"
    )
    create = f"""
CREATE FUNCTION {function}() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN {mark.format(row="OLD")} END IF;
  IF TG_OP <> 'DELETE' THEN {mark.format(row="NEW")} END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER {trigger} AFTER INSERT OR DELETE ON {table}
FOR EACH ROW EXECUTE FUNCTION {function}();
CREATE TRIGGER {trigger}_update AFTER UPDATE OF {", ".join(columns)} ON {table}
FOR EACH ROW WHEN ({_changed(columns, "IS DISTINCT FROM")}) EXECUTE FUNCTION {function}();
"""
    drop = (
        f"DROP TRIGGER IF EXISTS {trigger} ON {table}; "
        f"DROP TRIGGER IF EXISTS {trigger}_update ON {table}; "
        f"DROP FUNCTION IF EXISTS {function}();"
    )
    return create, drop


def _sqlite(kind: str, table: str, time: str, columns: tuple[str, ...]) -> tuple[list, list]:
    def mark(row: str) -> str:
        return (
            f"INSERT INTO figures_rollupdirty (workspace_id, kind, at) SELECT {row}.workspace_id, "
            f"'{kind}', {row}.{time} WHERE EXISTS (SELECT 1 FROM figures_rollupstate s "
            f"WHERE s.workspace_id = {row}.workspace_id AND s.kind = '{kind}');"
        )

    name = f"figures_dirty_{kind}"
    create = [
        f"CREATE TRIGGER {name}_insert AFTER INSERT ON {table} BEGIN {mark('NEW')} END;",
        f"CREATE TRIGGER {name}_delete AFTER DELETE ON {table} BEGIN {mark('OLD')} END;",
        f"CREATE TRIGGER {name}_update AFTER UPDATE OF {', '.join(columns)} ON {table} "
        f"WHEN {_changed(columns, 'IS NOT')} BEGIN {mark('OLD')} {mark('NEW')} END;",
    ]
    drop = [f"DROP TRIGGER IF EXISTS {name}_{op};" for op in ("insert", "delete", "update")]
    return create, drop


def _run(schema_editor, watched: tuple[Watched, ...], which: int) -> None:
    vendor = schema_editor.connection.vendor
    for entry in watched:
        if vendor == "postgresql":
            schema_editor.execute(_postgresql(*entry)[which])
        elif vendor == "sqlite":
            for statement in _sqlite(*entry)[which]:
                schema_editor.execute(statement)
        else:
            raise NotImplementedError(f"No roll-up triggers for {vendor}")


def triggers_create(schema_editor, watched: tuple[Watched, ...]) -> None:
    _run(schema_editor, watched, 0)


def triggers_drop(schema_editor, watched: tuple[Watched, ...]) -> None:
    _run(schema_editor, watched, 1)


def triggers_operation(watched: tuple[Watched, ...]) -> migrations.RunPython:
    """The migration operation that creates the triggers (and drops them when reversed)."""
    return migrations.RunPython(
        lambda apps, schema_editor: triggers_create(schema_editor, watched),
        lambda apps, schema_editor: triggers_drop(schema_editor, watched),
    )
