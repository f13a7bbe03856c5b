"""Slack: the address is checked (Slack's own, or under SLACK_WEBHOOK_BASE) and tested on
save; the workspace's digest reaches its own channel, as Block Kit, and no other's; a
refusal worth another try is tried again."""

import pytest
from celery.exceptions import Retry
from django.core import mail
from django.test import Client

from audit.models import AuditEvent
from core.crypto import encrypt_text
from notifications import slack as slack_module
from notifications.models import NotificationSettings
from notifications.rounds import round_run
from notifications.services import settings_ensure, slack_url_of
from notifications.tasks import slack_deliver
from tests.conftest import aware

FORM = {
    "digest_hour": "8",
    "daily_digest": "on",
    "weekly_digest": "on",
    "speed_to_lead_minutes": "15",
    "eod_reminder_hour": "",
}


def signed_in(member) -> Client:
    client = Client()
    client.force_login(member.user)
    return client


def page(workspace) -> str:
    return f"/settings/{workspace.pk}/notifications/"


def test_an_address_under_the_base_is_tested_saved_encrypted_and_never_shown(team, slack):
    client = signed_in(team.owner)
    url = slack.url()
    saved = client.post(page(team.workspace), {**FORM, "slack_webhook_url": url}, follow=True)
    assert saved.status_code == 200
    assert saved.redirect_chain == [(page(team.workspace), 302)]
    assert "Notifications saved and the test message sent to Slack." in saved.text
    assert slack.received == [
        (
            "T000/B000/XXXX",
            {
                "text": "Sales figures of Northwind will be posted to this channel.",
                "blocks": [
                    {
                        "type": "section",
                        "text": {
                            "type": "mrkdwn",
                            "text": "Sales figures of Northwind will be posted to this channel.",
                        },
                    }
                ],
            },
        )
    ]
    row = NotificationSettings.objects.get(pk=team.workspace.pk)
    assert url.encode() not in bytes(row.slack_webhook_encrypted)
    assert slack_url_of(row) == url
    # Never shown again, nor written in the audit trail.
    again = client.get(page(team.workspace))
    assert url not in again.text and 'id="slack-connected"' in again.text
    event = AuditEvent.objects.get(action="notifications.updated")
    assert event.detail == {"changed": [], "slack": "connected"}
    assert url not in str(event.detail)


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("https://example.test/services/T0/B0/X", "Give a Slack incoming-webhook address under"),
        ("http://127.0.0.1:9/elsewhere/T0", "Give a Slack incoming-webhook address under"),
    ],
)
def test_an_address_outside_the_base_is_refused_on_its_field_and_nothing_saved(
    team, slack, address, message
):
    client = signed_in(team.owner)
    refused = client.post(
        page(team.workspace), {**FORM, "digest_hour": "9", "slack_webhook_url": address}
    )
    assert refused.status_code == 400
    assert message in refused.text
    assert 'id="id_slack_webhook_url"' in refused.text
    row = NotificationSettings.objects.get(pk=team.workspace.pk)
    assert (row.digest_hour, row.has_slack) == (8, False)
    assert slack.received == []
    assert not AuditEvent.objects.filter(action="notifications.updated").exists()


def test_without_a_base_only_slacks_own_address_is_taken(settings):
    settings.SLACK_WEBHOOK_BASE = ""
    for address in (
        "https://hooks.slack.com.evil.test/services/T0/B0/X",
        "https://hooks.slack.com/services/",
        "http://hooks.slack.com/services/T0/B0/X",
    ):
        with pytest.raises(slack_module.SlackRefused) as refused:
            slack_module.slack_url_check(address)
        assert refused.value.message.startswith("Give a Slack incoming-webhook address: ")


