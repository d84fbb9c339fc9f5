"""The standings core stays pure: no framework import anywhere in it."""

from __future__ import annotations

from pathlib import Path

from tests.test_foundation import imported_modules

CORE = Path(__file__).resolve().parents[3] / "tournaments" / "standings"


def test_standings_import_no_framework():
    files = sorted(CORE.rglob("*.py"))
    assert files
    offenders = {
        path.name: sorted(
            m for m in imported_modules(path) if m.split(".")[0] in {"django", "celery"}
        )
        for path in files
    }
    assert {name: mods for name, mods in offenders.items() if mods} == {}


def test_standings_read_nothing_of_scoring_but_its_pure_engines():
    imported = {m for path in CORE.rglob("*.py") for m in imported_modules(path)}
    outside = {
        m for m in imported if m.startswith("scoring") and not m.startswith("scoring.engines")
    }
    assert outside == set()
