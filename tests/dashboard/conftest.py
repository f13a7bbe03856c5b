"""A small workspace with figures, and readers of the figure pages."""

import json
from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.utils import timezone

from tests.figures.conftest import Records
from workspaces.models import Call

MARCH = {"range": "custom", "from": "2026-03-01", "to": "2026-03-31"}


class Figures(HTMLParser):
    """Every element of a page that shows a figure: its data-* attributes and its text."""

    def __init__(self):
        super().__init__()
        self.found = []
        self._open = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-metric" in attrs and "data-value" in attrs:
            entry = {**attrs, "text": ""}
            self.found.append(entry)
            self._open.append((tag, entry))
        elif self._open:
            self._open.append((tag, None))

    def handle_endtag(self, tag):
        if self._open:
            self._open.pop()

    def handle_data(self, data):
        for _, entry in self._open:
            if entry is not None:
                entry["text"] += data


def shown_figures(html: str) -> list[dict]:
    parser = Figures()
    parser.feed(html)
    return parser.found


def resolve(body, path: str):
    for part in path.split("."):
        body = body[int(part)] if isinstance(body, list) else body[part]
    return body


def check_against_api(figures: list[dict], ask) -> int:
    """Every figure that names its API address equals that answer's value; returns how
    many were checked."""
    answers = {}
    checked = 0
    for figure in figures:
        api = figure.get("data-api")
        if not api:
            continue
        if api not in answers:
            response = ask(api)
            assert response.status_code == 200, (api, response.content)
            answers[api] = response.json()
        field = resolve(answers[api], figure["data-path"])
        assert field["metric"] == figure["data-metric"], (api, figure["data-path"])
        assert json.loads(figure["data-value"]) == field["value"], (api, figure["data-path"])
        checked += 1
    return checked


@pytest.fixture(autouse=True)
def _fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def team(make_workspace, make_member):
    ws = make_workspace(timezone="Europe/Berlin", name="Northwind Sales")
    members = {
        role: make_member(ws, role, name=f"{role.title()} Person")
        for role in ("owner", "admin", "manager", "closer", "setter")
    }
    return {"workspace": ws, **members}


@pytest.fixture
def figures_data(team):
    """March 2026 and the end of February, hand-built."""
    ws, closer, setter = team["workspace"], team["closer"], team["setter"]
    rec = Records(ws)
    tz = "Europe/Berlin"
    rec.rule(closer, rate="0.1")
    for day, attendance, result in [
        ("2026-03-02 10:00", Call.Attendance.SHOWED, "closed"),
        ("2026-03-03 10:00", Call.Attendance.SHOWED, "no_sale"),
        ("2026-03-03 15:00", Call.Attendance.NO_SHOW, None),
        ("2026-03-29 23:30", Call.Attendance.SHOWED, "deposit"),
        ("2026-02-20 10:00", Call.Attendance.SHOWED, "closed"),
    ]:
        lead = rec.lead(day.replace("10:00", "08:00"), tz=tz, setter=setter, utm_source="google")
        call = rec.call(day, tz=tz, lead=lead, closer=closer, setter=setter, attendance=attendance)
        if result:
            rec.outcome(result, call=call, member=closer)
    rec.call("2026-03-10 12:00", tz=tz)  # awaiting an outcome
    buyer = rec.lead("2026-03-01 09:00", tz=tz, name="Sally Sale", setter=setter)
    sale = rec.sale(400000, "2026-03-02 11:00", tz=tz, lead=buyer, closer=closer, setter=setter)
    payment = rec.payment(sale, 150000, "2026-03-02 11:05", tz=tz)
    rec.payment(sale, 50000, "2026-03-16 09:00", tz=tz)
    rec.refund(payment, 10000, "2026-03-20 10:00")
    february = rec.sale(100000, "2026-02-20 11:00", tz=tz, closer=closer)
    rec.payment(february, 100000, "2026-02-20 11:05", tz=tz)
    rec.lead("2026-03-05 09:00", tz=tz, utm_source="facebook", utm_medium="paid")
    rec.eod(closer, "2026-03-02")
    funnel = rec.funnel()
    for stage, day in [("opt-in", "2026-03-02 08:00"), ("application", "2026-03-02 09:00")]:
        rec.funnel_event(funnel, sale.lead, stage, day)
    rec.lead(timezone.now() - timedelta(minutes=30), name="Waiting Walter")
    return rec


def signed_in(member) -> Client:
    client = Client()
    client.force_login(member.user)
    return client
