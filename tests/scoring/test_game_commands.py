"""`importgame` and `exportgame`: a record in, the same record out, scored identically."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from scoring.engines.registry import score_data
from scoring.models import Game
from tests.vectors import vector_cases

pytestmark = pytest.mark.django_db

CASES = [c for c in vector_cases() if not c[1].get("invalid")][::3]


@pytest.mark.parametrize(("case_id", "case"), CASES, ids=[c[0] for c in CASES])
def test_import_then_export_scores_identically(tmp_path, case_id, case):
    path = tmp_path / "in.json"
    path.write_text(json.dumps(case["record"]), encoding="utf-8")
    out = io.StringIO()
    call_command("importgame", str(path), stdout=out)
    game = Game.objects.get()
    assert f"Imported game {game.pk}" in out.getvalue()
    exported = io.StringIO()
    call_command("exportgame", str(game.pk), stdout=exported)
    record = json.loads(exported.getvalue())
    assert score_data(record).as_dict() == score_data(case["record"]).as_dict()
    assert record["rounds"] == case["record"]["rounds"]


def test_import_of_an_invalid_record_exits_2_and_stores_nothing(tmp_path, capsys):
    invalid = next(c for _, c in vector_cases("roolz") if c.get("invalid"))
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(invalid["record"]), encoding="utf-8")
    with pytest.raises(SystemExit) as exited:
        call_command("importgame", str(path))
    assert exited.value.code == 2
    assert capsys.readouterr().err.startswith("round ")
    assert not Game.objects.exists()
