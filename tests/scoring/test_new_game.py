"""A new game needs its own files and two registry lines: no migration and no other file.

A throwaway game (Roolz under another name) is registered for the test: the database
accepts it without a migration, an unknown key is refused naming it, and the files the
README's "Adding a game" lists are exactly the files an existing game has.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.db.migrations.autodetector import MigrationAutodetector
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.state import ProjectState

from scoring.engines.registry import ENGINES
from scoring.engines.roolz import Roolz
from scoring.models import Game
from tournaments.models import Event

ROOT = Path(__file__).resolve().parents[2]
GAME_FIELDS = ((Game, "kind"), (Event, "game"))


class Throwaway(Roolz):
    key = "throwaway"
    title = "Throwaway"


@pytest.fixture
def throwaway(monkeypatch):
    monkeypatch.setitem(ENGINES, Throwaway.key, Throwaway())  # type: ignore[index]
    return Throwaway.key


def pending_changes() -> dict:
    loader = MigrationLoader(None, ignore_no_migrations=True)
    detector = MigrationAutodetector(loader.project_state(), ProjectState.from_apps(apps))
    return detector.changes(graph=loader.graph)


def test_a_new_game_is_accepted_without_a_migration(throwaway):
    for model, name in GAME_FIELDS:
        model._meta.get_field(name).run_validators(throwaway)
    assert pending_changes() == {}


def test_an_unknown_game_is_refused_naming_it():
    for model, name in GAME_FIELDS:
        with pytest.raises(ValidationError) as refused:
            model._meta.get_field(name).run_validators("snap")
        assert "snap is not a game Tablescore knows" in refused.value.messages[0]
        assert "roolz" in refused.value.messages[0]


def test_no_migration_state_and_no_field_holds_the_list_of_games():
    """The list of games lives in the registry alone: a choices list would need a migration."""
    state = MigrationLoader(None, ignore_no_migrations=True).project_state()
    for model, name in GAME_FIELDS:
        recorded = state.models[model._meta.app_label, model._meta.model_name].fields[name]
        assert not recorded.choices, f"{model.__name__}.{name}"
        assert not model._meta.get_field(name).choices, f"{model.__name__}.{name}"
    assert Game(kind="roolz").get_kind_display() == "Roolz"
    assert Event(game="rook_sluff").get_game_display() == "Rook Sluff"


# --------------------------------------------------------------------------- the README's list


def readme_files() -> tuple[list[str], list[str]]:
    """The section "Adding a game": the game's own files (``<game>``) and the registry lines."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("### Adding a game", 1)[1].split("Nothing else", 1)[0]
    paths = re.findall(r"`([\w./<>-]+)`", section)
    own = [p for p in paths if "<game>" in p]
    registry = [p for p in paths if "<game>" not in p and "/" in p]
    return own, registry


def test_the_readme_lists_every_file_a_game_has_and_says_how_many():
    own, registry = readme_files()
    assert registry == ["scoring/engines/registry.py", "scoring/games/__init__.py"]
    for game in ENGINES:
        for pattern in own:
            assert (ROOT / pattern.replace("<game>", game)).is_file(), (game, pattern)
        # Everything in a game's folders is on the list.
        listed = {pattern.replace("<game>", game) for pattern in own}
        kit = {str(p.relative_to(ROOT)) for p in (ROOT / "scoring" / "games" / game).glob("*.py")}
        assert kit <= listed, kit - listed
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    words = {10: "ten", 11: "eleven", 12: "twelve"}
    assert f"{words[len(own)]} files of its own" in text
