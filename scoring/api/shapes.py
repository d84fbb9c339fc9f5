"""JSON Schemas of a game record and of a round's input, read from the engines' descriptions.

The OpenAPI document shows these, one shape per game (told apart by ``game``), so that
the document refuses what the engines refuse by shape: a missing or null key, an empty
player list, a name that is blank or too long, an option or a round field of the wrong
type or out of its range, a key the game does not know. Nothing is stated twice: the
limits come from the engines' option and field descriptions and the record's limits in
``scoring.engines.base``.

What JSON Schema cannot say stays with the engine, which answers 400 naming the round
and field: rules across fields (points that must add up, a seat beyond this table's
size, an option offered only at some table sizes, a field needed only when another is
set). The document says so in the round's description.
"""

from __future__ import annotations

from functools import cache
from itertools import product
from typing import Any

from scoring.engines.base import (
    AT_TOTALS,
    MAX_NAME_LENGTH,
    MAX_ROUNDS,
    RECORD_FORMAT,
    Engine,
    FieldSpec,
    OptionSpec,
)
from scoring.engines.registry import ENGINES

JsonSchema = dict[str, Any]

# A name: printable text (no control character) with something besides spaces in it.
PRINTABLE = r"[^\x00-\x1f\x7f-\x9f]"
NAME_PATTERN = rf"^{PRINTABLE}*[^\s\x00-\x1f\x7f-\x9f]{PRINTABLE}*$"
REASON_LENGTH = 200
ENGINE_RULES = (
    "Rules across fields (points that must add up, a seat beyond the table's size, a "
    "field needed only when another is set) are checked by the game's engine, which "
    "answers 400 naming the round and the field."
)


def _integer(minimum: int | None, maximum: int | None, step: int = 1) -> JsonSchema:
    schema: JsonSchema = {"type": "integer"}
    if minimum is not None:
        schema["minimum"] = minimum
    if maximum is not None:
        schema["maximum"] = maximum
    if step > 1:
        schema["multipleOf"] = step
    return schema


def _seat(players: int) -> JsonSchema:
    return _integer(0, players - 1)


def option_schema(spec: OptionSpec) -> JsonSchema:
    if spec.kind == "bool":
        schema: JsonSchema = {"type": "boolean"}
    elif spec.kind == "choice":
        schema = {"enum": list(spec.choices)}
    elif spec.kind == "int":
        schema = _integer(spec.minimum, spec.maximum, spec.step)
    elif spec.kind == "int_or_null":
        schema = {"anyOf": [_integer(spec.minimum, spec.maximum, spec.step), {"type": "null"}]}
    else:
        raise ValueError(f"unknown option kind {spec.kind!r}")  # a bug, not a user mistake
    return {**schema, "description": f"{spec.label}: {spec.help} Default: {spec.default!r}."}


def field_schema(spec: FieldSpec, players: int) -> JsonSchema:
    """One round field's shape at a table of ``players``."""
    number = _integer(spec.minimum, spec.maximum, spec.step)
    if spec.kind == "seat":
        schema: JsonSchema = _seat(players)
    elif spec.kind == "seats":
        schema = {"type": "array", "items": _seat(players), "maxItems": players}
    elif spec.kind == "int":
        schema = number
    elif spec.kind == "bool":
        schema = {"type": "boolean"}
    elif spec.kind == "choice":
        schema = {"enum": list(spec.choices)}
    elif spec.kind == "per_seat":
        schema = {"type": "array", "items": number, "minItems": players, "maxItems": players}
    elif spec.kind == "per_side":
        schema = {
            "type": "object",
            "properties": {key: number for key in spec.keys},
            "additionalProperties": False,
        }
    elif spec.kind == "dice":
        count = spec.count or 1
        schema = {"type": "array", "items": number, "minItems": count, "maxItems": count}
    elif spec.kind == "penalties":
        penalty = {
            "type": "object",
            "properties": {
                "player": _seat(players),
                "points": _integer(0, spec.maximum if spec.maximum is not None else 10_000),
                "reason": {
                    "type": "string",
                    "maxLength": REASON_LENGTH,
                    "pattern": rf"^{PRINTABLE}*$",
                },
            },
            "required": ["player", "points"],
            "additionalProperties": False,
        }
        schema = {"anyOf": [{"type": "array", "items": penalty}, {"type": "null"}]}
    elif spec.kind == "object":
        schema = {
            "type": "object",
            "properties": {part.name: field_schema(part, players) for part in spec.parts},
            "additionalProperties": False,
        }
    else:
        raise ValueError(f"unknown field kind {spec.kind!r}")  # a bug, not a user mistake
    if not spec.required and spec.kind != "penalties":
        schema = {"anyOf": [schema, {"type": "null"}]}  # an optional field may be sent as null
    return schema


def _option_values(spec: OptionSpec) -> list[Any]:
    if spec.kind == "bool":
        return [False, True]
    if spec.kind == "choice":
        return list(spec.choices)
    ends = [spec.default, spec.minimum, spec.maximum]
    if spec.kind == "int_or_null":
        ends.append(None)
    return list(dict.fromkeys(v for v in ends if v is not None or spec.kind == "int_or_null"))