def test_a_test_message_slack_refuses_shows_its_failure_and_saves_nothing(team, slack):
    client = signed_in(team.owner)
    refused = client.post(
        page(team.workspace), {**FORM, "slack_webhook_url": slack.url("T9/B9/unknown")}
    )
    assert refused.status_code == 400
    assert "The test message did not reach Slack: Slack answered 404 (no_service)." in refused.text
    assert not NotificationSettings.objects.get(pk=team.workspace.pk).has_slack


def test_the_fields_are_checked_by_name(team):
    client = signed_in(team.owner)
    refused = client.post(
        page(team.workspace), {**FORM, "digest_hour": "24", "speed_to_lead_minutes": "0"}
    )
    assert refused.status_code == 400
    form = refused.context["form"]
    assert set(form.errors) == {"digest_hour", "speed_to_lead_minutes"}


def test_only_owners_and_admins_change_the_notifications(team):
    for member in (team.manager, team.closer):
        answer = signed_in(member).post(page(team.workspace), {**FORM, "digest_hour": "6"})
        assert answer.status_code == 403
    assert NotificationSettings.objects.get(pk=team.workspace.pk).digest_hour == 8


def test_each_workspaces_digest_reaches_its_own_channel_only(
    team, slack, make_workspace, make_member, django_capture_on_commit_callbacks
):
    other = make_workspace(name="Southwind", timezone="America/New_York")
    make_member(other, "owner")
    for workspace, hook in ((team.workspace, "T000/B000/XXXX"), (other, "T111/B111/YYYY")):
        row = settings_ensure(workspace)
        row.slack_webhook_encrypted = encrypt_text(slack.url(hook))
        row.save()
    team.rec.lead("2026-03-09 10:00", tz="America/New_York", name="Ada")
    with django_capture_on_commit_callbacks(execute=True):
        round_run(now=aware("2026-03-10 12:05"), every=True, inline=True)
    hooks = [hook for hook, _ in slack.received]
    assert sorted(hooks) == ["T000/B000/XXXX", "T111/B111/YYYY"]
    ours = next(payload for hook, payload in slack.received if hook == "T000/B000/XXXX")
    assert ours["text"] == "Daily digest of Northwind: Monday 9 March 2026"
    assert ours["blocks"][0] == {
        "type": "header",
        "text": {"type": "plain_text", "text": "Daily digest of Northwind: Monday 9 March 2026"},
    }
    lines = ours["blocks"][1]["text"]["text"].splitlines()
    assert lines[:2] == [
        "*Leads created*: 1 (+1 against the Monday before)",
        "*Calls booked*: 0 (±0 against the Monday before)",
    ]
    assert "*Show rate*: not drawn (Calls taken or no-show: none in the period.)" in lines
    assert ours["blocks"][-1]["elements"][0]["url"] == (
        f"http://127.0.0.1:8000/app/{team.workspace.pk}/"
    )
    theirs = next(payload for hook, payload in slack.received if hook == "T111/B111/YYYY")
    assert "Northwind" not in str(theirs) and "Southwind" in theirs["text"]
    # Once: the next round sends nothing more to either channel.
    with django_capture_on_commit_callbacks(execute=True):
        round_run(now=aware("2026-03-10 12:06"), every=True, inline=True)
    assert len(slack.received) == 2
    assert len(mail.outbox) == 5  # Northwind's four members, Southwind's owner


def test_a_rate_limited_message_is_tried_again(team, slack):
    row = settings_ensure(team.workspace)
    row.slack_webhook_encrypted = encrypt_text(slack.url())
    row.save()
    slack.failures = [429, 503]
    args = [str(team.workspace.pk), {"text": "hello"}]
    for retries, countdown in ((0, 60), (1, 120)):
        with pytest.raises(Retry) as again:
            slack_deliver.apply(args=args, retries=retries, throw=True)
        assert again.value.when == countdown
    assert slack.received == []
    assert slack_deliver.apply(args=args, retries=2).get() is True
    assert slack.received == [("T000/B000/XXXX", {"text": "hello"})]
