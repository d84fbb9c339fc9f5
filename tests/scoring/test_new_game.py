"""A new game needs its own files and one registry line: no migration and no other file.

A throwaway game (Roolz under another name) is registered for the test: the database
accepts it without a migration, an unknown key is refused naming it, and the files the
README's "Adding a game" lists are exactly the files an existing game has. Then a copy of
the house is given a fifth game made of those files alone (Roolz's, renamed) and its one
registry line (an import and an entry in the engine registry; everything else is found by
the game's key), and every generic test runs on it there and passes; a game registered
without its files fails the generic tests naming the file it lacks.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.db.migrations.autodetector import MigrationAutodetector
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.state import ProjectState

from scoring.engines.registry import ENGINES
from scoring.engines.roolz import Roolz
from scoring.games import KITS, find_kit
from scoring.models import Game
from tests import games
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
    """The section "Adding a game": the game's own files (``<game>``) and the registry."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("### Adding a game", 1)[1].split("Nothing else", 1)[0]
    paths = re.findall(r"`([\w./<>-]+)`", section)
    own = [p for p in paths if "<game>" in p]
    registry = [p for p in paths if "<game>" not in p and "/" in p]
    return own, registry


def test_the_readme_lists_every_file_a_game_has_and_says_how_many():
    own, registry = readme_files()
    assert registry == ["scoring/engines/registry.py"]
    for game in ENGINES:
        for pattern in own:
            assert (ROOT / pattern.replace("<game>", game)).is_file(), (game, pattern)
        # Everything in a game's folders is on the list.
        listed = {pattern.replace("<game>", game) for pattern in own}
        kit = {str(p.relative_to(ROOT)) for p in (ROOT / "scoring" / "games" / game).glob("*.py")}
        assert kit <= listed, kit - listed
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    words = {10: "ten", 11: "eleven", 12: "twelve"}
    assert f"{words[len(own)]} files of its own and one registry line" in text


# --------------------------------------------------------------------------- a fifth game

# The generic tests (every test that iterates the registry), run for the fifth game alone;
# the game's own rules tests (its ``test_<game>.py``) are left out, being its own.
GENERIC = (
    "tests/scoring",
    "tests/web",
    "tests/printing",
    "tests/tournaments/standings",
    "tests/i18n",
)
# Generic test modules that must each run the fifth game at least once.
MUST_COVER = (
    "tests/i18n/test_table_pages.py",
    "tests/printing/test_scoresheets.py",
    "tests/scoring/engines/test_contract.py",
    "tests/scoring/engines/test_incremental.py",
    "tests/scoring/engines/test_vectors.py",
    "tests/scoring/test_api.py",
    "tests/scoring/test_api_shapes.py",
    "tests/scoring/test_projection.py",
    "tests/tournaments/standings/test_policy.py",
    "tests/tournaments/standings/test_results.py",
    "tests/web/test_game_kits.py",
    "tests/web/test_recent_score.py",
    "tests/web/test_table_forms.py",
    "tests/web/test_table_pages.py",
    "tests/web/test_table_parts.py",
    "tests/web/test_table_save_answer.py",
    "tests/web/test_table_views.py",
)
# The browser's generic tests, only collected here (they drive Chromium).
BROWSER = (
    "tests/browser/test_table_in_sight.py",
    "tests/browser/test_table_look.py",
    "tests/browser/test_table_screens.py",
)
# What git leaves out (caches, databases, collected and made files) is not copied.
LEFT_OUT = (
    *(".venv", ".git", "__pycache__", "*.pyc", "*_cache", ".hypothesis", "*.egg-info"),
    *("db.sqlite3*", "test-db*", "staticfiles", "media", "test-artifacts", "build", "*.pdf"),
    *("results", ".demo-director", "venue-data", "celerybeat-schedule*"),
)
RUMMOLI = "from scoring.engines.rummoli import Rummoli\n"
# The one registry line (an import and an entry), made as a person would make it.
REGISTRY = "scoring/engines/registry.py"
REGISTRY_LINE = (
    (RUMMOLI, RUMMOLI + "from scoring.engines.throwaway import Throwaway\n"),
    ("Rummoli())", "Rummoli(), Throwaway())"),
)


def renamed(text: str) -> str:
    return (
        text.replace("roolz", "throwaway")
        .replace("Roolz", "Throwaway")
        .replace("ROOLZ", "THROWAWAY")
    )


