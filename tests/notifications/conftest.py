"""A workspace in New York with its team and yesterday's records, and a stand-in of Slack's
incoming webhooks."""

import pytest
from django.core import mail

from tests.figures.conftest import Records
from tests.notifications.slack_stand_in import SlackStandIn


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def team(make_workspace, make_member):
    """Northwind (New York, digest at 08:00) with an owner, a manager, a closer and a setter."""
    ws = make_workspace(name="Northwind", timezone="America/New_York")
    members = {
        role: make_member(ws, role, name=f"{role.title()} Person", email=f"{role}@northwind.test")
        for role in ("owner", "manager", "closer", "setter")
    }

    class Team:
        workspace = ws
        owner = members["owner"]
        manager = members["manager"]
        closer = members["closer"]
        setter = members["setter"]
        rec = Records(ws)

    mail.outbox = []
    return Team


@pytest.fixture
def slack(settings):
    server = SlackStandIn()
    settings.SLACK_WEBHOOK_BASE = f"{server.base}/services"
    yield server
    server.close()


def sent_to(kind_subject: str) -> list[str]:
    return sorted(address for m in mail.outbox if kind_subject in m.subject for address in m.to)