def _option_variants(engine: Engine) -> list[dict[str, Any]]:
    """Options that may change a round's fields: every choice, numbers at their ends.

    Options for play only change no score, so no field either.
    """
    specs = [spec for spec in engine.option_specs() if not spec.play_only]
    return [
        {spec.name: value for spec, value in zip(specs, combination, strict=True)}
        for combination in product(*(_option_values(spec) for spec in specs))
    ]


def _integers_together(shapes: list[JsonSchema]) -> JsonSchema | None:
    """Integer ranges of one step that overlap or touch, as one range; else None."""
    keys = {"type", "minimum", "maximum", "multipleOf"}
    if not all(shape.get("type") == "integer" and set(shape) <= keys for shape in shapes):
        return None
    if any("minimum" not in shape or "maximum" not in shape for shape in shapes):
        return None
    steps = {shape.get("multipleOf", 1) for shape in shapes}
    if len(steps) != 1:
        return None
    step = steps.pop()
    ranges = sorted((shape["minimum"], shape["maximum"]) for shape in shapes)
    low, high = ranges[0]
    for start, end in ranges[1:]:
        if start > high + step:
            return None
        high = max(high, end)
    return _integer(low, high, step)


def _merged(shapes: list[JsonSchema]) -> JsonSchema:
    unique: list[JsonSchema] = []
    for shape in shapes:
        if shape not in unique:
            unique.append(shape)
    if len(unique) == 1:
        return unique[0]
    return _integers_together(unique) or {"anyOf": unique}


@cache
def round_schema(engine: Engine) -> JsonSchema:
    """A round's input at this game: every field any table size and options may ask for."""
    found: dict[str, list[JsonSchema]] = {}
    labels: dict[str, str] = {}
    for options in _option_variants(engine):
        for players in engine.allowed_player_counts(options):
            try:
                fields = engine.round_fields(players, options)
            except (ValueError, KeyError):  # a combination the game refuses anyway
                continue
            for spec in fields:
                found.setdefault(spec.name, []).append(field_schema(spec, players))
                labels.setdefault(spec.name, f"{spec.label}: {spec.help}")
    properties = {
        name: {**_merged(shapes), "description": labels[name]} for name, shapes in found.items()
    }
    return {
        "title": f"{engine.title} {engine.round_word.lower()}",
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
        "description": f"One {engine.round_word.lower()} of {engine.title}. {ENGINE_RULES}",
    }


@cache
def player_counts(engine: Engine) -> tuple[int, ...]:
    """Every table size the game is played at, under any of its options."""
    counts = {
        n for options in _option_variants(engine) for n in engine.allowed_player_counts(options)
    }
    return tuple(sorted(counts | set(engine.player_counts)))


def extras_schema(engine: Engine) -> dict[str, JsonSchema]:
    """The keys a game adds to its record (and takes as an ending)."""
    largest = max(player_counts(engine))
    known: dict[str, JsonSchema] = {
        "ended_early": {"type": "boolean", "description": "the game ended early"},
        "end": {
            "type": "object",
            "properties": {"leftovers_to": _seat(largest)},
            "required": ["leftovers_to"],
            "additionalProperties": False,
            "description": "who takes the chips left on the board",
        },
    }
    return {
        key: known.get(key, {"description": f"how a game of {engine.title} ended"})
        for key in sorted(engine.record_extras)
    }


def record_schema(engine: Engine) -> JsonSchema:
    counts = player_counts(engine)
    name = {"type": "string", "minLength": 1, "maxLength": MAX_NAME_LENGTH, "pattern": NAME_PATTERN}
    options = {
        "type": "object",
        "properties": {spec.name: option_schema(spec) for spec in engine.option_specs()},
        "additionalProperties": False,
    }
    return {
        "title": f"A game of {engine.title}",
        "type": "object",
        "properties": {
            "format": {"enum": [RECORD_FORMAT], "description": "the record format"},
            "game": {"enum": [engine.key], "description": "which game"},
            "players": {
                "type": "array",
                "items": name,
                "minItems": min(counts),
                "maxItems": max(counts),
                "description": "the players' names in seat order; "
                f"{engine.title} is played by {', '.join(map(str, counts))}",
            },
            "options": {
                "anyOf": [options, {"type": "null"}],
                "description": "the game's options; each left out takes its default",
            },
            "first_dealer": {**_seat(max(counts)), "description": "the seat that deals first"},
            "rounds": {
                "anyOf": [
                    {"type": "array", "items": round_schema(engine), "maxItems": MAX_ROUNDS},
                    {"type": "null"},
                ],
                "description": "rounds already played, each the input of one round",
            },
            **extras_schema(engine),
            AT_TOTALS: {
                "type": "boolean",
                "description": "the event's director ended the game at the totals standing",
            },
        },
        "required": ["game", "players"],
        "additionalProperties": False,
    }


def game_record_schema() -> JsonSchema:
    """A game record of any registered game, told apart by ``game``."""
    return {
        "oneOf": [record_schema(engine) for engine in ENGINES.values()],
        "description": "A game record (game-record.md): the players, options and any rounds "
        "already played.",
    }


def any_round_schema(description: str) -> JsonSchema:
    """A round's input of whichever game the path's game plays."""
    return {
        "anyOf": [round_schema(engine) for engine in ENGINES.values()],
        "description": description,
    }


def any_ending_schema() -> JsonSchema:
    """An ending: the seat ending the game and one of the games' own record keys."""
    properties: dict[str, JsonSchema] = {}
    for engine in ENGINES.values():
        properties.update(extras_schema(engine))
    return properties
