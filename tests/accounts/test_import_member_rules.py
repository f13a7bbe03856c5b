"""Member lines of an upload follow the Members page's rules, checked against the people who
brought the file: an admin neither grants nor takes away owner or admin, changes no owner,
and no import makes an account's email another's. A refused line names itself and nothing
of the file is written."""

import json
from types import SimpleNamespace

import pytest

from audit.models import AuditEvent
from workspaces.models import Lead, Member, RecordUpload

from .test_import_page import browser, confirm, import_url, upload

pytestmark = pytest.mark.django_db

ONLY_AN_OWNER = (
    "Only an owner grants, takes away or changes the owner and admin roles; {email} is not changed."
)


@pytest.fixture
def team(make_workspace, make_member):
    workspace = make_workspace(name="Northwind Sales", currency="USD", timezone="Europe/Berlin")
    return SimpleNamespace(
        workspace=workspace,
        owner=make_member(workspace, "owner", name="Olive Owner", email="olive@example.test"),
        admin=make_member(workspace, "admin", name="Adam Admin", email="adam@example.test"),
        closer=make_member(workspace, "closer", name="Cleo Closer", email="cleo@example.test"),
    )


def member_line(id_, email, role, name="Someone"):
    return {"type": "member", "id": id_, "name": name, "email": email, "role": role}


def jsonl(*records) -> str:
    lead = {"type": "lead", "id": "l-1", "created_at": "2026-10-01T09:00:00+00:00"}
    return "\n".join(json.dumps(record) for record in (lead, *records)) + "\n"


def roles(team) -> dict:
    return {member.email: member.role for member in Member.objects.filter(workspace=team.workspace)}


BEFORE = {
    "olive@example.test": "owner",
    "adam@example.test": "admin",
    "cleo@example.test": "closer",
}


@pytest.mark.parametrize(
    ("line", "column", "message"),
    [
        # Making themself owner.
        (
            member_line("m-adam", "adam@example.test", "owner", "Adam Admin"),
            "role",
            ONLY_AN_OWNER.format(email="adam@example.test"),
        ),
        # Demoting the owner.
        (
            member_line("m-olive", "olive@example.test", "closer", "Olive Owner"),
            "role",
            ONLY_AN_OWNER.format(email="olive@example.test"),
        ),
        # Adding an owner or an admin.
        (
            member_line("m-new", "new@example.test", "owner"),
            "role",
            "Only an owner adds a member as owner; new@example.test is not added.",
        ),
        (
            member_line("m-new", "new@example.test", "admin"),
            "role",
            "Only an owner adds a member as admin; new@example.test is not added.",
        ),
        # Making a closer an admin.
        (
            member_line("m-cleo", "cleo@example.test", "admin", "Cleo Closer"),
            "role",
            ONLY_AN_OWNER.format(email="cleo@example.test"),
        ),
    ],
)
def test_an_admins_upload_touching_the_roles_that_run_the_workspace_is_refused(
    team, line, column, message
):
    client = browser(team.admin)
    answer = upload(client, import_url(team), kind="jsonl", name="m.jsonl", content=jsonl(line))
    assert answer.status_code == 302
    record = RecordUpload.objects.get()
    assert (record.state, record.errors) == (
        "refused",
        [{"line": 2, "column": column, "message": message}],
    )
    assert confirm(client, answer["Location"]).status_code in {302, 400}
    assert roles(team) == BEFORE
    assert not Lead.objects.filter(workspace=team.workspace).exists()
    assert not AuditEvent.objects.filter(
        action__in=["member.role_changed", "member.added", "member.changed"]
    ).exists()


def test_an_admin_cannot_change_an_owners_email(team):
    client = browser(team.admin)
    line = member_line("m-olive", "olive@example.test", "owner", "Olive Owner")
    # By the owner's own id once it is known to the import, then a new email.
    team.owner.external_id = "m-olive"
    team.owner.save(update_fields=["external_id"])
    line["email"] = "attacker@example.test"
    upload(client, import_url(team), kind="jsonl", name="m.jsonl", content=jsonl(line))
    record = RecordUpload.objects.get()
    assert (record.state, record.errors) == (
        "refused",
        [
            {
                "line": 2,
                "column": "email",
                "message": ONLY_AN_OWNER.format(email="olive@example.test"),
            }
        ],
    )
    team.owner.refresh_from_db()
    assert team.owner.email == "olive@example.test"


def test_no_import_makes_an_accounts_email_another(team):
    """Even an owner's: the member signs in with an account whose email is theirs."""
    team.closer.external_id = "m-cleo"
    team.closer.save(update_fields=["external_id"])
    client = browser(team.owner)
    line = member_line("m-cleo", "someone-else@example.test", "closer", "Cleo Closer")
    upload(client, import_url(team), kind="jsonl", name="m.jsonl", content=jsonl(line))
    record = RecordUpload.objects.get()
    assert (record.state, record.errors) == (
        "refused",
        [
            {
                "line": 2,
                "column": "email",
                "message": "cleo@example.test signs in with their own account: its email "
                "changes on their account page, never by an import.",
            }
        ],
    )
    team.closer.refresh_from_db()
    assert team.closer.email == "cleo@example.test"


def test_an_admin_manages_the_other_roles_and_an_owner_all(
    team, django_capture_on_commit_callbacks
):
    client = browser(team.admin)
    lines = jsonl(
        member_line("m-cleo", "cleo@example.test", "setter", "Cleo Closer"),
        member_line("m-sam", "sam@example.test", "closer", "Sam New"),
    )
    answer = upload(client, import_url(team), kind="jsonl", name="m.jsonl", content=lines)
    with django_capture_on_commit_callbacks(execute=True):
        confirm(client, answer["Location"])
    assert RecordUpload.objects.get().state == "imported"
    assert roles(team) == {**BEFORE, "cleo@example.test": "setter", "sam@example.test": "closer"}
    changed = AuditEvent.objects.get(action="member.role_changed")
    assert changed.actor_label == team.admin.user.email
    # An owner grants the admin role by the same file.
    RecordUpload.objects.all().delete()
    owner = browser(team.owner)
    answer = upload(
        owner,
        import_url(team),
        kind="jsonl",
        name="m.jsonl",
        content=jsonl(member_line("m-sam", "sam@example.test", "admin", "Sam New")),
    )
    with django_capture_on_commit_callbacks(execute=True):
        confirm(owner, answer["Location"])
    assert RecordUpload.objects.get().state == "imported"
    assert roles(team)["sam@example.test"] == "admin"


def test_an_owners_upload_confirmed_by_an_admin_acts_as_the_admin(
    team, django_capture_on_commit_callbacks
):
    owner = browser(team.owner)
    line = member_line("m-adam", "adam@example.test", "owner", "Adam Admin")
    answer = upload(owner, import_url(team), kind="jsonl", name="m.jsonl", content=jsonl(line))
    assert RecordUpload.objects.get().state == "checked"
    admin = browser(team.admin)
    admin.get(answer["Location"])
    with django_capture_on_commit_callbacks(execute=True):
        confirm(admin, answer["Location"])
    record = RecordUpload.objects.get()
    assert (record.state, record.failure) == (
        "failed",
        {"line": 2, "column": "role", "message": ONLY_AN_OWNER.format(email="adam@example.test")},
    )
    assert roles(team) == BEFORE
    assert not Lead.objects.filter(workspace=team.workspace).exists()
