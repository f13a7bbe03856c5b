"""A lead's phone and click ids: read and normalised by the lead writer whatever brings
them (the import, HubSpot), in the workspace's country, and never answered in full."""

import json

import pytest

from integrations.hubspot.mapping import lead_write
from tests.conftest import aware
from tests.integrations.hubspot.conftest import hubspot_connection
from workspaces.identifiers import masked, workspace_country
from workspaces.importer import ImportLineError, records_import
from workspaces.models import Lead
from workspaces.services import RecordInvalid, lead_upsert, leads_create

pytestmark = pytest.mark.django_db
AT = aware("2026-10-01 09:00")


def lead(workspace, **identifiers):
    made, _ = lead_upsert(workspace=workspace, external_id="l-1", created_at=AT, **identifiers)
    return Lead.objects.get(pk=made.pk)


@pytest.mark.parametrize(
    ("zone", "country", "written", "kept"),
    [
        ("America/New_York", "", "(212) 736-5000", "+12127365000"),
        ("Europe/Berlin", "", "0151 23456789", "+4915123456789"),
        # The workspace's country wins over its zone's.
        ("UTC", "GB", "020 7946 0958", "+442079460958"),
        # A number with its country code is read as written anywhere.
        ("Australia/Sydney", "", "+44 20 7946 0958", "+442079460958"),
    ],
)
def test_a_phone_is_kept_in_e164_read_in_the_workspaces_country(
    make_workspace, zone, country, written, kept
):
    workspace = make_workspace(timezone=zone, country=country)
    assert lead(workspace, phone=written).phone == kept


def test_the_country_is_the_zones_until_one_is_set(make_workspace):
    assert workspace_country(make_workspace(timezone="Australia/Sydney")) == "AU"
    assert workspace_country(make_workspace(timezone="UTC")) == ""
    assert workspace_country(make_workspace(timezone="UTC", country="IE")) == "IE"


@pytest.mark.parametrize("written", ["call me", "12", "+1 212 736 50001"])
def test_a_phone_that_cannot_be_read_is_refused_naming_phone(make_workspace, written):
    workspace = make_workspace(timezone="America/New_York")
    with pytest.raises(RecordInvalid) as refused:
        lead(workspace, phone=written)
    assert refused.value.field == "phone"
    assert f"{written!r} is not a phone number in US" in refused.value.message
    assert not Lead.objects.filter(workspace=workspace).exists()


def test_a_bare_fbclid_becomes_metas_click_cookie_with_the_leads_creation_time(make_workspace):
    workspace = make_workspace()
    made = lead(workspace, fbclid="IwAR2abc", fbp="fb.1.1700000000000.123", gclid="Cj0KCQ")
    # 2026-10-01 09:00 UTC in milliseconds.
    assert made.fbc == "fb.1.1790845200000.IwAR2abc"
    assert (made.fbp, made.gclid, made.gbraid) == ("fb.1.1700000000000.123", "Cj0KCQ", "")
    # Given in its cookie form, it is kept as it is.
    kept = lead(workspace, fbc="fb.1.1690000000000.XYZ")
    assert kept.fbc == "fb.1.1690000000000.XYZ"
    with pytest.raises(RecordInvalid) as refused:
        lead(workspace, fbc="IwAR2abc")
    assert refused.value.field == "fbc"


def test_many_leads_at_once_read_their_identifiers_as_one_does(make_workspace):
    workspace = make_workspace(timezone="Europe/Berlin")
    made = leads_create(
        workspace=workspace,
        leads=[
            {"external_id": "a", "created_at": AT, "phone": "030 1234567", "fbclid": "F1"},
            {"external_id": "b", "created_at": AT, "gbraid": "G2"},
        ],
    )
    rows = {
        lead.external_id: (lead.phone, lead.fbc, lead.gbraid)
        for lead in Lead.objects.filter(pk__in=[m.pk for m in made])
    }
    assert rows == {
        "a": ("+49301234567", "fb.1.1790845200000.F1", ""),
        "b": ("", "", "G2"),
    }


def test_the_import_names_the_line_and_phone_and_keeps_the_rest(make_workspace):
    workspace = make_workspace(timezone="America/New_York")
    lines = [
        json.dumps(
            {
                "type": "lead",
                "id": f"l{n}",
                "created_at": "2026-10-01T09:00:00Z",
                "phone": "212 736 5000",
                "gclid": f"g{n}",
            }
        )
        for n in range(3)
    ]
    records_import(workspace=workspace, lines=lines, by_role="owner")
    assert sorted(Lead.objects.filter(workspace=workspace).values_list("phone", "gclid")) == [
        ("+12127365000", "g0"),
        ("+12127365000", "g1"),
        ("+12127365000", "g2"),
    ]
    bad = [
        *lines,
        json.dumps({"type": "lead", "id": "x", "created_at": AT.isoformat(), "phone": "nope"}),
    ]
    other = make_workspace(timezone="America/New_York")
    with pytest.raises(ImportLineError) as refused:
        records_import(workspace=other, lines=bad, by_role="owner")
    assert (refused.value.line, refused.value.field) == (4, "phone")
    assert not Lead.objects.filter(workspace=other).exists()


def test_hubspots_phone_and_click_ids_reach_the_lead(make_workspace):
    workspace = make_workspace(timezone="America/New_York")
    connection = hubspot_connection(workspace)
    contact = {
        "id": "501",
        "properties": {
            "email": "ada@example.test",
            "firstname": "Ada",
            "createdate": "2026-10-01T09:00:00Z",
            "phone": "212-736-5000",
            "hs_facebook_click_id": "IwAR9",
            "hs_google_click_id": "Cj0K",
        },
    }
    lead_write(workspace=workspace, connection=connection, contact=contact)
    made = Lead.objects.get(workspace=workspace)
    assert (made.phone, made.fbc, made.gclid) == (
        "+12127365000",
        "fb.1.1790845200000.IwAR9",
        "Cj0K",
    )
    # A phone HubSpot holds that is no number is left out; the contact still arrives, and
    # what the lead had is kept.
    contact["properties"].update(phone="ask reception", hs_google_click_id="")
    lead_write(workspace=workspace, connection=connection, contact=contact)
    made.refresh_from_db()
    assert (made.phone, made.gclid) == ("+12127365000", "Cj0K")


def test_the_journey_names_the_identifiers_and_shows_none_of_them(
    make_workspace, workspace_token, api
):
    workspace = make_workspace(timezone="America/New_York")
    made = lead(workspace, phone="212 736 5000", fbclid="IwAR2abc", wbraid="W77")
    body = api(workspace_token(workspace)).get(f"/api/v1/leads/{made.pk}/journey")
    assert body.status_code == 200
    assert body.json()["data"]["identifiers"] == ["phone", "fbc", "wbraid"]
    text = body.content.decode()
    for secret in ("2127365000", "IwAR2abc", "W77"):
        assert secret not in text
    assert masked("+12127365000") == "…5000"


def test_the_lead_page_shows_the_phone_and_click_ids_masked(make_workspace, make_member):
    from tests.dashboard.conftest import signed_in  # noqa: PLC0415

    workspace = make_workspace(timezone="America/New_York")
    owner = make_member(workspace, role="owner")
    made = lead(workspace, phone="212 736 5000", gclid="Cj0KCQabcd9876")
    page = signed_in(owner).get(f"/app/leads/{made.pk}")
    assert page.status_code == 200
    text = page.content.decode()
    assert '<dd id="lead-phone">…5000</dd>' in text
    assert '<dd id="lead-click-ids">Google click …9876</dd>' in text
    assert "2127365000" not in text and "Cj0KCQabcd" not in text
