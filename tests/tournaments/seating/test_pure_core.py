"""The seating and bracket cores import no Django and no other app: plain data in and out."""

from __future__ import annotations

import ast
from pathlib import Path

TOURNAMENTS = Path(__file__).resolve().parents[3] / "tournaments"
CORES = (TOURNAMENTS / "seating" / "core", TOURNAMENTS / "brackets" / "core")


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_scheduling_imports_neither_django_nor_scoring():
    files = sorted(path for core in CORES for path in core.glob("*.py"))
    assert len(files) > len(CORES)
    for path in files:
        for name in imported_modules(path):
            root = name.split(".")[0]
            assert root not in {"django", "scoring", "printing"}, f"{path.name} imports {name}"
            if root == "tournaments":
                assert name.startswith(("tournaments.seating.core", "tournaments.brackets.core")), (
                    f"{path.name} imports {name}"
                )
