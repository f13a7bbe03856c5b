"""Import sales records from a JSON Lines file into one workspace (docs/import.md)."""

import getpass
import sys

from django.core.management.base import BaseCommand, CommandError

from audit.services import Actor
from core.ids import parse_uuid
from workspaces.importer import ImportLineError, records_import
from workspaces.models import Member, Workspace

# Below this many records a progress bar is only drawn when asked for.
LONG_IMPORT = 500


class Command(BaseCommand):
    help = (
        "Import records (member, lead, touch, call, outcome, sale, payment, refund, eod, "
        "webinar_event, registration, funnel_event, commission_rule) from a JSON Lines file. "
        "Idempotent on (type, id); a bad line writes nothing of the file."
    )

    def add_arguments(self, parser):
        parser.add_argument("--workspace", required=True, help="The workspace id (or slug).")
        parser.add_argument("file", help="A JSON Lines file, or - for standard input.")
        parser.add_argument(
            "--progress", action="store_true", help="Draw a progress bar on stderr."
        )
        parser.add_argument(
            "--operator",
            help=(
                "Who runs the import, named in the audit log (default: the login name). "
                "An operator acts as an owner of the workspace."
            ),
        )

    def handle(self, *args, workspace, file, progress, operator=None, **options):
        target = _workspace(workspace)
        lines = _read(file)
        draw = None
        if progress or (self.stderr.isatty() and len(lines) >= LONG_IMPORT):
            draw = _ProgressBar(self.stderr)
        try:
            result = records_import(
                workspace=target,
                lines=lines,
                by_role=Member.Role.OWNER,
                actor=operator_actor(operator),
                source=file,
                progress=draw,
            )
        except ImportLineError as error:
            raise CommandError(f"{file}: {error} Nothing was imported.") from None
        finally:
            if draw is not None:
                draw.close()
        parts = [
            f"{type_} {c['created']} created, {c['updated']} updated"
            for type_, c in result.counts.items()
        ]
        self.stdout.write(
            f"Imported {result.total} records into {target.slug}"
            + (": " + "; ".join(parts) if parts else ".")
        )


def operator_actor(name: str | None) -> Actor:
    """The command's actor, naming the operator who ran it."""
    name = (name or "").strip() or _login_name()
    return Actor(kind="command", id="import_records", label=f"manage.py import_records ({name})")


def _login_name() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown operator"


def _workspace(value: str) -> Workspace:
    workspace = None
    pk = parse_uuid(value)
    if pk is not None:
        workspace = Workspace.active.filter(pk=pk).first()
    else:
        workspace = Workspace.active.filter(slug=value).first()
    if workspace is None:
        raise CommandError(f"No active workspace has the id {value!r}.")
    return workspace


def _read(path: str) -> list[str]:
    try:
        if path == "-":
            return sys.stdin.read().splitlines()
        with open(path, encoding="utf-8-sig") as handle:
            return handle.read().splitlines()
    except OSError as error:
        raise CommandError(f"Cannot read {path}: {error.strerror}.") from None
    except UnicodeDecodeError:
        raise CommandError(f"{path} is not UTF-8 text.") from None


class _ProgressBar:
    WIDTH = 30

    def __init__(self, stream):
        self.stream = stream
        self.shown = -1
        self.drawn = False

    def __call__(self, done: int, total: int) -> None:
        percent = done * 100 // max(total, 1)
        if percent == self.shown and done != total:
            return
        self.shown = percent
        filled = self.WIDTH * done // max(total, 1)
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        self.stream.write(f"\r[{bar}] {done}/{total} records", style_func=str, ending="")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("", style_func=str)
            self.stream.flush()
