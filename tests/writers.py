"""The one-writer rule for the workspaces app's models, checked while the tests run.

Every save or delete of a workspaces model is traced to the innermost module of the
project that asked for it: it must be one of the writers (or a test, or a migration). The
writers' bulk paths (`bulk_create`, queryset `update`) send no signal; the static check in
tests/workspaces/test_writers.py covers those.
"""

import sys
from pathlib import Path

from django.apps import apps
from django.db.models.signals import pre_delete, pre_save

ROOT = Path(__file__).resolve().parents[1]
WRITERS = frozenset(
    {
        "workspaces/kept.py",
        "workspaces/tenancy.py",
        "workspaces/invitations.py",
    }
)
# The records' writers: every module of the package.
WRITER_PACKAGES = ("workspaces/services/",)


MODELS = "workspaces/models.py"


class WriteOutsideTheWriters(AssertionError):
    pass


def _asking_module() -> str | None:
    frame = sys._getframe(2)
    root = str(ROOT) + "/"
    while frame is not None:
        name = frame.f_code.co_filename
        # The model's own save() is not who asked for the write.
        if name.startswith(root) and "/.venv/" not in name and not name.endswith(MODELS):
            return name[len(root) :]
        frame = frame.f_back
    return None


def _check(sender, **kwargs):
    module = _asking_module()
    if module is None or module in WRITERS or module.startswith(WRITER_PACKAGES):
        return
    if module.startswith(("tests/", "bench/")) or "/migrations/" in module:
        return
    raise WriteOutsideTheWriters(
        f"{module} writes a {sender.__name__} itself: use a writer of the workspaces app"
    )


def install() -> None:
    for model in apps.get_app_config("workspaces").get_models():
        pre_save.connect(_check, sender=model, dispatch_uid=f"one-writer-{model.__name__}")
        pre_delete.connect(_check, sender=model, dispatch_uid=f"one-writer-del-{model.__name__}")
