"""An owner imports records in Chromium, without a terminal: from the overview's checklist
to the Import page, downloads the leads template, uploads it filled in, reads the preview,
confirms, watches the progress bar end and follows the result's link to the leads; a file
with an error shows its line. At 1366 and 390 pixels wide, by clicking what the page shows
(no header set by the test), with no console error or content-security-policy violation."""

from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.core.cache import cache

from workspaces.models import Lead, RecordUpload
from workspaces.services import uploads

from .conftest import PASSWORD, PHONE, BrowserErrors, shot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDE = {"width": 1366, "height": 800}
ROWS = (
    "l-101,Lee Lead,lee@example.test,2026-10-01 09:00,new,,youtube,video,autumn,ep-12\r\n"
    "l-102,Ann Other,ann@example.test,2026-10-02 14:30,new,,newsletter,email,autumn,\r\n"
    "l-103,Bo Third,bo@example.test,2026-10-03 08:15,new,,youtube,video,autumn,ep-13\r\n"
)


@pytest.fixture
def owner(make_workspace, make_member, make_user):
    workspace = make_workspace(name="Northwind Sales", timezone="Europe/Berlin")
    member = make_member(workspace, "owner", name="Olive Owner", user=False)
    member.user = make_user("olive@northwind.test")
    member.email = "olive@northwind.test"
    member.save()
    return member


@pytest.fixture
def held(monkeypatch):
    """The confirmed import waits for the test to run it, as a busy worker would: the page
    shows its progress bar meanwhile. The check runs at once (eager)."""
    sent = []
    send = uploads.task_send

    def hold(name, *, args):
        if name == uploads.UPLOAD_IMPORT_TASK:
            sent.append((name, args))
        else:
            send(name, args=args)

    monkeypatch.setattr(uploads, "task_send", hold)
    return sent


def _console_errors(context) -> list[str]:
    """Every error the console shows (BrowserErrors keeps the policy's and the scripts')."""
    seen = []
    context.on("console", lambda message: message.type == "error" and seen.append(message.text))
    return seen


def _fits(page, viewport):
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["desktop", "phone"])
def test_an_owner_imports_a_filled_template_and_opens_the_leads(
    chromium, live_server, owner, held, tmp_path, viewport
):
    workspace = owner.workspace
    suffix = "" if viewport is WIDE else "-phone"
    context = chromium.new_context(
        viewport=viewport, base_url=live_server.url, accept_downloads=True
    )
    context.set_default_timeout(15_000)
    errors = BrowserErrors(context)
    console = _console_errors(context)
    page = context.new_page()
    try:
        page.goto("/accounts/login/?next=/")
        sign_in(page, owner.email, PASSWORD)
        with page.expect_navigation():
            page.click("#checklist-import")
        assert urlsplit(page.url).path == f"/settings/{workspace.pk}/import/"

        with page.expect_download() as downloading:
            page.click("#template-lead")
        download = downloading.value
        assert download.suggested_filename == "lead-template.csv"
        template = Path(download.path()).read_bytes().decode()
        assert template == (
            "id,name,email,created_at,status,setter,utm_source,utm_medium,utm_campaign,"
            "utm_content,phone,fbclid,fbc,fbp,gclid,gbraid,wbraid\r\nl-1,Lee Lead,"
            "lee@example.test,2026-10-01 09:00,new,,youtube,video,autumn,ep-12,"
            "+44 20 7946 0958,,,,,,\r\n"
        )
        # The example row replaced by the owner's records.
        filled = tmp_path / "leads.csv"
        filled.write_bytes((template.split("\r\n")[0] + "\r\n" + ROWS).encode())

        page.select_option("#id_kind", "lead")
        page.set_input_files("#id_file", str(filled))
        with page.expect_navigation():
            page.click("#upload")
        assert page.text_content("#check-passed").strip() == (
            "Every line can be imported. Nothing is written until you confirm."
        )
        cells = page.locator("#preview-table tbody tr").all_inner_texts()
        assert [cell.split("\t")[:3] for cell in cells] == [
            ["2", "l-101", "Lee Lead"],
            ["3", "l-102", "Ann Other"],
            ["4", "l-103", "Bo Third"],
        ]
        assert Lead.objects.count() == 0
        _fits(page, viewport)
        shot(page, f"import-preview{suffix}.png")

        with page.expect_navigation():
            page.click("#confirm-import")
        page.wait_for_selector("#import-progress")
        assert page.text_content("#import-progress-text") == "0 of 3 records"
        upload = RecordUpload.objects.get()
        assert held == [("workspaces.upload_import", [str(upload.pk)])]
        # The worker has written two of the three: the bar follows.
        cache.set(uploads.progress_key(upload.pk, "queued"), (2, 3))
        page.locator("#import-progress-text", has_text="2 of 3 records").wait_for()
        assert page.evaluate("document.getElementById('import-progress').value") == 2
        # It ends: the page opens the result.
        uploads.upload_import(upload_id=upload.pk)
        page.wait_for_selector("#import-done")
        assert page.text_content("#import-done").startswith("Imported 3 records on ")
        assert page.text_content("#import-counts tr[data-type=lead] .created").strip() == "3"
        _fits(page, viewport)
        shot(page, f"import-result{suffix}.png")

        with page.expect_navigation():
            page.click("#open-lead")
        assert urlsplit(page.url).path == f"/app/{workspace.pk}/leads/"
        listed = page.text_content("main")
        for name in ("Lee Lead", "Ann Other", "Bo Third"):
            assert name in listed
    finally:
        context.close()
    assert errors.messages == [], "the browser reported errors:\n" + "\n".join(errors.messages)
    assert console == []


