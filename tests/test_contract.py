"""The check every API answer of the suite goes through (tests/contract.py) refuses what the
served description does not allow: it would otherwise pass anything without a word."""

import pytest
from django.http import HttpResponse, JsonResponse

from . import contract

ERROR = {"error": {"reason": "not_found", "message": "No."}}
CALLS = "/api/v1/calls"


def _answer(body, status=200, content_type=None, method="GET"):
    if content_type is None:
        response = JsonResponse(body, status=status, safe=False)
    else:
        response = HttpResponse(body, status=status, content_type=content_type)
    response.request = {"REQUEST_METHOD": method, "CONTENT_TYPE": ""}
    return response


def _field(metric="calls.booked", **extra):
    return {
        "metric": metric,
        "label": "Calls booked",
        "unit": "count",
        "value": 3,
        "unavailable": None,
        **extra,
    }


def _calls_envelope(**data):
    keys = [
        "booked",
        "cancelled",
        "taken",
        "no_show",
        "awaiting_outcome",
        "upcoming",
        "closed",
        "show_rate",
        "close_rate",
        "offer_rate",
    ]
    return {
        "workspace": {"id": "w", "currency": "USD"},
        "period": {"from": "2026-03-01", "to": "2026-03-30"},
        "data": {key: _field() for key in keys} | data,
        "notes": [],
    }


def test_a_described_answer_passes(db):
    side = {"label": "Calls taken", "value": 4}
    contract.check("GET", CALLS, "", _answer(_calls_envelope()))
    rate = _field("calls.show_rate", unit="rate", numerator=side, denominator=side)
    contract.check("GET", CALLS, "", _answer(_calls_envelope(show_rate=rate)))
    contract.check("GET", CALLS, "", _answer(ERROR, 401))


def test_an_undocumented_status_fails(db):
    with pytest.raises(contract.ContractError, match="status 409 is not documented"):
        contract.check("GET", CALLS, "", _answer(ERROR, 409))


def test_a_body_outside_the_schema_fails(db):
    envelope = _calls_envelope()
    del envelope["data"]["taken"]
    with pytest.raises(contract.ContractError, match="'taken' is a required property"):
        contract.check("GET", CALLS, "", _answer(envelope))
    with pytest.raises(contract.ContractError):
        contract.check("GET", CALLS, "", _answer({"error": "no"}, 400))


def test_an_undocumented_content_type_fails(db):
    with pytest.raises(contract.ContractError):
        contract.check("GET", CALLS, "", _answer("<h1>Bad request</h1>", 400, "text/html"))


def test_a_method_not_described_must_answer_405_in_the_error_shape(db):
    contract.check("DELETE", CALLS, "", _answer(ERROR, 405, method="DELETE"))
    with pytest.raises(contract.ContractError, match="DELETE is not described"):
        contract.check("DELETE", CALLS, "", _answer(ERROR, 200, method="DELETE"))
    with pytest.raises(contract.ContractError, match="not the JSON error shape"):
        contract.check("DELETE", CALLS, "", _answer("", 405, "text/html", method="DELETE"))


def test_a_path_of_neither_description_must_answer_404_in_the_error_shape(db):
    contract.check("GET", "/api/v1/nowhere", "", _answer(ERROR, 404))
    with pytest.raises(contract.ContractError, match="no served description has this path"):
        contract.check("GET", "/api/v1/nowhere", "", _answer({}, 200))


def test_the_agent_description_is_used_for_its_routes(db):
    with pytest.raises(contract.ContractError, match="status 404 is not documented"):
        contract.check("GET", "/api/v1/workspaces", "", _answer(ERROR, 404))


def test_a_server_fault_needs_the_error_shape_only(db):
    failure = {"error": {"reason": "server_error", "message": "Something went wrong."}}
    with pytest.raises(contract.ContractError, match="status 500 is not documented"):
        contract.check("GET", CALLS, "", _answer(failure, 500))
    contract.check("GET", CALLS, "", _answer(failure, 500), server_fault=True)
