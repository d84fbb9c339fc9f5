"""What the generated OpenAPI document adds to ninja's: the answers every path may give,
the table token's 404 said plainly, and links from a new game to the paths that use it.
"""

from __future__ import annotations

from typing import Any

RETRY_AFTER = {
    "Retry-After": {
        "description": "seconds to wait before trying again",
        "schema": {"type": "integer", "minimum": 0},
    }
}
NO_SUCH_GAME = (
    "No such game for this token: the same 404 when the token is missing, wrong or names "
    "another game, or the game does not exist, so that nothing is revealed about other "
    "games. Send `Authorization: Bearer <table token>` (the token returned when the game "
    "started)."
)
NOT_FOUND = "Not found: every path under /api/ the API does not know answers this envelope."
UNAVAILABLE = (
    "The database cannot be reached just now: nothing was stored; send the same request "
    "again after Retry-After seconds (with the same Idempotency-Key, a round is stored once)."
)
TOO_MANY = "Too many requests: try again after Retry-After seconds."
# The phone (or program) making a change, kept in the game's audit trail. At an event table
# the round one device entered is confirmed (or a change it asked for agreed to) from
# another: without this header every API caller is the same device, "api".
X_DEVICE = {
    "name": "X-Device",
    "in": "header",
    "required": False,
    "description": "names the device making the change (its first 64 characters are "
    'kept; "api" when absent): the audit trail shows it, and at an event table a round '
    "is confirmed from another device than the one that entered it",
    "schema": {"type": "string"},
}
UNDO_BODY = (
    "An undo names the revision it was made against: the body is required, and one "
    "missing (or null) is refused with 400 naming `revision`."
)
# A new game's id is the path's game_id for every operation on it (each also needs the
# token, sent as a header, which a link cannot carry).
LINKED = {
    "GetGame": ("get", "/api/games/{game_id}/"),
    "RecordRound": ("post", "/api/games/{game_id}/rounds/"),
    "CorrectRound": ("put", "/api/games/{game_id}/rounds/{number}/"),
    "UndoRound": ("delete", "/api/games/{game_id}/rounds/{number}/"),
    "ConfirmRound": ("post", "/api/games/{game_id}/rounds/{number}/confirm/"),
    "EndGame": ("post", "/api/games/{game_id}/end/"),
}


def _envelope(description: str, headers: dict[str, Any] | None = None) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Errors"}}},
    }
    if headers:
        answer["headers"] = headers
    return answer


def _body_required(operation: dict[str, Any]) -> None:
    """The undo's body as the server takes it: required, an object (ninja writes an
    optional body as optional and nullable, while the view refuses it missing)."""
    body = operation.get("requestBody")
    if not body:
        return
    media = body.get("content", {}).get("application/json", {})
    choices = media.get("schema", {}).get("anyOf")
    if choices:
        [media["schema"]] = [c for c in choices if c.get("type") != "null"]
    body["required"] = True
    body["description"] = UNDO_BODY


def finish(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with the answers every operation may give and the links of a new game."""
    paths: dict[str, dict[str, Any]] = document.get("paths", {})
    for methods in paths.values():
        for operation in methods.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            # ninja keys answers by number; the document's keys are text.
            responses = {str(status): answer for status, answer in operation["responses"].items()}
            guarded = any("TableToken" in item for item in operation.get("security", []))
            responses["404"] = _envelope(NO_SUCH_GAME if guarded else NOT_FOUND)
            if "429" in responses:
                responses["429"] = _envelope(TOO_MANY, RETRY_AFTER)
            responses["503"] = _envelope(UNAVAILABLE, RETRY_AFTER)
            operation["responses"] = dict(sorted(responses.items()))
    for path, methods in paths.items():
        for method, operation in methods.items():
            at_a_game = path.startswith("/api/games/")
            if method in {"post", "put", "delete"} and at_a_game and isinstance(operation, dict):
                operation.setdefault("parameters", []).append(dict(X_DEVICE))
            if method == "delete" and isinstance(operation, dict):
                _body_required(operation)
    created = paths.get("/api/games/", {}).get("post", {}).get("responses", {}).get("201")
    if created is not None:
        links: dict[str, Any] = {}
        for name, (method, path) in LINKED.items():
            operation = paths.get(path, {}).get(method)
            if operation is None:
                continue
            links[name] = {
                "operationId": operation["operationId"],
                "parameters": {"path.game_id": "$response.body#/id"},
                "description": "the new game (send its token as the bearer credential)",
            }
            if "{number}" in path:
                # A link's parameter is a runtime expression or text: round one.
                links[name]["parameters"]["path.number"] = "1"
        created["links"] = links
    return document
