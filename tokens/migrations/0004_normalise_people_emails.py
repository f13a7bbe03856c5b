"""People's email addresses in the one form every look-up uses (core.emails): accounts,
members and invitations. A row whose normal form another row of the same scope already
holds is left as it was, and logged: two accounts are never merged by a migration."""

import logging
import unicodedata

from django.db import migrations

logger = logging.getLogger(__name__)


def _normal(value: str) -> str:
    # The rule of core.emails.email_normalise, frozen here as this migration applies it.
    return unicodedata.normalize("NFKC", value.strip()).casefold()


def _normalise(rows, scope_of, label):
    taken = {}
    for row in rows:
        taken.setdefault((scope_of(row), row.email), row.pk)
    for row in rows:
        normal = _normal(row.email or "")
        if normal == row.email:
            continue
        key = (scope_of(row), normal)
        if key in taken and taken[key] != row.pk:
            logger.warning("%s %s keeps its email: its normal form is another's", label, row.pk)
            continue
        taken.pop((scope_of(row), row.email), None)
        taken[key] = row.pk
        row.email = normal
        row.save(update_fields=["email"])


def forwards(apps, schema_editor):
    User = apps.get_model("auth", "User")
    Member = apps.get_model("workspaces", "Member")
    Invitation = apps.get_model("workspaces", "Invitation")
    # Several accounts may share an address (sign-in checks each): no scope for accounts.
    for user in User.objects.exclude(email="").only("pk", "email"):
        normal = _normal(user.email)
        if normal != user.email:
            user.email = normal
            user.save(update_fields=["email"])
    _normalise(list(Member.objects.only("pk", "workspace_id", "email")), lambda m: m.workspace_id, "member")
    _normalise(
        list(Invitation.objects.filter(state="pending").only("pk", "workspace_id", "email")),
        lambda i: i.workspace_id,
        "invitation",
    )
    for invitation in Invitation.objects.exclude(state="pending").only("pk", "email"):
        normal = _normal(invitation.email)
        if normal != invitation.email:
            invitation.email = normal
            invitation.save(update_fields=["email"])


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("tokens", "0003_delete_idempotencyrecord"),
        ("workspaces", "0010_invitation_sent_at"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
