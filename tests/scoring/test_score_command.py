"""`manage.py score` exactly as the game-record spec says, against every vector."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.commands import Done, run_command
from tests.vectors import assert_matches, vector_cases

ROOT = Path(__file__).resolve().parents[2]
CASES = vector_cases()


def run_score(*args: str, stdin: str | None = None) -> Done:
    return run_command("score", *args, stdin=stdin or "")


def write_record(tmp_path: Path, record: dict) -> str:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def all_vectors_scored(tmp_path_factory):
    """Score every vector through the command, once, in this process."""
    folder = tmp_path_factory.mktemp("vectors")
    results = {}
    for case_id, case in CASES:
        path = folder / f"{len(results)}.json"
        path.write_text(json.dumps(case["record"]), encoding="utf-8")
        results[case_id] = run_score(str(path))
    return results


@pytest.mark.parametrize(("case_id", "case"), CASES, ids=[c[0] for c in CASES])
def test_score_command_agrees_with_the_vector(case_id, case, all_vectors_scored):
    done = all_vectors_scored[case_id]
    if case.get("invalid"):
        assert done.returncode == 2, done.stdout
        assert done.stdout == ""
        assert done.stderr.strip(), "an invalid record must say why"
    else:
        assert done.returncode == 0, done.stderr
        assert done.stderr == ""
        assert_matches(case["output"], json.loads(done.stdout))


def test_the_command_runs_as_its_own_process(tmp_path):
    """The entry point itself: a child process, its exit status and its streams."""
    record = {"game": "roolz", "players": ["A", "B"], "rounds": []}
    done = subprocess.run(
        [sys.executable, "manage.py", "score", "-", "--settings=config.test_settings"],
        cwd=ROOT,
        input=json.dumps(record),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["totals"] == [0, 0]
    broken = subprocess.run(
        [sys.executable, "manage.py", "score", "-", "--settings=config.test_settings"],
        cwd=ROOT,
        input="{not json",
        capture_output=True,
        text=True,
        check=False,
    )
    assert broken.returncode == 2
    assert broken.stdout == ""
    assert "not valid JSON" in broken.stderr


def test_problems_name_the_round_and_field(tmp_path):
    record = {
        "format": 1,
        "game": "roolz",
        "players": ["Ann", "Ben", "Cat", "Dan"],
        "rounds": [
            {"bidder": 0, "bid": 200, "won": {"A": 190, "B": 110}},
            {"misdeal": True},
            {"bidder": 1, "bid": 172, "won": {"A": 65, "B": 235}},
        ],
    }
    done = run_score(write_record(tmp_path, record))
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert lines and all(line.startswith("round 3: ") for line in lines)
    assert "172" in done.stderr and "multiple of 5" in done.stderr


def test_reads_standard_input():
    record = {"game": "roolz", "players": ["A", "B"], "rounds": []}
    done = run_score("-", stdin=json.dumps(record))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["totals"] == [0, 0]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "JSON object"),
        ('{"game": "chess", "players": ["A", "B"]}', "game must be one of"),
        ('{"game": "roolz", "players": ["A", "B"], "colour": 1}', "unknown key"),
        ('{"game": "roolz", "players": ["A", "B"], "options": {"speed": 2}}', "unknown option"),
    ],
)
def test_bad_records_exit_2_with_a_message(text, message):
    done = run_score("-", stdin=text)
    assert done.returncode == 2
    assert done.stdout == ""
    assert message in done.stderr


def test_missing_file_exits_2(tmp_path):
    done = run_score(str(tmp_path / "absent.json"))
    assert done.returncode == 2
    assert "cannot read" in done.stderr


def table_lines(tmp_path, case_id: str, record: dict | None = None) -> list[str]:
    data = record if record is not None else dict(CASES)[case_id]["record"]
    done = run_score(write_record(tmp_path, data), "--format", "table")
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_table_early_finish_teams_once_and_inputs(tmp_path):
    case_id = "roller_derby: all or nothing and an early finish"
    lines = table_lines(tmp_path, case_id)
    assert lines[0].split() == ["Deal", "Dealer", "A:", "Ann", "&", "Cat", "B:", "Ben", "&", "Dan",
                                "Inputs"]  # fmt: skip
    assert "Cat rolled 2+2 = 4, all or nothing, failed: 0 points" in lines[3]
    totals_line = next(line for line in lines if line.startswith("Total"))
    assert totals_line.split()[1:] == ["0", "190"]  # one figure per team
    assert lines[-1] == "Finished early, after 3 of 4 deals. Winner: B (Ben & Dan)"


def test_table_misdeal_and_partners_who_win_together(tmp_path):
    lines = table_lines(tmp_path, "roolz: 5 players: a misdeal is recorded for a dealing error")
    misdeal = lines[2].split()
    assert misdeal == ["1", "Ann", "misdeal", "Misdeal:", "the", "same", "dealer", "deals", "again"]
    assert "Ben bid 170 with Cat, made: 200 to 100" in lines[3]
    won = table_lines(tmp_path, "roolz: 5 players: partners who reach the target together win "
                      "together")  # fmt: skip
    assert won[-1] == "Finished. Winners together: Ann & Ben"


def test_table_draw_and_called_partner_alone(tmp_path):
    record = {
        "game": "rook_sluff",
        "players": ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"],
        "options": {"deals": 1},
        "rounds": [{"bids": [1, 1, 1, 1, 1, 1], "tricks": [3, 2, 2, 3, 2, 2]}],
    }
    lines = table_lines(tmp_path, "", record)
    assert lines[-1] == "Finished. Draw: A (Ann & Cat & Eve), B (Ben & Dan & Fay)"
    alone = table_lines(tmp_path, "roolz: called partner: the bidder holds the called card and "
                        "plays alone")  # fmt: skip
    assert "Ann bid 180 alone, made: 200 to 100" in alone[2]


def test_table_rummoli_hands_leftovers_row_and_board(tmp_path):
    lines = table_lines(tmp_path, "rummoli: two hands and leftovers")
    assert lines[0].split()[:2] == ["Hand", "Dealer"]
    assert "Ben went out, takes 4 from the rummoli and collects 10 for cards left" in lines[2]
    left = next(line for line in lines if line.startswith(" Left"))
    assert left.split()[1:9] == ["47", "(+0)", "50", "(+0)", "33", "(+0)", "70", "(+30)"]
    assert left.endswith("Leftovers: Dan takes the 30 chips left on the board")
    assert "Board  empty" in lines
    first_hand = dict(CASES)["rummoli: two hands and leftovers"]["record"]
    open_game = {**first_hand, "rounds": first_hand["rounds"][:1]}
    open_game.pop("end", None)
    board = table_lines(tmp_path, "", open_game)
    assert "Board  8 chips: queen of clubs 4, 7-8-9 of a suit 4" in board
    assert board[-1] == "In progress."
