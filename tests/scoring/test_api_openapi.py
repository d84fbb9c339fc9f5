"""The OpenAPI document, generated from the code: every endpoint with its body schema."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engines.base import AT_TOTALS
from scoring.engines.registry import ENGINES

pytestmark = pytest.mark.django_db

GAME = "/api/games/{game_id}/"
ROUND = GAME + "rounds/{number}/"

# (method, path, the body's schema, its documented fields, whether the body is required)
ENDPOINTS = [
    ("post", "/api/games/", "GameRecordIn", {"game", "players", "options", "rounds"}, True),
    ("get", GAME, None, set(), False),
    ("post", GAME + "rounds/", "RoundIn", {"number", "round", "seat"}, True),
    ("put", ROUND, "CorrectionIn", {"round", "seat", "number"}, True),
    ("delete", ROUND, "UndoIn", {"seat", "revision"}, True),
    ("post", ROUND + "confirm/", "ConfirmationIn", {"seat", "round"}, True),
    ("post", GAME + "end/", "EndingIn", {"seat"}, True),
]
# A player's own link (tournaments.api): tested in tests/tournaments/test_me_api.py.
OWN_LINK_ENDPOINTS = [
    ("get", "/api/me"),
    ("get", "/api/me/seat"),
    ("post", "/api/me/check-in"),
    ("post", "/api/me/drop"),
]
SIGN_UP_ENDPOINTS = [
    ("post", "/api/events/{token}/registrations/"),
    ("get", "/api/events/{token}/registrations/{registration}/"),
]


@pytest.fixture
def document(client) -> dict[str, Any]:
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    return response.json()


def resolve(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """A schema with its $ref followed (and an optional body's anyOf unwrapped)."""
    if "anyOf" in schema:
        [schema] = [s for s in schema["anyOf"] if s.get("type") != "null"]
    ref = schema.get("$ref", "")
    assert ref.startswith("#/components/schemas/"), schema
    name = ref.rsplit("/", 1)[1]
    return {"name": name, **document["components"]["schemas"][name]}


def every_ref(node: Any):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield value
            else:
                yield from every_ref(value)
    elif isinstance(node, list):
        for item in node:
            yield from every_ref(item)


def test_the_document_lists_exactly_the_endpoints_the_api_serves(document):
    listed = {(method, path) for path, ops in document["paths"].items() for method in ops}
    served = {(method, path) for method, path, *_ in ENDPOINTS}
    assert listed == served | set(OWN_LINK_ENDPOINTS) | set(SIGN_UP_ENDPOINTS)


@pytest.mark.parametrize(
    ("method", "path", "schema", "fields", "required"),
    ENDPOINTS,
    ids=[f"{m} {p}" for m, p, *_ in ENDPOINTS],
)
def test_every_endpoint_shows_its_body_schema(document, method, path, schema, fields, required):
    operation = document["paths"][path][method]
    if schema is None:
        assert "requestBody" not in operation
        return
    body = operation["requestBody"]
    assert bool(body.get("required")) is required
    shown = resolve(document, body["content"]["application/json"]["schema"])
    assert shown["name"] == schema
    for shape in shown.get("oneOf", [shown]):  # a record: one shape per game
        assert fields <= set(shape["properties"])
        for name in fields:
            assert shape["properties"][name], name


@pytest.mark.parametrize(("method", "path"), [(m, p) for m, p, *_ in ENDPOINTS])
def test_every_refusal_is_documented_as_the_errors_envelope(document, method, path):
    responses = document["paths"][path][method]["responses"]
    refusals = {code: answer for code, answer in responses.items() if code.startswith("4")}
    assert {"400", "404", "429"} <= set(refusals)
    for answer in refusals.values():
        shown = resolve(document, answer["content"]["application/json"]["schema"])
        problem = resolve(document, shown["properties"]["errors"]["items"])
        assert set(problem["properties"]) == {"round", "field", "message"}


def test_the_table_token_guards_every_game_and_only_games(document):
    assert document["components"]["securitySchemes"] == {
        "TableToken": {"type": "http", "scheme": "bearer"},
        "PrivateToken": {"type": "http", "scheme": "bearer"},
    }
    for method, path, *_ in ENDPOINTS:
        security = document["paths"][path][method].get("security")
        assert (security == [{"TableToken": []}]) is path.startswith(GAME), (method, path)


def test_games_and_their_endings_are_listed_from_the_registry(document):
    schemas = document["components"]["schemas"]
    shapes = schemas["GameRecordIn"]["oneOf"]
    assert [shape["properties"]["game"]["enum"] for shape in shapes] == [[key] for key in ENGINES]
    for shape, engine in zip(shapes, ENGINES.values(), strict=True):
        own = set(shape["properties"]) - {"format", "game", "players", "options"}
        # Any game the event's desk ended at the totals says so in its record.
        assert AT_TOTALS in own, engine.key
        assert own - {"first_dealer", "rounds", AT_TOTALS} == set(engine.record_extras), engine.key
        assert shape["additionalProperties"] is False
    extras = {key for engine in ENGINES.values() for key in engine.record_extras}
    assert extras
    assert extras <= set(schemas["EndingIn"]["properties"])


def test_each_game_shows_its_round_fields_and_options(document):
    shapes = document["components"]["schemas"]["GameRecordIn"]["oneOf"]
    for shape, engine in zip(shapes, ENGINES.values(), strict=True):
        players = engine.player_counts[0]
        fields = {spec.name for spec in engine.round_fields(players, {})}
        [rounds] = [s for s in shape["properties"]["rounds"]["anyOf"] if s["type"] == "array"]
        assert fields <= set(rounds["items"]["properties"]), engine.key
        [options] = [s for s in shape["properties"]["options"]["anyOf"] if s["type"] == "object"]
        assert set(options["properties"]) == {spec.name for spec in engine.option_specs()}
        players_shape = shape["properties"]["players"]
        assert players_shape["minItems"] <= min(engine.player_counts)
        assert players_shape["maxItems"] >= max(engine.player_counts)
        assert players_shape["items"]["minLength"] == 1


def test_the_missing_token_404_and_the_database_503_are_documented(document):
    for method, path, *_ in ENDPOINTS:
        responses = document["paths"][path][method]["responses"]
        assert "Retry-After" in responses["503"]["headers"], (method, path)
        if path.startswith(GAME):
            assert "missing" in responses["404"]["description"], (method, path)
            assert "Authorization: Bearer" in responses["404"]["description"]


def test_a_new_game_links_to_every_operation_on_it(document):
    links = document["paths"]["/api/games/"]["post"]["responses"]["201"]["links"]
    ids = {
        operation["operationId"]
        for path, methods in document["paths"].items()
        if path.startswith(GAME)
        for operation in methods.values()
    }
    assert {link["operationId"] for link in links.values()} == ids
    for link in links.values():
        assert link["parameters"]["path.game_id"] == "$response.body#/id"


def test_the_round_number_a_correction_repeats_and_the_round_a_confirmation_saw_are_documented(
    document,
):
    schemas = document["components"]["schemas"]
    assert "must match" in schemas["CorrectionIn"]["properties"]["number"]["description"]
    assert "corrected since" in schemas["ConfirmationIn"]["properties"]["round"]["description"]


def test_every_reference_in_the_document_resolves(document):
    names = set(document["components"]["schemas"])
    refs = set(every_ref(document))
    assert refs
    assert {ref.rsplit("/", 1)[1] for ref in refs} <= names


def test_the_served_document_is_valid_openapi(document):
    from openapi_spec_validator import validate

    validate(document)  # raises, naming the place, on any fault


def test_every_change_documents_the_device_header(document):
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            names = {p["name"] for p in operation.get("parameters", []) if p["in"] == "header"}
            at_a_game = path.startswith("/api/games/")
            assert ("X-Device" in names) is (method != "get" and at_a_game), (method, path)


@pytest.mark.parametrize("body", ["", "null"])
def test_an_undo_without_its_revision_is_refused_as_documented(client, document, body):
    operation = document["paths"][ROUND]["delete"]
    assert operation["requestBody"]["required"] is True
    assert "null" in operation["requestBody"]["description"]
    created = client.post(
        "/api/games/",
        '{"game": "roolz", "players": ["Ann", "Ben", "Cat", "Dan"]}',
        content_type="application/json",
    ).json()
    answer = client.delete(
        f"/api/games/{created['id']}/rounds/1/",
        body,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {created['token']}",
    )
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["field"] == "revision"


@pytest.mark.parametrize(
    "path",
    ["/api/games/%0A/", "/api/%0A", "/api/games/1%0A/", "/api/openapi.json%0A", "/api/%00"],
)
def test_every_api_path_answers_the_json_envelope(client, path):
    answer = client.get(path)
    assert answer.status_code == 404
    assert answer["Content-Type"] == "application/json"
    assert answer.json() == {"errors": [{"round": None, "field": None, "message": "not found"}]}


def test_a_method_a_path_does_not_take_answers_the_envelope(client):
    answer = client.put("/api/games/")
    assert answer.status_code == 405
    assert answer["Content-Type"] == "application/json"
    assert answer["Allow"] == "POST"
    [problem] = answer.json()["errors"]
    assert problem["message"] == "this path takes POST, not PUT"
