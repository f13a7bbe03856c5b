"""Each table has its owner, checked while the tests run: the module (or the few modules)
that writes it.

Every save or delete of a project's model, every queryset `update`, `bulk_create` and
`bulk_update` of one, is traced to the innermost module of the project that asked for it:
it must be an owner of that table (or a test, or a migration); a row a cascade deletes
goes with the row the delete started from. The accounts (`auth.User`) and the OAuth
toolkit's tables have their owners too; what the libraries themselves write of them is
named (LIBRARY_WRITES), and no other write of theirs is let through, a library's alone
included. `bench/` (the load tests' data, not
part of the service) is outside. The static half, over every app's source (querysets held
in variables and related managers included), is tests/workspaces/test_writers.py.
"""

import sys
from pathlib import Path

from django.apps import apps
from django.db.models import QuerySet
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

# The apps whose tables have owners: every app of the project with models.
APPS = ("core", "workspaces", "tokens", "audit", "events", "webhooks", "agentapi")
APPS += ("integrations", "agency", "figures", "notifications")
# The libraries' tables that have owners too: the accounts, and the OAuth toolkit's
# clients, codes and tokens.
OAUTH_MODELS = (
    "oauth2_provider.Application",
    "oauth2_provider.Grant",
    "oauth2_provider.AccessToken",
    "oauth2_provider.RefreshToken",
    "oauth2_provider.IDToken",
)
LIBRARY_MODELS = ("auth.User", *OAUTH_MODELS)

# Who writes each table: paths, a path ending in "/" for every module under it. A table not
# named here is its app's default's (APP_OWNERS).
APP_OWNERS = {
    "workspaces": (*sorted(WRITERS), *WRITER_PACKAGES),
    "webhooks": ("webhooks/services.py",),
    "agentapi": ("agentapi/services.py",),
    # The integrations engine and its providers' packages (HubSpot's options page keeps
    # the connection's options).
    "integrations": ("integrations/",),
    # The daily roll-ups, kept by their refresh (the database's triggers mark them dirty).
    "figures": ("figures/rollups.py",),
    "notifications": ("notifications/services.py",),
}
OWNERS = {
    # The accounts: made, and their passwords set, by the tenancy (Django's own writes of
    # them are named in LIBRARY_WRITES).
    "auth.User": ("workspaces/tenancy.py",),
    "core.IdempotencyRecord": ("core/idempotency.py",),
    "audit.AuditEvent": ("audit/services.py",),
    "events.Event": ("events/services.py",),
    # The providers' events: stored, settled and resolved through integrations/events.py.
    "integrations.Event": ("integrations/events.py",),
    # The authentication stamps a token's last use.
    "tokens.ApiToken": ("tokens/services.py", "tokens/authentication.py"),
    "tokens.EmbeddedApp": ("tokens/services.py",),
    "tokens.RedeemedCode": ("tokens/oauth.py",),
    # The OAuth toolkit's tables: an embedded app's client, a session token minted without a
    # browser, the sessions ended (a member's, an account's, a replayed code's) by the
    # services; what the toolkit's endpoints write is its own (LIBRARY_WRITES).
    **dict.fromkeys(OAUTH_MODELS, ("tokens/services.py",)),
    "agency.Blueprint": ("agency/services.py",),
    # Drafted and decided by the services, marked applied by the apply.
    "agency.Plan": ("agency/services.py", "agency/apply.py"),
    "agency.ConnectLink": ("agency/links.py",),
    "agency.ConnectLink_connections": ("agency/links.py",),
}
# The writes of an owned table left to a library, whichever module of the project asked:
# (the file's path in the library, the function's qualified name, None for any of the
# file's), one of them on the way from the write to the project's innermost frame. Any
# other write of these tables is its module's (an owner, or refused), and one no module
# of the project asked for (a library's alone) is refused.
LIBRARY_WRITES = {
    # Django's of the accounts: sign-in stamps last_login (the user_logged_in receiver), a
    # password reset saves the new password (its confirm view's form.save()), and a
    # password checked under an older hasher is stored again under the current one.
    # Sessions and update_session_auth_hash write the sessions' table only (no owner), and
    # accounts' pre_save hook (accounts/apps.py) normalises the email of the row its
    # writer saves.
    "auth.User": (
        ("django/contrib/auth/models.py", "update_last_login"),
        ("django/contrib/auth/views.py", "PasswordResetConfirmView.form_valid"),
        ("django/contrib/auth/base_user.py", "AbstractBaseUser.check_password.<locals>.setter"),
    ),
    # The toolkit's own, at its endpoints (authorize, token, revoke_token), through its
    # validator (tokens.oauth.EmbeddedAppValidator extends it): a code granted and
    # redeemed, the tokens issued, refreshed and revoked. The token endpoint is the
    # second writer of these tables, beside the services.
    **dict.fromkeys(OAUTH_MODELS, (("oauth2_provider/oauth2_validators.py", None),)),
}
# Who changes a table's rows only through a cascade from another table's (a delete, or a
# foreign key set null): revoking a session's OAuth tokens unlinks the records of their
# codes.
CASCADES = {"tokens.RedeemedCode": ("tokens/services.py",)}
# The key rotation encrypts every registered column again, whichever table holds it.
EVERY_TABLE = ("core/crypto.py",)
OUTSIDE = ("tests/", "bench/")

