"""The OpenAPI description of the JSON API, served at /api/openapi.json."""

from __future__ import annotations

from typing import Any

from scoring.engines.registry import ENGINES

ERRORS = {
    "description": "A mistake, named by field (and round)",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Errors"}}},
}
NOT_FOUND = {"description": "No such game for this token (nothing is revealed)", **ERRORS}
TOKEN = [{"tableToken": []}]
GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "integer"}}
NUMBER = {
    "name": "number",
    "in": "path",
    "required": True,
    "schema": {"type": "integer", "minimum": 1},
}


def json_body(schema: dict[str, Any], description: str = "") -> dict[str, Any]:
    return {
        "required": True,
        "description": description,
        "content": {"application/json": {"schema": schema}},
    }


def answer(description: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "description": description,
        "content": {
            "application/json": {"schema": schema or {"$ref": "#/components/schemas/Change"}}
        },
    }


def openapi_document() -> dict[str, Any]:
    record = {
        "type": "object",
        "required": ["game", "players"],
        "properties": {
            "format": {"type": "integer", "enum": [1]},
            "game": {"type": "string", "enum": list(ENGINES)},
            "players": {"type": "array", "items": {"type": "string", "maxLength": 40}},
            "options": {"type": "object"},
            "first_dealer": {"type": "integer", "minimum": 0},
            "rounds": {"type": "array", "items": {"type": "object"}},
            "ended_early": {"type": "boolean"},
            "end": {"type": "object", "properties": {"leftovers_to": {"type": "integer"}}},
        },
        "additionalProperties": False,
    }
    round_body = {
        "type": "object",
        "required": ["number", "round"],
        "properties": {
            "number": {"type": "integer", "minimum": 1},
            "round": {"type": "object", "description": "the round input of rules.md for this game"},
            "seat": {"type": "integer", "minimum": 0, "description": "the seat entering it"},
        },
        "additionalProperties": False,
    }
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "Tablescore API",
            "version": "1",
            "description": "Games at one table: record, correct, confirm and read rounds. "
            "The table token returned at creation is the bearer credential for that game only.",
        },
        "components": {
            "securitySchemes": {"tableToken": {"type": "http", "scheme": "bearer"}},
            "schemas": {
                "Record": record,
                "Errors": {
                    "type": "object",
                    "properties": {
                        "errors": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "properties": {
                                    "round": {"type": "integer", "nullable": True},
                                    "field": {"type": "string", "nullable": True},
                                    "message": {"type": "string"},
                                },
                            },
                        }
                    },
                },
                "Change": {
                    "type": "object",
                    "properties": {"number": {"type": "integer"}, "score": {"type": "object"}},
                },
            },
        },
        "paths": {
            "/api/games/": {
                "post": {
                    "summary": "Start a game from a game record (rounds optional)",
                    "parameters": [
                        {
                            "name": "confirmation",
                            "in": "query",
                            "schema": {
                                "type": "string",
                                "enum": ["off", "any_other_seat", "other_side"],
                            },
                        }
                    ],
                    "requestBody": json_body({"$ref": "#/components/schemas/Record"}),
                    "responses": {
                        "201": answer(
                            "Created",
                            {
                                "type": "object",
                                "properties": {
                                    "id": {"type": "integer"},
                                    "token": {"type": "string"},
                                    "table_url": {"type": "string"},
                                    "score": {"type": "object"},
                                },
                            },
                        ),
                        "400": ERRORS,
                        "401": ERRORS,
                        "413": ERRORS,
                    },
                }
            },
            "/api/games/{game_id}/": {
                "get": {
                    "summary": "The record, the score and every round with its status",
                    "security": TOKEN,
                    "parameters": [GAME_ID],
                    "responses": {"200": answer("The game", {"type": "object"}), "404": NOT_FOUND},
                }
            },
            "/api/games/{game_id}/rounds/": {
                "post": {
                    "summary": "Record the next round",
                    "security": TOKEN,
                    "parameters": [
                        GAME_ID,
                        {
                            "name": "Idempotency-Key",
                            "in": "header",
                            "schema": {"type": "string", "maxLength": 128},
                        },
                    ],
                    "requestBody": json_body(round_body),
                    "responses": {
                        "201": answer("Recorded (or the first answer to this Idempotency-Key)"),
                        "400": ERRORS,
                        "404": NOT_FOUND,
                        "409": {
                            "description": "Another entry holds this number; `recorded` shows it"
                        },
                        "422": {"description": "The Idempotency-Key was used for another request"},
                    },
                }
            },
            "/api/games/{game_id}/rounds/{number}/": {
                "put": {
                    "summary": "Correct a round; the rest of the game is rescored",
                    "security": TOKEN,
                    "parameters": [GAME_ID, NUMBER],
                    "requestBody": json_body(
                        {
                            "type": "object",
                            "properties": {
                                "round": {"type": "object"},
                                "seat": {"type": "integer"},
                            },
                        }
                    ),
                    "responses": {"200": answer("Corrected"), "400": ERRORS, "404": NOT_FOUND},
                },
                "delete": {
                    "summary": "Undo the last round",
                    "security": TOKEN,
                    "parameters": [GAME_ID, NUMBER],
                    "responses": {"200": answer("Undone"), "400": ERRORS, "404": NOT_FOUND},
                },
            },
            "/api/games/{game_id}/rounds/{number}/confirm/": {
                "post": {
                    "summary": "Confirm a pending round from a seat of the other side",
                    "security": TOKEN,
                    "parameters": [GAME_ID, NUMBER],
                    "requestBody": json_body(
                        {"type": "object", "properties": {"seat": {"type": "integer"}}}
                    ),
                    "responses": {"200": answer("Confirmed"), "400": ERRORS, "404": NOT_FOUND},
                }
            },
            "/api/games/{game_id}/end/": {
                "post": {
                    "summary": "End the game: Roller Derby's early finish, Rummoli's leftovers",
                    "security": TOKEN,
                    "parameters": [GAME_ID],
                    "requestBody": json_body(
                        {
                            "type": "object",
                            "properties": {
                                "ended_early": {"type": "boolean"},
                                "end": {"type": "object"},
                            },
                        }
                    ),
                    "responses": {"200": answer("Ended"), "400": ERRORS, "404": NOT_FOUND},
                }
            },
        },
    }
