"""The worked cases of the game-record spec, kept with the tests as data."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

VECTOR_DIR = Path(__file__).resolve().parent / "data" / "vectors"


def vector_cases(game: str | None = None) -> list[tuple[str, dict[str, Any]]]:
    """(test id, case) for every vector, optionally of one game: ``<game>.json`` and
    any ``<game>.<topic>.json`` beside it."""
    cases = []
    for path in sorted(VECTOR_DIR.glob("*.json")):
        if game and path.stem.split(".")[0] != game:
            continue
        for case in json.loads(path.read_text(encoding="utf-8")):
            cases.append((f"{path.stem}: {case['name']}", case))
    return cases


RUMMOLI_RULES_EXAMPLE = "rummoli: two hands and leftovers"  # the worked example of rules.md


def vector_record(case_id: str) -> dict[str, Any]:
    """A fresh copy of one vector's record, by its id ("game: name")."""
    return copy.deepcopy(dict(vector_cases())[case_id]["record"])


def assert_matches(expected: Any, actual: Any, where: str = "output") -> None:
    """Every key of ``expected`` is in ``actual`` with that value; lists match item by item."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{where}: missing key {key!r}"
            assert_matches(value, actual[key], f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list), f"{where}: expected a list, got {actual!r}"
        assert len(actual) == len(expected), (
            f"{where}: {len(actual)} items, expected {len(expected)}"
        )
        for index, (want, got) in enumerate(zip(expected, actual, strict=True)):
            assert_matches(want, got, f"{where}[{index}]")
    else:
        assert actual == expected, f"{where}: {actual!r} != {expected!r}"
