"""The client reads what the service adds after it was made: an answer carrying a metric
id, a unit, a note code or a reason it has never seen keeps each as the plain string it
came as, and a correctly signed delivery of a new event type verifies."""

import base64
import json
import time
from pathlib import Path

import httpx
import salesfigures
from standardwebhooks import Webhook

ROOT = Path(__file__).resolve().parents[2]


def _example(path: str) -> dict:
    description = json.loads((ROOT / "docs" / "openapi" / "figures.json").read_text())
    content = description["paths"][path]["get"]["responses"]["200"]["content"]
    return next(iter(content["application/json"]["examples"].values()))["value"]


def _client(answer: dict) -> salesfigures.Client:
    def reply(request):
        return httpx.Response(200, json=answer)

    return salesfigures.Client(
        "svc_test", base_url="http://figures.test", transport=httpx.MockTransport(reply)
    )


def test_values_the_client_has_never_seen_are_kept_as_their_strings():
    answer = _example("/api/v1/payments")
    answer["data"]["cash_collected"].update(metric="payments.cash_forecast", unit="multiple")
    answer["data"]["sales"]["unavailable"] = {
        "code": "goal_not_set",
        "reason": "No goal is set for the month.",
    }
    answer["notes"] = [
        {"subject": "payments.sales", "code": "estimated", "reason": "Read from a forecast."}
    ]
    figures = _client(answer).list_payment_figures()
    cash = figures.data.cash_collected
    assert (cash.metric, cash.unit) == ("payments.cash_forecast", "multiple")
    assert str(cash.metric) == "payments.cash_forecast"
    [note] = figures.notes
    assert (note.code, str(note.code), note.reason) == (
        "estimated",
        "estimated",
        "Read from a forecast.",
    )
    assert figures.data.sales.unavailable.code == "goal_not_set"
    # Known values are still the client's own members.
    assert figures.data.refunded.unit is type(cash.unit).MONEY
    # And what it read is written back as it came.
    assert figures.to_dict()["data"]["cash_collected"]["unit"] == "multiple"


def test_a_signed_delivery_of_a_new_event_type_verifies():
    secret = "whsec_" + base64.b64encode(b"k" * 32).decode()
    body = json.dumps(
        {
            "id": "evt_01JNEWTYPE",
            "type": "goal.updated",
            "timestamp": "2026-12-02T09:00:00Z",
            "workspace_id": "6aae3a4b-4aa8-44c4-a3b3-63f62b454838",
            "data": {"month": "2026-12", "goals": []},
        }
    )
    now = int(time.time())
    signature = Webhook(secret).sign("evt_01JNEWTYPE", _moment(now), body)
    headers = {
        "webhook-id": "evt_01JNEWTYPE",
        "webhook-timestamp": str(now),
        "webhook-signature": signature,
    }
    event = salesfigures.verify_webhook(secret, headers, body)
    assert (event.type_, event.id) == ("goal.updated", "evt_01JNEWTYPE")
    assert event.data["month"] == "2026-12"


def _moment(seconds: int):
    import datetime  # noqa: PLC0415

    return datetime.datetime.fromtimestamp(seconds, tz=datetime.timezone.utc)  # noqa: UP017
