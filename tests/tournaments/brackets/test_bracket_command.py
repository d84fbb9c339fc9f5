"""`manage.py bracket`: a bracket played out on the pure core, no database, no environment."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.commands import Done, run_command

ROOT = Path(__file__).resolve().parents[3]


def run_bracket(*args: str) -> Done:
    return run_command("bracket", *args)


def run_bracket_alone(*args: str) -> subprocess.CompletedProcess:
    """The entry point itself, with no environment at all: no settings module, no secret key,
    no database."""
    return subprocess.run(
        [sys.executable, "manage.py", "bracket", *args],
        cwd=ROOT,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
        capture_output=True,
        text=True,
        check=False,
    )


def bracket(*args: str) -> list[dict]:
    done = run_bracket(*args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["matches"]


def test_single_elimination_of_eight_in_play_order_with_favourites():
    matches = bracket("single", "--entrants", "8", "--third-place")
    assert [m["id"] for m in matches] == [
        "W1-1", "W1-2", "W1-3", "W1-4", "W2-1", "W2-2", "W3-1", "3P",
    ]  # fmt: skip
    assert matches[0] == {"id": "W1-1", "entrants": [1, 8], "winners": [1]}
    assert matches[6] == {"id": "W3-1", "entrants": [1, 2], "winners": [1]}


@pytest.mark.parametrize("count", [2, 3, 5, 8, 13, 32])
@pytest.mark.parametrize("seed", [1, 2])
def test_double_elimination_plays_two_n_less_two_games_or_one_more_after_a_reset(count, seed):
    random_results = ("--results", "random", "--seed", str(seed))
    matches = bracket("double", "--entrants", str(count), *random_results)
    ids = [m["id"] for m in matches]
    assert len(ids) == 2 * count - 2 + ("GF2" in ids)
    assert ids[-1] in {"GF", "GF2"}
    losses = Counter(e for m in matches for e in m["entrants"] if e not in m["winners"])
    assert all(seed_ in range(1, count + 1) for m in matches for seed_ in m["entrants"])
    champion = matches[-1]["winners"][0]
    assert losses[champion] <= 1
    assert all(losses[e] == 2 for e in range(1, count + 1) if e != champion)


def test_the_same_seed_gives_the_same_bracket_and_another_seed_another():
    first = bracket("double", "--entrants", "16", "--results", "random", "--seed", "4")
    again = bracket("double", "--entrants", "16", "--results", "random", "--seed", "4")
    other = bracket("double", "--entrants", "16", "--results", "random", "--seed", "5")
    assert first == again
    assert first != other


@pytest.mark.parametrize("final", ["none", "single", "reset"])
def test_the_grand_final_option(final):
    matches = bracket("double", "--entrants", "4", "--grand-final", final)
    ids = [m["id"] for m in matches]
    assert ("GF" in ids) == (final != "none")
    assert "GF2" not in ids  # favourites: the winners' champion wins the first final


def test_tables_list_each_tables_entrants_and_who_goes_on():
    matches = bracket("tables", "--entrants", "16", "--table-size", "4", "--advance", "2")
    first = matches[0]
    assert first["id"].startswith("R1-") and len(first["entrants"]) == 4
    assert first["winners"] == sorted(first["entrants"])[:2]
    assert matches[-1]["winners"][0] == 1


def test_text_is_a_readable_bracket_with_the_podium():
    done = run_bracket("double", "--entrants", "6", "--format", "text")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Double elimination: 6 entrants")
    assert any(line.startswith("GF") and "1 v 2" in line for line in lines)
    assert lines[-3:] == ["1. 1", "2. 2", "3. 3"]


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (("double", "--entrants", "1"), "--entrants"),
        (("tables", "--entrants", "16", "--table-size", "4", "--advance", "4"), "--advance"),
        (("single", "--entrants", "2", "--third-place"), "--third-place"),
    ],
)
def test_mistakes_name_the_option_and_exit_with_two(args, flag):
    done = run_bracket(*args)
    assert done.returncode == 2
    assert flag in done.stderr
    assert "Traceback" not in done.stderr


def test_the_command_runs_as_its_own_process_with_no_environment():
    done = run_bracket_alone("single", "--entrants", "4")
    assert done.returncode == 0, done.stderr
    assert [m["id"] for m in json.loads(done.stdout)["matches"]] == ["W1-1", "W1-2", "W2-1"]
    refused = run_bracket_alone("double", "--entrants", "1")
    assert refused.returncode == 2
    assert "--entrants" in refused.stderr
    assert "Traceback" not in refused.stderr
