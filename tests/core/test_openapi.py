from core import idempotency
from core.openapi import (
    BODY_LIMITS_TEXT,
    error_body,
    error_example,
    error_responses,
    idempotency_key_parameter,
)

CATALOGUE = {
    400: ("Bad.", [error_example("invalid_field", "invalid_field", "x: no.", field="x")]),
    401: ("Who?", []),
}
BODY = [error_example("invalid_body", "invalid_body", "Too big.", field="body")]


def test_the_error_body():
    assert error_body("not_found", "Nothing here.", field="id") == {
        "error": {"reason": "not_found", "message": "Nothing here."},
        "field": "id",
    }
    example = error_example("not_found", "not_found", "Nothing here.")
    assert example.value == {"error": {"reason": "not_found", "message": "Nothing here."}}
    assert example.response_only is True


def test_answers_come_from_the_catalogue():
    answers = error_responses(object, CATALOGUE, (400, 401))
    assert sorted(answers) == [400, 401]
    assert answers[400].description == "Bad."
    assert [example.name for example in answers[400].examples] == ["invalid_field"]
    assert answers[401].description == "Who?"
    assert answers[401].examples == []


def test_a_route_reading_a_body_adds_the_body_limits_to_its_400():
    answer = error_responses(object, CATALOGUE, (400,), body_examples=BODY)[400]
    assert answer.description == "Bad." + BODY_LIMITS_TEXT
    assert [example.name for example in answer.examples] == ["invalid_field", "invalid_body"]


def test_extra_replaces_the_description_and_puts_its_examples_first():
    more = [error_example("refused.x", "refused.x", "No.")]
    answer = error_responses(object, CATALOGUE, (401,), extra={401: ("Other.", more)})[401]
    assert answer.description == "Other."
    assert [example.name for example in answer.examples] == ["refused.x"]


def test_the_idempotency_key_header():
    parameter = idempotency_key_parameter("Unique to the write.")
    assert parameter.name == "Idempotency-Key"
    assert parameter.location == "header"
    assert parameter.required is True
    assert parameter.description == "Unique to the write."
    assert parameter.type == {
        "type": "string",
        "minLength": idempotency.MIN_LENGTH,
        "maxLength": idempotency.MAX_LENGTH,
    }
    assert (idempotency.MIN_LENGTH, idempotency.MAX_LENGTH) == (8, 200)
