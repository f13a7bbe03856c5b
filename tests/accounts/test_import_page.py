"""The Import page, as a browser posts it (CSRF on): templates, the upload's preview and
errors before anything is written, the confirmed import (eager here; the worker's test is
tests/workspaces/test_upload_worker.py), all or nothing, and who may open it."""

import html
import re
from types import SimpleNamespace

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, TestCase

from accounts import imports
from audit.models import AuditEvent
from tests.conftest import aware
from workspaces.models import Lead, RecordUpload, Touch
from workspaces.services import lead_upsert

pytestmark = pytest.mark.django_db

LEADS_CSV = (
    "id,name,email,created_at,status,setter,utm_source,utm_medium,utm_campaign,utm_content\n"
    "l-1,Lee Lead,lee@example.test,2026-10-01 09:00,new,,youtube,video,autumn,ep-12\n"
    "l-2,Ann Other,ann@example.test,2026-10-04 18:30,new,,,,,\n"
)


@pytest.fixture
def team(make_workspace, make_member):
    workspace = make_workspace(name="Northwind Sales", currency="USD", timezone="Europe/Berlin")
    members = {
        role: make_member(workspace, role, name=f"{role.title()} Person")
        for role in ("owner", "admin", "manager", "closer")
    }
    return SimpleNamespace(workspace=workspace, **members)


def browser(member) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(member.user)
    return client


def import_url(team):
    return f"/settings/{team.workspace.pk}/import/"


def upload(client, url, *, kind, name, content: str):
    page = client.get(url)
    assert page.status_code == 200, page.status_code
    # The worker's check runs once the upload commits (eager here).
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post(
            url,
            {
                "kind": kind,
                "file": SimpleUploadedFile(name, content.encode(), content_type="text/csv"),
                "csrfmiddlewaretoken": client.cookies["csrftoken"].value,
            },
        )


def text(response) -> str:
    """The page's text as a person reads it (tags dropped, entities decoded)."""
    body = re.sub(r"<[^>]+>", "", response.content.decode())
    return html.unescape(re.sub(r"\s+", " ", body))


def confirm(client, url):
    return client.post(url, {"csrfmiddlewaretoken": client.cookies["csrftoken"].value})


def test_an_owner_downloads_a_template(team):
    answer = browser(team.owner).get(f"{import_url(team)}templates/lead.csv")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/csv; charset=utf-8"
    assert answer["Content-Disposition"] == 'attachment; filename="lead-template.csv"'
    assert answer.content.decode() == (
        "id,name,email,created_at,status,setter,utm_source,utm_medium,utm_campaign,utm_content,"
        "phone,fbclid,fbc,fbp,gclid,gbraid,wbraid\r\nl-1,Lee Lead,lee@example.test,"
        "2026-10-01 09:00,new,,youtube,video,autumn,ep-12,+44 20 7946 0958,,,,,,\r\n"
    )
    page = browser(team.owner).get(import_url(team)).content.decode()
    assert f'href="/settings/{team.workspace.pk}/import/templates/lead.csv"' in page
    assert browser(team.owner).get(f"{import_url(team)}templates/nothing.csv").status_code == 404


def test_an_upload_shows_its_first_rows_and_writes_no_record(team):
    client = browser(team.owner)
    answer = upload(client, import_url(team), kind="lead", name="leads.csv", content=LEADS_CSV)
    record = RecordUpload.objects.get()
    assert answer.status_code == 302
    assert answer["Location"] == f"/settings/{team.workspace.pk}/import/{record.pk}/"
    assert (record.state, record.records, record.kind, record.errors) == (
        "checked",
        2,
        "lead",
        [],
    )
    assert Lead.objects.count() == 0
    assert list(
        AuditEvent.objects.order_by("at").values_list("action", "actor_label", "detail")
    ) == [
        (
            "records_upload.created",
            team.owner.user.email,
            {"file_name": "leads.csv", "kind": "lead", "lines": 3},
        ),
        (
            "records_upload.checked",
            team.owner.user.email,
            {"file_name": "leads.csv", "records": 2, "errors": 0},
        ),
    ]
    page = client.get(answer["Location"])
    shown = text(page)
    assert "CSV of leads, 2 records" in shown
    assert "Every line can be imported. Nothing is written until you confirm." in shown
    body = page.content.decode()
    assert '<tr data-line="2"><th scope="row">2</th><td>l-1</td><td>Lee Lead</td>' in body
    assert '<tr data-line="3"><th scope="row">3</th><td>l-2</td><td>Ann Other</td>' in body
    assert 'id="confirm-import">Import 2 records</button>' in body
    status = client.get(f"{answer['Location']}status")
    assert status.json() == {"state": "checked", "done": 0, "total": 2, "percent": 0}


