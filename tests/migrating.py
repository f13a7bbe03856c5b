"""Migrating the test database to a given state and back, for the tests of data migrations."""

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(targets):
    """Migrate to `targets` ([(app, migration)]); the apps (historical models) there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def migrate_latest() -> None:
    """Back to the latest migration of every app."""
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
