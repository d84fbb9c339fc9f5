"""The shape of the code: pure cores import no framework, and no module imports itself back.

Both checks read the source with ``ast``, so an import written inside a function
(a lazy import) counts like any other: a lazy import hides a cycle, it does not
remove it.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Every package of the product (tests and benchmarks are not part of it).
PROJECT_PACKAGES = ("config", "scoring", "printing", "tournaments")

# The pure cores: plain Python in, plain Python out. A core may import the standard
# library and other cores, nothing else. A core that does not exist yet is skipped.
PURE_CORES = (
    "scoring.engines",
    "tournaments.scheduling",
    "tournaments.standings",
    "tournaments.seasons.core",
)


# --------------------------------------------------------------------------- reading imports


@dataclass(frozen=True)
class Import:
    """One import statement: the modules it may name, and where it is written."""

    candidates: tuple[str, ...]  # most specific first: "a.b.c" then "a.b" for `from a.b import c`
    line: int


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Every module of the given top-level packages that exist under ``root``."""
    found: dict[str, Path] = {}
    for package in packages:
        folder = root / package
        if not (folder / "__init__.py").is_file():
            continue
        for path in sorted(folder.rglob("*.py")):
            found[module_name(path, root)] = path
    return found


def imports_of(path: Path, module: str) -> list[Import]:
    """Every import in the file, at any depth (functions, classes, ``if`` blocks)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[Import] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(Import((alias.name,), node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                keep = len(base_parts) - (node.level - 1)
                base = ".".join(base_parts[:keep])
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            for alias in node.names:
                if alias.name == "*":
                    found.append(Import((target,), node.lineno))
                else:
                    found.append(Import((f"{target}.{alias.name}", target), node.lineno))
    return found


def resolve(candidates: Iterable[str], modules: Mapping[str, Path]) -> str | None:
    """The project module an import names: itself, or its nearest enclosing module."""
    for name in candidates:
        while name:
            if name in modules:
                return name
            name = name.rpartition(".")[0]
    return None


def import_graph(modules: Mapping[str, Path]) -> dict[str, dict[str, int]]:
    """module -> {imported project module: line of the first such import}."""
    graph: dict[str, dict[str, int]] = {}
    for module, path in modules.items():
        edges: dict[str, int] = {}
        for found in imports_of(path, module):
            target = resolve(found.candidates, modules)
            if target is not None and target != module:
                edges.setdefault(target, found.line)
        graph[module] = edges
    return graph


# --------------------------------------------------------------------------- finding cycles


def strongly_connected(graph: Mapping[str, Mapping[str, int]]) -> list[frozenset[str]]:
    """Groups of modules each reachable from every other (Tarjan), only those of two or more."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[frozenset[str]] = []

    def visit(start: str) -> None:
        # Iterative, so a long chain of imports cannot hit the recursion limit.
        work = [(start, iter(sorted(graph.get(start, {}))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            advanced = False
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, {})))))
                    advanced = True
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group: set[str] = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(frozenset(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def one_cycle(group: frozenset[str], graph: Mapping[str, Mapping[str, int]]) -> list[str]:
    """A shortest ring through the group's first module: [a, b, ..., a]."""
    start = min(group)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for target in sorted(graph[node]):
                if target not in group:
                    continue
                if target == start:
                    ring = [node]
                    while ring[-1] != start:
                        ring.append(came_from[ring[-1]])
                    return [start, *reversed(ring[:-1]), start]
                if target not in came_from:
                    came_from[target] = node
                    following.append(target)
        frontier = following
    raise AssertionError(f"{sorted(group)} holds no cycle")  # a bug in this checker


def describe(group: frozenset[str], graph: Mapping[str, Mapping[str, int]]) -> str:
    ring = one_cycle(group, graph)
    steps = " -> ".join(f"{a} (line {graph[a][b]})" for a, b in pairwise(ring))
    return f"{steps} -> {ring[0]}; the whole knot: {', '.join(sorted(group))}"


def cycles_in(root: Path, packages: Iterable[str]) -> tuple[list[frozenset[str]], dict]:
    graph = import_graph(project_modules(root, packages))
    return strongly_connected(graph), graph


# --------------------------------------------------------------------------- the checks


def test_no_module_imports_a_module_that_imports_it_back():
    groups, graph = cycles_in(ROOT, PROJECT_PACKAGES)
    found = [describe(group, graph) for group in groups]
    assert not found, "import cycles:\n" + "\n".join(found)


def test_every_project_package_is_walked():
    modules = project_modules(ROOT, PROJECT_PACKAGES)
    for module in ("config.settings", "scoring.engines.base", "scoring.models", "tournaments"):
        assert module in modules
    assert not any(name.startswith("tests") for name in modules)


def write(root: Path, files: Mapping[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_lazy_import_cycle_is_found_and_named(tmp_path):
    write(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/base.py": (
                "def parse():\n    from app.registry import ENGINES\n    return ENGINES\n"
            ),
            "app/registry.py": "import os\nfrom app.base import parse\nENGINES = {}\n",
            "app/leaf.py": "from app import base\n",
        },
    )
    groups, graph = cycles_in(tmp_path, ["app"])
    assert groups == [frozenset({"app.base", "app.registry"})]
    text = describe(groups[0], graph)
    assert text.startswith("app.base (line 2) -> app.registry (line 2) -> app.base")


def test_relative_imports_and_longer_rings_are_followed(tmp_path):
    write(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/models.py": "from . import printing\n",
            "app/printing.py": "from .selectors import rows\n",
            "app/selectors.py": "def rows():\n    from .tasks import go\n",
            "app/tasks.py": "from app.models import Game\n",
            "app/web/__init__.py": "",
            "app/web/views.py": "from ..selectors import rows\nfrom ..engines import base\n",
            "app/engines/__init__.py": "",
            "app/engines/base.py": "from typing import Any\n",
        },
    )
    groups, graph = cycles_in(tmp_path, ["app"])
    assert groups == [frozenset({"app.models", "app.printing", "app.selectors", "app.tasks"})]
    assert graph["app.web.views"] == {"app.selectors": 1, "app.engines.base": 2}
    assert one_cycle(groups[0], graph) == [
        "app.models",
        "app.printing",
        "app.selectors",
        "app.tasks",
        "app.models",
    ]


def test_a_package_importing_its_own_module_is_no_cycle(tmp_path):
    write(
        tmp_path,
        {
            "app/__init__.py": "from app.parts import thing\n",
            "app/parts.py": "thing = 1\n",
        },
    )
    groups, _ = cycles_in(tmp_path, ["app"])
    assert groups == []


# --------------------------------------------------------------------------- pure cores


def imported_modules(path: Path) -> set[str]:
    """Absolute names of every module the file imports, at any depth."""
    module = module_name(path, ROOT) if path.is_relative_to(ROOT) else path.stem
    names: set[str] = set()
    for found in imports_of(path, module):
        names.add(found.candidates[-1])
    return names


def allowed_in_a_core(name: str) -> bool:
    top = name.split(".")[0]
    if top == "__future__" or top in sys.stdlib_module_names:
        return True
    return any(name == core or name.startswith(f"{core}.") for core in PURE_CORES)


@pytest.mark.parametrize("core", PURE_CORES)
def test_pure_cores_import_only_the_standard_library_and_other_cores(core):
    folder = ROOT.joinpath(*core.split("."))
    if not folder.is_dir():
        pytest.skip(f"{core} is not built yet")
    files = sorted(folder.rglob("*.py"))
    assert files, f"{core} holds no Python files"
    offenders = {
        str(path.relative_to(ROOT)): sorted(
            name for name in imported_modules(path) if not allowed_in_a_core(name)
        )
        for path in files
    }
    offenders = {path: names for path, names in offenders.items() if names}
    assert not offenders, f"pure cores import more than plain Python: {offenders}"


@pytest.mark.parametrize("core", PURE_CORES)
def test_the_packages_holding_a_core_import_nothing_on_the_way(core):
    """Importing ``scoring.engines`` runs ``scoring/__init__.py`` first: it must stay bare."""
    parts = core.split(".")
    for depth in range(1, len(parts)):
        init = ROOT.joinpath(*parts[:depth], "__init__.py")
        if init.is_file():
            names = {n for n in imported_modules(init) if not allowed_in_a_core(n)}
            assert not names, f"{init.relative_to(ROOT)} imports {sorted(names)}"


def test_purity_check_sees_a_django_import_even_inside_a_function(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import os\n\ndef late():\n    from django.db import models\n")
    names = imported_modules(sample)
    assert "django.db" in names
    assert not allowed_in_a_core("django.db")
    assert not allowed_in_a_core("scoring.models")
    assert allowed_in_a_core("collections.abc")
    assert allowed_in_a_core("scoring.engines.base")