def test_the_preview_names_each_error_by_line_and_column_and_cannot_be_confirmed(team):
    content = (
        "id,name,created_at,setter\n"
        "l-1,Lee Lead,2026-10-01 09:00,\n"
        "l-2,Ann Other,yesterday,\n"
        "l-3,Bo Third,2026-10-02 09:00,m-404\n"
        ",No Id,2026-10-02 09:00,\n"
    )
    client = browser(team.owner)
    answer = upload(client, import_url(team), kind="lead", name="leads.csv", content=content)
    record = RecordUpload.objects.get()
    assert (record.state, record.records) == ("refused", 4)
    assert record.errors == [
        {
            "line": 3,
            "column": "created_at",
            "message": "'yesterday' is not a time: write it as 2026-10-01 09:30 (a time in "
            "Europe/Berlin), or with its offset, 2026-10-01T09:30:00+01:00.",
        },
        {
            "line": 4,
            "column": "setter",
            "message": "No member with id 'm-404' in this workspace (import it first).",
        },
        {"line": 5, "column": "id", "message": "every record carries its own id, a string."},
    ]
    page = client.get(answer["Location"])
    shown = text(page)
    assert "This file cannot be imported as it is: fix these lines and upload it again." in shown
    assert (
        "Line 3, column 'created_at': 'yesterday' is not a time: write it as 2026-10-01 09:30 "
        "(a time in Europe/Berlin), or with its offset, 2026-10-01T09:30:00+01:00."
    ) in shown
    assert "Line 4, column 'setter': No member with id 'm-404' in this workspace" in shown
    body = page.content.decode()
    assert 'id="confirm-import"' not in body
    # The rows with an error are marked in the preview.
    assert re.findall(r'<tr data-line="(\d)" class="has-error">', body) == ["3", "4", "5"]
    assert confirm(client, answer["Location"]).status_code == 302
    record.refresh_from_db()
    assert record.state == "refused"
    assert Lead.objects.count() == 0


def test_a_json_lines_file_is_checked_by_the_importer_naming_the_field(team):
    content = (
        '{"type": "lead", "id": "l-1", "created_at": "2026-10-01T09:00:00+00:00"}\n'
        '{"type": "touch", "id": "t-1", "lead": "l-1", "at": "2026-10-01T09:00:00"}\n'
    )
    client = browser(team.admin)
    answer = upload(client, import_url(team), kind="jsonl", name="r.jsonl", content=content)
    shown = text(client.get(answer["Location"]))
    assert (
        "Line 2, field 'at': '2026-10-01T09:00:00' has no offset: give it as e.g. "
        "2026-03-01T09:30:00+01:00 or ...Z."
    ) in shown
    assert "JSON Lines, 2 records" in shown
    assert Lead.objects.count() == 0


def test_confirming_imports_and_the_result_links_to_the_records(
    team, django_capture_on_commit_callbacks
):
    client = browser(team.owner)
    answer = upload(client, import_url(team), kind="lead", name="leads.csv", content=LEADS_CSV)
    with django_capture_on_commit_callbacks(execute=True):
        confirmed = confirm(client, answer["Location"])
    assert confirmed.status_code == 302
    record = RecordUpload.objects.get()
    assert record.state == "imported"
    assert record.counts == {"lead": {"created": 2, "updated": 0}}
    assert record.confirmed_by == team.owner.user
    assert sorted(
        (lead.external_id, lead.name, lead.created_at.isoformat())
        for lead in Lead.objects.filter(workspace=team.workspace)
    ) == [
        ("l-1", "Lee Lead", "2026-10-01T07:00:00+00:00"),
        ("l-2", "Ann Other", "2026-10-04T16:30:00+00:00"),
    ]
    assert list(AuditEvent.objects.order_by("at").values_list("action", flat=True)) == [
        "records_upload.created",
        "records_upload.checked",
        "records_upload.confirmed",
        "records.imported",
        "records_upload.imported",
    ]
    imported = AuditEvent.objects.get(action="records.imported")
    assert imported.actor_label == team.owner.user.email
    assert imported.detail == {
        "source": "upload leads.csv",
        "records": 2,
        "counts": {"lead": {"created": 2, "updated": 0}},
    }
    page = client.get(answer["Location"])
    shown = text(page)
    assert "Imported 2 records" in shown
    leads_url = (
        f"/app/{team.workspace.pk}/leads/?range=custom&amp;from=2026-10-01&amp;to=2026-10-04"
    )
    body = page.content.decode()
    assert f'<a href="{leads_url}" id="open-lead">See the leads</a>' in body
    assert '<td data-label="New" class="created">2</td>' in body
    listed = client.get(html.unescape(leads_url))
    assert listed.status_code == 200
    assert "Lee Lead" in listed.content.decode()
    assert "Ann Other" in listed.content.decode()
    # A second confirmation (a double click) imports nothing again.
    with django_capture_on_commit_callbacks(execute=True):
        confirm(client, answer["Location"])
    assert AuditEvent.objects.filter(action="records.imported").count() == 1


