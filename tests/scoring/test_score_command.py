"""`manage.py score` exactly as the game-record spec says, against every vector."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.vectors import assert_matches, vector_cases

ROOT = Path(__file__).resolve().parents[2]
CASES = vector_cases()


def run_score(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "score", *args, "--settings=config.test_settings"],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def write_record(tmp_path: Path, record: dict) -> str:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def all_vectors_scored(tmp_path_factory):
    """Score every vector through the command in one child process per case, once."""
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


def test_table_format_for_people(tmp_path):
    case = dict(vector_cases("roller_derby"))["roller_derby: all or nothing and an early finish"]
    done = run_score(write_record(tmp_path, case["record"]), "--format", "table")
    assert done.returncode == 0, done.stderr
    names = case["record"]["players"]
    header = done.stdout.splitlines()[0]
    assert all(name in header for name in names)
    totals_line = next(line for line in done.stdout.splitlines() if line.startswith("Total"))
    assert totals_line.split()[1:] == [str(t) for t in case["output"]["totals"]]
    assert "Winner" in done.stdout
