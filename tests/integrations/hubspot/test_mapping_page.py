"""The UTM property mapping: the owner's page, its audit event, and the leads it shapes."""

import pytest
from django.test import Client

from audit.models import AuditEvent
from integrations.hubspot.mapping import lead_write, properties_for
from integrations.models import Connection
from workspaces.models import Lead

pytestmark = pytest.mark.django_db


def page_url(portal):
    return f"/settings/{portal.ws.pk}/integrations/{portal.connection.pk}/hubspot/"


def signed_in(member):
    client = Client()
    client.force_login(member.user)
    return client


def test_an_owner_maps_the_properties_and_the_next_read_uses_them(portal, make_member):
    owner = signed_in(make_member(portal.ws, "owner", email="olga@example.test"))
    shown = owner.get(page_url(portal))
    assert shown.status_code == 200
    assert shown.context["form"].initial == {
        "utm_source": "utm_source",
        "utm_medium": "utm_medium",
        "utm_campaign": "utm_campaign",
        "utm_content": "utm_content",
    }
    answer = owner.post(
        page_url(portal),
        {
            "utm_source": "hs_analytics_source",
            "utm_medium": "",
            "utm_campaign": "hs_analytics_source_data_1",
            "utm_content": "utm_content",
        },
    )
    assert (answer.status_code, answer["Location"]) == (302, page_url(portal))
    connection = Connection.objects.get()
    assert connection.options["utm_properties"] == {
        "utm_source": "hs_analytics_source",
        "utm_medium": "",
        "utm_campaign": "hs_analytics_source_data_1",
        "utm_content": "utm_content",
    }
    event = AuditEvent.objects.get(action="integration.options_changed")
    assert (event.actor_label, event.target_id) == ("olga@example.test", str(connection.pk))
    assert properties_for(connection) == [
        "email",
        "firstname",
        "lastname",
        "createdate",
        "phone",
        "hs_facebook_click_id",
        "hs_google_click_id",
        "hs_analytics_source",
        "hs_analytics_source_data_1",
        "utm_content",
    ]
    lead_write(
        workspace=portal.ws,
        connection=connection,
        contact={
            "id": "201",
            "properties": {
                "email": "lin@example.test",
                "firstname": "Lin",
                "lastname": None,
                "createdate": "2026-03-07T11:00:00.000Z",
                "hs_analytics_source": "PAID_SOCIAL",
                "hs_analytics_source_data_1": "spring-sale",
                "utm_medium": "cpc",
                "utm_content": "carousel",
            },
        },
    )
    lin = Lead.objects.get(external_id="hubspot:201")
    assert (lin.name, lin.utm_source, lin.utm_medium, lin.utm_campaign, lin.utm_content) == (
        "Lin",
        "PAID_SOCIAL",
        "",
        "spring-sale",
        "carousel",
    )


def test_the_page_sits_in_the_workspace_settings_and_leads_back(portal, make_member):
    owner = signed_in(make_member(portal.ws, "owner"))
    content = owner.get(page_url(portal)).content.decode()
    integrations = f"/settings/{portal.ws.pk}/integrations/"
    assert (
        f'<a href="{integrations}" class="current" aria-current="page">Integrations</a>' in content
    )
    assert (
        f'<a href="{integrations}#connection-{portal.connection.pk}" class="spaced" '
        'id="back-to-integrations">Back to integrations</a>'
    ) in content


def test_a_name_that_is_no_property_is_refused(portal, make_member):
    owner = signed_in(make_member(portal.ws, "admin"))
    answer = owner.post(page_url(portal), {"utm_source": "UTM Source!"})
    assert answer.status_code == 400
    assert answer.context["form"].errors["utm_source"] == [
        "Give the property's internal name: lower-case letters, digits and underscores, "
        "starting with a letter (HubSpot → Settings → Properties → the property → Internal "
        "name)."
    ]
    assert Connection.objects.get().options.get("utm_properties") is None


def test_other_roles_and_strangers_are_refused(portal, make_member, make_workspace):
    closer = signed_in(make_member(portal.ws, "closer"))
    assert closer.get(page_url(portal)).status_code == 403
    assert closer.post(page_url(portal), {"utm_source": "x"}).status_code == 403
    stranger = signed_in(make_member(make_workspace(), "owner"))
    assert stranger.get(page_url(portal)).status_code == 404
    assert Client().get(page_url(portal)).status_code == 302
    assert Connection.objects.get().options.get("utm_properties") is None
