"""Every registered game has its home: kit, entry template, script, samples and vectors.

The contract iterates the engine registry, so a new game is held to it without a
change here; and a game's name appears outside its own files only where a registry
lists it.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.template.loader import get_template

from scoring.engines.registry import ENGINES
from scoring.entry.fields import KINDS
from scoring.games import KITS, kit_for
from tests.web.test_table_views import make_game, url

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(ENGINES)
SCANNED = ("common", "config", "scoring", "printing", "tournaments", "templates", "static")
TEXT = {".py", ".html", ".js", ".css", ".json", ".txt", ".md", ".svg", ".webmanifest"}
# The one list of games: the engine registry (the kits are found by the game's key).
REGISTRY_LINES = {"scoring/engines/registry.py"}
# The first migrations recorded the list of games before it moved to the registry alone
# (later migrations hold no game: tests/scoring/test_new_game.py); they are history.
HISTORY = ("scoring/migrations/0001_initial.py", "tournaments/migrations/0001_initial.py")
# The demo event is a club night of one game, chosen by name.
DEMOS = {"tournaments/management/commands/demoevent.py": "roolz"}


def own_files(game: str) -> tuple[str, ...]:
    return (
        f"scoring/engines/{game}.py",
        f"scoring/engines/samples/{game}.py",
        f"scoring/games/{game}/",
        f"templates/scoring/entry/{game}.html",
        f"static/js/games/{game}.js",
    )


def names_of(game: str) -> re.Pattern[str]:
    """The game's key and display name, as code or text may spell them."""
    words = {game, game.replace("_", " "), game.replace("_", "-"), ENGINES[game].title}
    spelled = "|".join(re.escape(w).replace(r"\ ", r"[ _-]") for w in sorted(words))
    return re.compile(rf"(?<![A-Za-z]){spelled}(?![A-Za-z])", re.IGNORECASE)


def scanned_files() -> list[Path]:
    return [
        path
        for top in SCANNED
        for path in sorted((ROOT / top).rglob("*"))
        if path.is_file() and path.suffix in TEXT and "__pycache__" not in path.parts
    ]


def naming(game: str) -> set[str]:
    pattern = names_of(game)
    return {
        str(path.relative_to(ROOT))
        for path in scanned_files()
        if pattern.search(path.read_text(encoding="utf-8", errors="replace"))
    }


# --------------------------------------------------------------------------- the contract


@pytest.mark.parametrize("game", GAMES)
def test_every_engine_has_its_kit(game):
    kit = kit_for(game)
    assert kit.key == game
    assert kit.word
    assert issubclass(kit.entry_form, object)


def test_no_kit_without_an_engine():
    assert set(KITS) == set(ENGINES)


@pytest.mark.parametrize("game", GAMES)
def test_every_engine_has_its_template_script_samples_and_vectors(game):
    kit = kit_for(game)
    get_template(kit.entry_template)  # raises when missing
    assert kit.entry_template == f"scoring/entry/{game}.html"
    assert finders.find(kit.script), kit.script
    assert kit.script == f"js/games/{game}.js"
    samples = importlib.import_module(f"scoring.engines.samples.{game}")
    assert callable(samples.sample_record)
    assert (ROOT / "tests" / "data" / "vectors" / f"{game}.json").is_file()


@pytest.mark.parametrize("game", GAMES)
def test_every_field_of_every_game_has_a_kind(game):
    engine = ENGINES[game]
    for players in engine.player_counts:
        options = {spec.name: spec.default for spec in engine.option_specs()}
        for spec in engine.round_fields(players, options):
            assert spec.kind in KINDS, (game, spec.name, spec.kind)
            for part in spec.parts:
                assert part.kind in KINDS, (game, spec.name, part.name)


@pytest.mark.parametrize("game", GAMES)
def test_a_game_is_named_only_in_its_own_files_and_the_registry(game):
    allowed = own_files(game)
    stray = sorted(
        path
        for path in naming(game)
        if not path.startswith(allowed)
        and path not in REGISTRY_LINES
        and not path.startswith(HISTORY)
        and DEMOS.get(path) != game
    )
    assert stray == [], f"{game} is named outside its own files: {stray}"


def test_the_scan_finds_a_name_where_one_is():
    """The scan is not blind: each game's own engine names it."""
    for game in GAMES:
        assert f"scoring/engines/{game}.py" in naming(game)


# --------------------------------------------------------------------------- limits said once


def number_inputs(html: str) -> dict[str, dict[str, str]]:
    found = {}
    for tag in re.findall(r'<input type="number"[^>]*>', html, re.S):
        name = re.search(r'name="([^"]+)"', tag)
        if name:
            found[name.group(1)] = dict(re.findall(r'\s(min|max|step)="([^"]*)"', tag))
    return found


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_the_page_takes_every_limit_from_the_engine(client, game):
    engine = ENGINES[game]
    players = [f"P{n}" for n in range(engine.player_counts[0])]
    made = make_game(game, players=players)
    html = client.get(url("table", made)).content.decode()
    inputs = number_inputs(html)
    checked = 0
    for spec in engine.round_fields(len(players), made.options):
        for name, limits in inputs.items():
            if name != spec.name and not re.fullmatch(rf"{re.escape(spec.name)}-\w+", name):
                continue
            if spec.minimum is not None:
                assert limits.get("min") == str(spec.minimum), (name, limits)
            if spec.maximum is not None:
                assert limits.get("max") == str(spec.maximum), (name, limits)
            checked += 1
        offered = chip_values(html, spec.name)
        if offered and spec.minimum is not None and spec.maximum is not None:
            assert offered == set(range(spec.minimum, spec.maximum + 1)), (spec.name, offered)
            checked += 1
    assert checked, f"no number box of {game} was checked"


def chip_values(html: str, name: str) -> set[int]:
    """The whole numbers offered as chips for a field (or its parts: dice-0, dice-1)."""
    values = set()
    for tag in re.findall(r'<input type="radio"[^>]*>', html, re.S):
        named = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="(-?\d+)"', tag)
        if named and value and re.fullmatch(rf"{re.escape(name)}(-\d+)?", named.group(1)):
            values.add(int(value.group(1)))
    return values
