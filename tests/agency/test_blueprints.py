"""Blueprints: create or replace under a key, list and read."""

import pytest

from agency.models import Blueprint

pytestmark = pytest.mark.django_db

BODY = {
    "name": "Coaching team",
    "settings": {"timezone": "Europe/London"},
    "team": [{"email": "Lead@Coach.test", "name": "Lead", "role": "manager"}],
    "programmes": [{"name": "Core", "price": "99.5"}],
    "integrations": ["calendly"],
}


def test_put_creates_then_replaces(agency_world, write, api, django_assert_max_num_queries):
    created = write(agency_world.full, "PUT", "/api/v1/templates/coaching-v2", BODY)
    assert created.status_code == 201
    body = created.json()
    assert {
        k: body[k] for k in ("key", "name", "settings", "team", "programmes", "integrations")
    } == {
        "key": "coaching-v2",
        "name": "Coaching team",
        "settings": {"timezone": "Europe/London"},
        "team": [{"email": "lead@coach.test", "name": "Lead", "role": "manager"}],
        "programmes": [{"name": "Core", "price": "99.5"}],
        "integrations": ["calendly"],
    }
    replaced = write(agency_world.full, "PUT", "/api/v1/templates/coaching-v2", {"name": "Lean"})
    assert replaced.status_code == 200
    assert replaced.json()["name"] == "Lean"
    assert replaced.json()["team"] == []
    assert replaced.json()["created_at"] == body["created_at"]
    assert Blueprint.objects.count() == 1

    write(agency_world.full, "PUT", "/api/v1/templates/another", {"name": "Another"})
    client = api(agency_world.read)
    with django_assert_max_num_queries(3):
        listed = client.get("/api/v1/templates")
    assert [b["key"] for b in listed.json()["blueprints"]] == ["another", "coaching-v2"]
    got = client.get("/api/v1/templates/coaching-v2")
    assert got.status_code == 200 and got.json()["name"] == "Lean"


@pytest.mark.parametrize(
    "key, body, field",
    [
        ("Bad_Key", {"name": "x"}, "key"),
        ("a" * 65, {"name": "x"}, "key"),
        ("ok", {}, "name"),
        ("ok", {"name": "x", "workspace": {"id": "y"}}, "workspace"),
        ("ok", {"name": "x", "blueprint": "other"}, "blueprint"),
        (
            "ok",
            {"name": "x", "team": [{"email": "a@b.test", "name": "A", "role": "boss"}]},
            "team.0.role",
        ),
    ],
)
def test_unusable_blueprints_answer_400(agency_world, write, key, body, field):
    response = write(agency_world.full, "PUT", f"/api/v1/templates/{key}", body)
    assert response.status_code == 400
    assert response.json()["error"]["reason"] == "invalid_field"
    assert response.json()["field"] == field
    assert Blueprint.objects.count() == 0