def house_with_a_fifth_game(root: Path, *, own_files: bool = True) -> Path:
    """A copy of the house with Roolz's own files, renamed, as the game ``throwaway``, and
    its registry line; ``own_files=False`` leaves out what the generic tests expect of it."""
    house = root / "house"
    shutil.copytree(ROOT, house, ignore=shutil.ignore_patterns(*LEFT_OUT), symlinks=True)
    (house / ".venv").symlink_to(ROOT / ".venv")
    own, _ = readme_files()
    for pattern in own:
        if not own_files and pattern.startswith("tests/scoring/engines/expected/"):
            continue
        made = house / pattern.replace("<game>", "throwaway")
        made.parent.mkdir(parents=True, exist_ok=True)
        source = ROOT / pattern.replace("<game>", "roolz")
        made.write_text(renamed(source.read_text(encoding="utf-8")), encoding="utf-8")
    text = (house / REGISTRY).read_text(encoding="utf-8")
    for old, new in REGISTRY_LINE:
        assert text.count(old) == 1, f"{REGISTRY} no longer reads {old!r}: update this test"
        text = text.replace(old, new)
    (house / REGISTRY).write_text(text, encoding="utf-8")
    return house


def changed_files(house: Path) -> set[str]:
    """Every file of the copy that differs from the house or is new in it."""
    changed = set()
    for folder, folders, files in os.walk(house):  # the .venv link is not followed
        folders[:] = [name for name in folders if name != "__pycache__"]
        for file in files:
            path = Path(folder) / file
            name = str(path.relative_to(house))
            original = ROOT / name
            if path.is_symlink():
                continue
            if not original.is_file() or original.read_bytes() != path.read_bytes():
                changed.add(name)
    return changed


def pytest_in(house: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """The test suite run in ``house`` on its own SQLite file, with no services."""
    dropped = ("DATABASE_URL", "REDIS_URL", "REQUIRE_SERVICES", "SQLITE_PATH", "PYTEST_")
    environment = {k: v for k, v in os.environ.items() if not k.startswith(dropped)}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *arguments],
        cwd=house,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_fifth_game_is_its_own_files_and_one_registry_line_and_passes_every_generic_test(
    tmp_path,
):
    house = house_with_a_fifth_game(tmp_path)
    own, _ = readme_files()
    made = {pattern.replace("<game>", "throwaway") for pattern in own}
    assert changed_files(house) == made | {REGISTRY}
    own_tests = "tests/scoring/engines/test_throwaway.py"
    ran = pytest_in(
        house, "-rN", "-k", "throwaway", "-m", "not browser", "--ignore", own_tests, *GENERIC
    )
    assert ran.returncode == 0, ran.stdout[-4000:] + ran.stderr[-2000:]
    listed = pytest_in(house, "--collect-only", "-k", "throwaway", *GENERIC, *BROWSER)
    assert listed.returncode == 0, listed.stdout[-4000:] + listed.stderr[-2000:]
    covered = {line.split("::")[0] for line in listed.stdout.splitlines() if "::" in line}
    missing = [module for module in (*MUST_COVER, *BROWSER) if module not in covered]
    assert not missing, f"generic tests that never run the fifth game: {missing}"
    summary = ran.stdout.strip().splitlines()[-1]  # none skipped, none failed
    assert re.fullmatch(r"\d+ passed, \d+ deselected in .*", summary), summary


def test_a_fifth_game_without_its_expected_file_fails_the_generic_tests_naming_it(tmp_path):
    house = house_with_a_fifth_game(tmp_path, own_files=False)
    ran = pytest_in(house, "--collect-only", "tests/printing/test_scoresheets.py")
    assert ran.returncode != 0
    assert "tests/scoring/engines/expected/throwaway.py" in ran.stdout


def test_the_games_test_data_are_found_for_every_registered_game_or_named_missing(throwaway):
    for game in ENGINES:
        if game != throwaway:
            assert games.samples(game).sample_record(rounds=1, seed=1)["game"] == game
            assert games.expected(game).SHEET_HEADINGS
    with pytest.raises(LookupError, match=r"scoring/engines/samples/throwaway\.py"):
        games.samples(throwaway)
    with pytest.raises(LookupError, match=r"tests/scoring/engines/expected/throwaway\.py"):
        games.expected(throwaway)
    with pytest.raises(LookupError, match="snap is not a registered game"):
        games.expected("snap")


def test_a_game_s_kit_is_found_by_its_key_and_a_game_without_one_is_named(throwaway):
    """The kits follow the engine registry: one per registered game, none listed by hand."""
    assert set(KITS) == set(ENGINES) - {throwaway}
    assert all(KITS[game].key == game for game in KITS)
    with pytest.raises(LookupError, match=r"scoring/games/throwaway/__init__\.py"):
        find_kit(throwaway)
    source = (ROOT / "scoring" / "games" / "__init__.py").read_text(encoding="utf-8")
    assert not [game for game in KITS if game in source]