def test_a_line_refused_at_import_writes_nothing_of_the_file(
    team, django_capture_on_commit_callbacks
):
    # Checked while the lead it names is there; gone by the time the import runs.
    lead, _ = lead_upsert(
        workspace=team.workspace, external_id="l-0", created_at=aware("2026-09-01 09:00")
    )
    content = (
        '{"type": "lead", "id": "l-1", "created_at": "2026-10-01T09:00:00+00:00"}\n'
        '{"type": "lead", "id": "l-2", "created_at": "2026-10-01T10:00:00+00:00"}\n'
        '{"type": "touch", "id": "t-1", "lead": "l-0", "at": "2026-10-01T09:05:00+00:00"}\n'
    )
    client = browser(team.owner)
    answer = upload(client, import_url(team), kind="jsonl", name="r.jsonl", content=content)
    assert RecordUpload.objects.get().state == "checked"
    lead.delete()
    with django_capture_on_commit_callbacks(execute=True):
        confirm(client, answer["Location"])
    record = RecordUpload.objects.get()
    assert (record.state, record.counts, record.failure) == (
        "failed",
        {},
        {
            "line": 3,
            "column": "lead",
            "message": "No lead with id 'l-0' in this workspace (import it first).",
        },
    )
    assert Lead.objects.filter(workspace=team.workspace).count() == 0
    assert Touch.objects.count() == 0
    assert not AuditEvent.objects.filter(action="records.imported").exists()
    failed = AuditEvent.objects.get(action="records_upload.failed")
    assert failed.detail["line"] == 3
    shown = text(client.get(answer["Location"]))
    assert "Nothing was imported" in shown
    assert (
        "Line 3, field 'lead': No lead with id 'l-0' in this workspace (import it first)."
    ) in shown


@pytest.mark.parametrize("role", ["manager", "closer"])
def test_other_roles_get_the_403_page(team, role):
    client = browser(getattr(team, role))
    owner = browser(team.owner)
    answer = upload(owner, import_url(team), kind="lead", name="l.csv", content=LEADS_CSV)
    record_url = answer["Location"]
    for url in (
        import_url(team),
        f"{import_url(team)}templates/lead.csv",
        record_url,
        f"{record_url}status",
    ):
        refused = client.get(url)
        assert refused.status_code == 403, url
        assert "Only an owner or admin of Northwind Sales imports records" in text(refused)
    client.get("/")
    refused = client.post(
        record_url, {"csrfmiddlewaretoken": client.cookies.get("csrftoken").value}
    )
    assert refused.status_code == 403
    assert RecordUpload.objects.get().state == "checked"


def test_another_workspaces_upload_is_not_found(team, make_workspace, make_member):
    client = browser(team.owner)
    answer = upload(client, import_url(team), kind="lead", name="l.csv", content=LEADS_CSV)
    record = RecordUpload.objects.get()
    other = make_workspace(name="Elsewhere")
    outsider = make_member(other, "owner")
    stranger = browser(outsider)
    # Its own workspace's address with this upload's id, and this workspace's address.
    stranger.get(f"/settings/{other.pk}/import/")
    token = stranger.cookies["csrftoken"].value
    for url in (
        f"/settings/{other.pk}/import/{record.pk}/",
        f"/settings/{other.pk}/import/{record.pk}/status",
        answer["Location"],
        f"{answer['Location']}status",
        f"{import_url(team)}",
    ):
        assert stranger.get(url).status_code == 404, url
    assert (
        stranger.post(
            f"/settings/{other.pk}/import/{record.pk}/", {"csrfmiddlewaretoken": token}
        ).status_code
        == 404
    )
    record.refresh_from_db()
    assert record.state == "checked"


