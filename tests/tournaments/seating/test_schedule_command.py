"""`manage.py schedule` as game-record.md says: JSON rounds and report, status 2 on mistakes."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from tests.commands import Done, run_command

ROOT = Path(__file__).resolve().parents[3]


def run_schedule(*args: str) -> Done:
    return run_command("schedule", *args)


def schedule(*args: str) -> dict:
    done = run_schedule(*args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("fmt", ["mixer", "swiss", "round_robin", "progressive"])
def test_every_format_prints_rounds_and_a_report(fmt):
    data = schedule("--game", "roller_derby", "--players", "18", "--rounds", "3", "--format", fmt)
    assert len(data["rounds"]) == 3
    for number, plan in enumerate(data["rounds"], start=1):
        seated = [e for table in plan["tables"] for e in table]
        assert sorted(seated + plan["byes"]) == list(range(18))
        assert all(len(table) == 4 for table in plan["tables"])
        assert data["report"]["rounds"][number - 1]["round"] == number
    total = data["report"]["total"]
    for key in ("repeated_pairs", "repeated_partners", "lower_bound", "bye_spread", "seconds"):
        assert key in total
        assert key in data["report"]["rounds"][0]


@pytest.mark.parametrize("players", [12, 45, 48, 52, 56, 57, 60, 64])
def test_whist_partners_in_the_dry_run(players):
    rounds = players - 1 if players % 4 == 0 else players
    data = schedule(
        "--game", "roller_derby", "--players", str(players), "--rounds", str(rounds)
    )  # fmt: skip
    partners: Counter[frozenset[int]] = Counter()
    opponents: Counter[frozenset[int]] = Counter()
    for plan in data["rounds"]:
        for a, b, c, d in plan["tables"]:
            partners.update([frozenset((a, c)), frozenset((b, d))])
            opponents.update(frozenset(p) for p in ((a, b), (a, d), (c, b), (c, d)))
    every_pair = {frozenset(p) for p in combinations(range(players), 2)}
    assert set(partners) == every_pair and set(partners.values()) == {1}
    assert set(opponents) == every_pair and set(opponents.values()) == {2}
    assert data["report"]["total"]["repeated_partners"] == 0
    if players % 4 == 1:
        assert sorted(e for plan in data["rounds"] for e in plan["byes"]) == list(range(players))


def test_table_size_and_preferred_size():
    data = schedule(
        "--game", "rook_sluff", "--players", "40", "--rounds", "2", "--table-size", "10"
    )
    assert [len(t) for t in data["rounds"][0]["tables"]] == [10, 10, 10, 10]
    assert data["report"]["rounds"][1]["repeated_pairs"] == 32
    assert data["report"]["rounds"][1]["lower_bound"] == 32
    roolz = schedule("--game", "roolz", "--players", "21", "--rounds", "1")
    assert sorted(len(t) for t in roolz["rounds"][0]["tables"]) == [4, 4, 4, 4, 5]
    assert roolz["rounds"][0]["byes"] == []


def test_same_seed_same_schedule_and_seeds_differ():
    args = ("--game", "rummoli", "--players", "27", "--rounds", "3", "--format", "swiss")
    first, again = schedule(*args, "--seed", "4"), schedule(*args, "--seed", "4")
    other = schedule(*args, "--seed", "5")
    assert first["rounds"] == again["rounds"]
    assert first["rounds"] != other["rounds"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "chess", "--players", "8", "--rounds", "2"], "--game must be one of"),
        (["--game", "roolz", "--players", "0", "--rounds", "2"], "--players must be between"),
        (["--game", "roolz", "--players", "8", "--rounds", "0"], "--rounds must be between"),
        (
            ["--game", "rook_sluff", "--players", "8", "--rounds", "2", "--table-size", "7"],
            "--table-size: table size 7 is not legal for this game (legal: 6, 8, 10)",
        ),
        (
            [
                "--game",
                "roolz",
                "--players",
                "8",
                "--rounds",
                "2",
                "--format",
                "round_robin",
                "--table-size",
                "5",
            ],
            "round_robin seats two teams a table",
        ),
        (["--game", "roolz", "--players", "many", "--rounds", "2"], "invalid int value"),
        (["--game", "roolz", "--players", "8", "--rounds", "2", "--format", "knockout"], "choice"),
        (["--players", "8", "--rounds", "2"], "--game"),
    ],
)
def test_mistakes_exit_with_status_2_and_a_clear_message(args, message):
    done = run_schedule(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert done.stdout == ""


def test_searching_harder_from_the_command_line():
    args = ("--game", "rummoli", "--players", "18", "--rounds", "3", "--table-size", "6")
    plain = schedule(*args, "--seed", "2")
    searched = schedule(*args, "--seed", "2", "--search-steps", "100000")
    total = searched["report"]["total"]
    assert total["repeated_pairs"] < plain["report"]["total"]["repeated_pairs"]
    assert {r["method"] for r in searched["report"]["rounds"]} == {"annealed"}


def test_the_command_runs_as_its_own_process():
    """The entry point itself: a child process, its exit status and its streams."""
    args = ("--game", "roolz", "--players", "8", "--rounds", "2", "--settings=config.test_settings")
    done = subprocess.run(
        [sys.executable, "manage.py", "schedule", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["rounds"]) == 2
    refused = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "schedule",
            "--game",
            "chess",
            "--players",
            "8",
            "--rounds",
            "2",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert refused.returncode == 2
    assert refused.stdout == ""
    assert "--game must be one of" in refused.stderr