@pytest.fixture
def held_all(monkeypatch):
    """The check waits for the test to run it too: the page follows it with its bar."""
    sent = []
    monkeypatch.setattr(uploads, "task_send", lambda name, *, args: sent.append((name, args)))
    return sent


def test_a_file_with_an_error_shows_its_line_and_writes_nothing(
    chromium, live_server, owner, held_all, tmp_path
):
    workspace = owner.workspace
    context = chromium.new_context(viewport=WIDE, base_url=live_server.url)
    context.set_default_timeout(15_000)
    errors = BrowserErrors(context)
    console = _console_errors(context)
    page = context.new_page()
    try:
        page.goto(f"/settings/{workspace.pk}/import/")
        sign_in(page, owner.email, PASSWORD)
        bad = tmp_path / "leads.csv"
        bad.write_text(
            "id,name,created_at\r\nl-1,Lee Lead,2026-10-01 09:00\r\nl-2,Ann Other,1 October\r\n"
        )
        page.select_option("#id_kind", "lead")
        page.set_input_files("#id_file", str(bad))
        with page.expect_navigation():
            page.click("#upload")
        page.wait_for_selector("#import-progress")
        # Kept as it came: the worker reads it first, then checks each line.
        assert page.text_content("label[for=import-progress]") == "Reading the file"
        upload = RecordUpload.objects.get()
        assert held_all == [("workspaces.upload_check", [str(upload.pk)])]
        # The worker checks it: the page then shows the errors.
        uploads.upload_check(upload_id=upload.pk)
        page.wait_for_selector("#upload-errors")
        assert page.locator("#upload-errors li").all_inner_texts() == [
            "Line 3, column 'created_at': '1 October' is not a time: write it as "
            "2026-10-01 09:30 (a time in Europe/Berlin), or with its offset, "
            "2026-10-01T09:30:00+01:00."
        ]
        assert page.locator("#confirm-import").count() == 0
        shot(page, "import-errors.png")
        assert Lead.objects.count() == 0
        assert [name for name, _args in held_all] == ["workspaces.upload_check"]
    finally:
        context.close()
    assert errors.messages == [], "the browser reported errors:\n" + "\n".join(errors.messages)
    assert console == []