def test_a_file_that_is_not_utf8_is_refused_beside_the_field(team):
    client = browser(team.owner)
    client.get(import_url(team))
    answer = client.post(
        import_url(team),
        {
            "kind": "lead",
            "file": SimpleUploadedFile("l.csv", "id,name\nl-1,Zoë\n".encode("latin-1")),
            "csrfmiddlewaretoken": client.cookies["csrftoken"].value,
        },
    )
    assert answer.status_code == 400
    assert "l.csv is not UTF-8 text: save it from the spreadsheet as CSV UTF-8." in text(answer)
    assert RecordUpload.objects.count() == 0


def test_the_settings_menu_links_the_import_page(team):
    body = browser(team.admin).get(import_url(team)).content.decode()
    assert (
        f'<a href="/settings/{team.workspace.pk}/import/" class="current" aria-current="page" '
        'id="subnav-import">Import</a>'
    ) in body


def test_a_file_over_the_limit_is_refused_beside_the_field(team, monkeypatch):
    monkeypatch.setattr(imports, "UPLOAD_MAX_BYTES", 2**20)
    client = browser(team.owner)
    answer = upload(
        client, import_url(team), kind="lead", name="big.csv", content="x" * (3 * 2**19)
    )
    assert answer.status_code == 400
    assert "The file is 1.5 MB; the import takes files up to 1 MB. Split it into several." in text(
        answer
    )
    assert RecordUpload.objects.count() == 0


LEAD = '{"type": "lead", "id": "l-1", "created_at": "2026-10-01T09:00:00+00:00"}'
DEEP = '{"type": "lead", "id": "l-2", "x": ' + "[" * 50_000 + "]" * 50_000 + "}"


@pytest.mark.parametrize(
    ("kind", "content", "error"),
    [
        (
            "jsonl",
            LEAD + '\n{"type": "lead", "id": "l-2", "name": "A\\u0000B"}\n',
            {
                "line": 2,
                "column": "name",
                "message": "name holds a NUL character (\\u0000); remove it.",
            },
        ),
        (
            "jsonl",
            LEAD + '\n{"type": "lead", "id": "l-2", "name": "\\ud800"}\n',
            {
                "line": 2,
                "column": "name",
                "message": "name holds half of a surrogate pair, which is not Unicode text; "
                "remove it.",
            },
        ),
        (
            "jsonl",
            LEAD + "\n" + DEEP + "\n",
            {
                "line": 2,
                "column": "x" + ".0" * 31,
                "message": "x" + ".0" * 31 + " is nested deeper than 32 levels of objects and "
                "arrays; send a flatter body.",
            },
        ),
        (
            "jsonl",
            LEAD + '\n{"type": "lead", "id": "l-2", "x": ' + "[" * 40 + "]" * 40 + "}\n",
            {
                "line": 2,
                "column": "x" + ".0" * 31,
                "message": "x" + ".0" * 31 + " is nested deeper than 32 levels of objects and "
                "arrays; send a flatter body.",
            },
        ),
        (
            "lead",
            "id,name,created_at\nl-1,Lee,2026-10-01 09:00\nl-2," + "y" * 131_073 + ",2026-10-01\n",
            {
                "line": 3,
                "column": "",
                "message": "a cell holds more than 131,072 characters; shorten it.",
            },
        ),
    ],
)
def test_what_no_database_stores_is_refused_naming_the_line(team, kind, content, error):
    client = browser(team.owner)
    answer = upload(client, import_url(team), kind=kind, name="f.txt", content=content)
    assert answer.status_code == 302
    record = RecordUpload.objects.get()
    assert (record.state, record.errors) == ("refused", [error])
    assert not Lead.objects.filter(workspace=team.workspace).exists()


@pytest.mark.parametrize("kind", ["jsonl", "lead"])
def test_a_file_with_a_nul_character_is_refused_beside_the_field(team, kind):
    content = (
        "id,name,created_at\nl-1,Lee,2026-10-01 09:00\nl-2,A\x00B,2026-10-01 09:00\n"
        if kind == "lead"
        else LEAD + '\n{"type": "lead", "id": "l-2", "name": "A\x00B"}\n'
    )
    client = browser(team.owner)
    answer = upload(client, import_url(team), kind=kind, name="f.txt", content=content)
    assert answer.status_code == 400
    line = 3 if kind == "lead" else 2
    assert (
        f"f.txt holds a NUL character on line {line}, which is not text: remove it and upload "
        "the file again."
    ) in text(answer)
    assert RecordUpload.objects.count() == 0