HERE = str(Path(__file__).resolve())


class WriteOutsideTheWriters(AssertionError):
    pass


def owned_models() -> list:
    return [
        model
        for app in APPS
        for model in apps.get_app_config(app).get_models(include_auto_created=True)
    ] + [apps.get_model(label) for label in LIBRARY_MODELS]


def owners_of(label: str) -> tuple[str, ...]:
    if label in OWNERS:
        return OWNERS[label]
    return APP_OWNERS[label.split(".")[0]]


def may_write(module: str, label: str) -> bool:
    if module.startswith(OUTSIDE) or "/migrations/" in module or module in EVERY_TABLE:
        return True
    return any(
        module.startswith(owner) if owner.endswith("/") else module == owner
        for owner in owners_of(label)
    )


def _asking() -> tuple[str | None, list[tuple[str, str]]]:
    """The innermost module of the project that asked for the write (None: none did), and
    the libraries' frames on the way to it (path, qualified name)."""
    frame = sys._getframe(2)
    root = str(ROOT) + "/"
    between = []
    while frame is not None:
        name = frame.f_code.co_filename
        # A library's frame, wherever it is installed (a virtualenv inside the checkout
        # included), and the scripts that start the tests.
        library = (
            not name.startswith(root)
            or "/site-packages/" in name
            or name[len(root) :].startswith((".venv", ".tox"))
        )
        if library:
            between.append((name, frame.f_code.co_qualname))
        # The model's own save() is not who asked for the write, nor this module's hooks.
        elif not name.endswith("/models.py") and name != HERE:
            return name[len(root) :], between
        frame = frame.f_back
    return None, between


def _library_write(label: str, between: list[tuple[str, str]]) -> bool:
    """Whether the write is one LIBRARY_WRITES leaves to a library (a library's own
    migrations too)."""
    if any("/migrations/" in path for path, _ in between):
        return True
    return any(
        path.endswith("/" + suffix) and function in (None, qualname)
        for suffix, function in LIBRARY_WRITES.get(label, ())
        for path, qualname in between
    )


def _origin_label(origin) -> str | None:
    """The owned table a delete started from (a model instance or a queryset), if any."""
    if origin is None:
        return None
    model = origin.model if isinstance(origin, QuerySet) else type(origin)
    return model._meta.label if model._meta.label in _LABELS else None


def _cascaded(sender, origin) -> bool:
    """Whether a delete of sender's row follows from a delete of another table's."""
    if origin is None:
        return False
    model = origin.model if isinstance(origin, QuerySet) else type(origin)
    return model is not sender


def _check(sender, origin=None, cascade=False, **kwargs):
    module, between = _asking()
    # A row deleted by a cascade goes with the row its deleter owns (an event pruned takes
    # its deliveries): the deleter answers for the origin of the delete.
    label = _origin_label(origin) or sender._meta.label
    if _library_write(label, between):
        return
    if module is None and label not in LIBRARY_WRITES:
        return
    if module is not None and may_write(module, label):
        return
    if (cascade or _cascaded(sender, origin)) and module in CASCADES.get(label, ()):
        return
    raise WriteOutsideTheWriters(
        f"{module or 'a library'} writes a {sender.__name__} itself: use the writer that owns "
        "its table "
        f"({', '.join(owners_of(label))})"
    )


def _checked(method):
    def write(self, *args, **kwargs):
        if self.model._meta.label in _LABELS:
            # A delete's collector sets the foreign keys of on_delete=SET_NULL rows.
            cascade = sys._getframe(1).f_code.co_filename.endswith("/db/models/deletion.py")
            _check(self.model, cascade=cascade)
        return method(self, *args, **kwargs)

    write.one_writer_checked = True
    return write


_LABELS: set[str] = set()


def install() -> None:
    for model in owned_models():
        _LABELS.add(model._meta.label)
        uid = model._meta.label
        pre_save.connect(_check, sender=model, dispatch_uid=f"one-writer-{uid}")
        pre_delete.connect(_check, sender=model, dispatch_uid=f"one-writer-del-{uid}")
    # The writes that send no signal.
    for name in ("update", "bulk_create", "bulk_update"):
        method = getattr(QuerySet, name)
        if not getattr(method, "one_writer_checked", False):
            setattr(QuerySet, name, _checked(method))
