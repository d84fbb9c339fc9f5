"""The scheduling core imports no Django and no other app: plain data in, plain data out."""

from __future__ import annotations

import ast
from pathlib import Path

CORE = Path(__file__).resolve().parents[3] / "tournaments" / "scheduling"


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_scheduling_imports_neither_django_nor_scoring():
    files = sorted(CORE.glob("*.py"))
    assert files
    for path in files:
        for name in imported_modules(path):
            root = name.split(".")[0]
            assert root not in {"django", "scoring", "printing"}, f"{path.name} imports {name}"
            if root == "tournaments":
                assert name.startswith("tournaments.scheduling"), f"{path.name} imports {name}"
