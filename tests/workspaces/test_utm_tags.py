"""Lead.utm_tags: the UtmTags row of the lead's four UTM tags, kept by every lead writer."""

import pytest

from tests.conftest import aware
from workspaces.kept import utm_digest, utm_tags_ids
from workspaces.models import Lead, UtmTags
from workspaces.services import lead_upsert, leads_create, records_bulk_create

pytestmark = pytest.mark.django_db

WHEN = aware("2026-03-01 09:00")


def _kept(ws) -> dict:
    """{external id: the four tags of its kept UtmTags}, checking each against the lead."""
    found = {}
    for lead in Lead.objects.filter(workspace=ws).select_related("utm_tags"):
        tags = lead.utm_tags
        kept = (tags.source, tags.medium, tags.campaign, tags.content)
        assert kept == (lead.utm_source, lead.utm_medium, lead.utm_campaign, lead.utm_content)
        assert (tags.workspace_id, tags.digest) == (ws.pk, utm_digest(kept))
        found[lead.external_id] = kept
    return found


def test_lead_upsert_keeps_the_combination_and_follows_a_change(make_workspace):
    ws = make_workspace()
    a, _ = lead_upsert(
        workspace=ws,
        external_id="a",
        created_at=WHEN,
        utm_source="fb",
        utm_medium="paid",
        utm_campaign="spring",
        utm_content="video",
    )
    b, _ = lead_upsert(
        workspace=ws,
        external_id="b",
        created_at=WHEN,
        utm_source="fb",
        utm_medium="paid",
        utm_campaign="spring",
        utm_content="video",
    )
    c, _ = lead_upsert(workspace=ws, external_id="c", created_at=WHEN)
    assert a.utm_tags_id == b.utm_tags_id != c.utm_tags_id
    assert _kept(ws) == {
        "a": ("fb", "paid", "spring", "video"),
        "b": ("fb", "paid", "spring", "video"),
        "c": ("", "", "", ""),
    }
    lead_upsert(workspace=ws, external_id="b", created_at=WHEN, utm_source="google")
    assert _kept(ws)["b"] == ("google", "", "", "")
    assert UtmTags.objects.filter(workspace=ws).count() == 3


def test_the_same_tags_in_two_workspaces_are_two_rows(make_workspace):
    one, other = make_workspace(), make_workspace()
    tags = ("fb", "", "", "")
    assert utm_tags_ids(workspace=one, combinations=[tags]) != utm_tags_ids(
        workspace=other, combinations=[tags]
    )
    # Asked again: the rows made the first time.
    first = utm_tags_ids(workspace=one, combinations=[tags, ("", "", "", "")])
    assert first[tags] == utm_tags_ids(workspace=one, combinations=[tags])[tags]
    assert UtmTags.objects.filter(workspace=one).count() == 2


def test_tags_longer_than_an_index_entry_are_kept(make_workspace):
    ws = make_workspace()
    long = "é" * 200  # four of them: 1,600 bytes of UTF-8, a digest in the unique index
    lead_upsert(
        workspace=ws,
        external_id="l",
        created_at=WHEN,
        utm_source=long,
        utm_medium=long,
        utm_campaign=long,
        utm_content=long,
    )
    assert _kept(ws) == {"l": (long, long, long, long)}


def test_leads_create_and_records_bulk_create_keep_it(make_workspace):
    ws = make_workspace()
    leads_create(
        workspace=ws,
        leads=[
            {"external_id": "n1", "created_at": WHEN, "utm_source": "x"},
            {"external_id": "n2", "created_at": WHEN, "utm_source": "x", "utm_content": "y"},
            {"external_id": "n3", "created_at": WHEN},
        ],
    )
    records_bulk_create(
        workspace=ws,
        rows={
            Lead: [
                Lead(workspace=ws, external_id="d1", created_at=WHEN, utm_source="x"),
                Lead(workspace=ws, external_id="d2", created_at=WHEN, utm_medium="email"),
            ]
        },
    )
    kept = _kept(ws)
    assert kept == {
        "n1": ("x", "", "", ""),
        "n2": ("x", "", "", "y"),
        "n3": ("", "", "", ""),
        "d1": ("x", "", "", ""),
        "d2": ("", "email", "", ""),
    }
    assert UtmTags.objects.filter(workspace=ws).count() == 4
