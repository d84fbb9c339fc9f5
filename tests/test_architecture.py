"""The shape of the code: packages on their floors, pure cores, and no module importing itself back.

Both checks read the source with ``ast``, so an import written inside a function
(a lazy import) counts like any other: a lazy import hides a cycle, it does not
remove it.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Every package of the product (tests and benchmarks are not part of it).
PROJECT_PACKAGES = ("config", "common", "scoring", "printing", "tournaments")

# The pure cores: plain Python in, plain Python out. A core may import the standard
# library and other cores, nothing else. A core that does not exist yet is skipped.
PURE_CORES = (
    "common.phrases",
    "scoring.engines",
    "tournaments.seating.core",
    "tournaments.standings.core",
    "tournaments.brackets.core",
    "tournaments.club.core",
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
    module = folder.with_suffix(".py")  # a core of one module
    assert folder.is_dir() or module.is_file(), f"{core} is neither a package nor a module"
    files = sorted(folder.rglob("*.py")) if folder.is_dir() else [module]
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


# --------------------------------------------------------------------------- floors

# The apps, top floor first. An app may import only the apps listed beside it: config
# composes everything; tournaments build on scoring and printing; printing draws
# scoring's games; scoring stands on the ground floor alone.
APP_EDGES: dict[str, frozenset[str]] = {
    "config": frozenset({"common", "scoring", "printing", "tournaments"}),
    "tournaments": frozenset({"common", "scoring", "printing"}),
    "printing": frozenset({"common", "scoring"}),
    "scoring": frozenset({"common"}),
    "common": frozenset(),
}

# Inside each app: every part (a module or subpackage right under the app) and the parts
# of the same app it may import. Web, API and commands sit on services and selectors,
# which sit on models, which sit on the pure cores.
PART_EDGES: dict[str, dict[str, frozenset[str]]] = {
    "config": {
        "settings": frozenset(),
        "test_settings": frozenset({"settings", "test_env"}),
        "test_env": frozenset(),
        "celery": frozenset(),
        "health": frozenset(),
        "api": frozenset(),
        "views": frozenset({"health"}),
        "urls": frozenset({"api", "views", "login"}),
        "login": frozenset(),
        "table_guard": frozenset(),
        "locale_formats": frozenset(),
        "access_log": frozenset(),
        "unavailable": frozenset(),
        "postgresql": frozenset(),
        "asgi": frozenset(),
        "wsgi": frozenset(),
    },
    "common": {
        "columns": frozenset(),
        "throttles": frozenset(),
        "publish": frozenset(),
        "heartbeat": frozenset(),
        "csvsafe": frozenset(),
        "htmx": frozenset(),
        "compiled": frozenset(),
        "sessions": frozenset({"compiled"}),
        "folding": frozenset(),
        "jsondoc": frozenset({"phrases"}),
        "security_headers": frozenset(),
        "rows": frozenset(),
        "kept": frozenset(),
        "phrases": frozenset(),
        "private_paths": frozenset(),
    },
    "scoring": {
        "admin": frozenset({"models"}),
        "api": frozenset({"engines", "models", "selectors", "services", "wording"}),
        "apps": frozenset(),
        "converters": frozenset(),
        "engines": frozenset(),
        "entry": frozenset({"engines", "models", "wording"}),
        "games": frozenset({"engines", "entry", "wording"}),
        "management": frozenset({"engines", "games", "models", "selectors", "services"}),
        "migrations": frozenset({"models"}),
        "models": frozenset({"engines"}),
        "selectors": frozenset({"engines", "models"}),
        "services": frozenset({"engines", "models", "selectors"}),
        "templatetags": frozenset({"entry", "selectors"}),
        "urls": frozenset({"web"}),
        "web": frozenset(
            {
                "converters",
                "engines",
                "entry",
                "games",
                "models",
                "selectors",
                "services",
                "wording",
            }
        ),
        "wording": frozenset({"engines"}),
    },
    "printing": {
        "admin": frozenset({"models", "services", "sources"}),
        "apps": frozenset({"registry", "sources", "tasks"}),
        "context_processors": frozenset({"paper"}),
        "dispatch": frozenset(),
        "errors": frozenset(),
        "forms": frozenset({"errors", "paper", "scoresheets", "sources"}),
        "management": frozenset({"errors", "paper", "render", "scoresheets"}),
        "migrations": frozenset({"models"}),
        "models": frozenset({"registry"}),
        "paper": frozenset({"render"}),
        "registry": frozenset({"errors", "render"}),
        "render": frozenset(),
        "scoresheets": frozenset({"errors", "render"}),
        "services": frozenset({"dispatch", "models", "paper", "registry"}),
        "sources": frozenset({"errors", "render", "scoresheets"}),
        "tasks": frozenset({"dispatch", "models", "services", "worker"}),
        "urls": frozenset({"views"}),
        "views": frozenset(
            {"errors", "forms", "models", "paper", "registry", "scoresheets", "services", "sources"}
        ),
        "worker": frozenset({"errors", "models", "registry", "render"}),
    },
    "tournaments": {
        "admin": frozenset({"models"}),
        "api": frozenset({"events", "models", "printouts"}),
        "apps": frozenset({"brackets", "events", "printouts", "web"}),
        "brackets": frozenset({"errors", "models", "club", "seating", "services", "standings"}),
        "errors": frozenset(),
        "events": frozenset({"errors", "models", "club", "seating", "services", "standings"}),
        "hooks": frozenset({"brackets", "events", "models", "club"}),
        "management": frozenset({"brackets", "errors", "events", "models", "club", "seating"}),
        "migrations": frozenset({"models"}),
        "models": frozenset(),
        "printouts": frozenset({"events", "models", "standings"}),
        "club": frozenset({"models", "seating", "services", "standings"}),
        "seating": frozenset({"models"}),
        "services": frozenset({"errors", "models"}),
        "standings": frozenset({"models"}),
        "tasks": frozenset({"events", "models", "services"}),
        "templatetags": frozenset({"club", "seating"}),
        "web": frozenset(
            {
                "brackets",
                "errors",
                "events",
                "models",
                "printouts",
                "club",
                "services",
                "standings",
                "tasks",
            }
        ),
    },
}

# A setting holding a dotted path (a hook, a view, a middleware) is an arrow no import
# shows: the settings module counts as importing what it names.
SETTINGS_MODULE = "config.settings"


def setting_targets(path: Path, modules: Mapping[str, Path]) -> dict[str, int]:
    """Project modules named by dotted strings in a settings file: {module: line}."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
            if "." in text and " " not in text and "/" not in text:
                target = resolve((text,), modules)
                if target is not None:
                    found.setdefault(target, node.lineno)
    return found


def full_graph(root: Path, packages: Iterable[str]) -> dict[str, dict[str, int]]:
    """Every import between project modules, and the settings' dotted paths as imports."""
    modules = project_modules(root, packages)
    graph = import_graph(modules)
    if SETTINGS_MODULE in modules:
        for target, line in setting_targets(modules[SETTINGS_MODULE], modules).items():
            if target.split(".")[0] != "config":
                graph[SETTINGS_MODULE].setdefault(target, line)
    return graph


def app_of(module: str) -> str:
    return module.split(".")[0]


def part_of(module: str) -> str | None:
    """The part of its app a module belongs to; None for the app's own ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def unit_graph(
    graph: Mapping[str, Mapping[str, int]], unit: Callable[[str], str | None]
) -> dict[str, dict[str, str]]:
    """The graph between units (apps, or parts of an app): {unit: {unit: "a (line n) -> b"}}."""
    units: dict[str, dict[str, str]] = {}
    for source, targets in graph.items():
        a = unit(source)
        if a is None:
            continue
        units.setdefault(a, {})
        for target, line in targets.items():
            b = unit(target)
            if b is not None and b != a:
                units[a].setdefault(b, f"{source} (line {line}) -> {target}")
    return units


def forbidden_edges(
    graph: Mapping[str, Mapping[str, int]],
    apps: Mapping[str, frozenset[str]],
    parts: Mapping[str, Mapping[str, frozenset[str]]],
) -> list[str]:
    """Every import the tables do not allow, with the line that makes it."""
    found: list[str] = []
    for a, targets in unit_graph(graph, app_of).items():
        for b, where in targets.items():
            if b not in apps.get(a, frozenset()):
                found.append(f"app {a} -> {b}: {where}")
    for app in sorted({app_of(m) for m in graph}):
        inside = {m: {t: n for t, n in ts.items() if app_of(t) == app} for m, ts in graph.items()}
        inside = {m: ts for m, ts in inside.items() if app_of(m) == app}
        table = parts.get(app, {})
        for a, targets in unit_graph(inside, part_of).items():
            if a not in table:
                found.append(f"{app}.{a} is not in the table of parts")
                continue
            for b, where in targets.items():
                if b not in table[a]:
                    found.append(f"{app}: {a} -> {b}: {where}")
    return sorted(found)


def two_way_ties(graph: Mapping[str, Mapping[str, int]]) -> list[str]:
    """Knots between apps, and between the parts of each app (any ring, not only pairs)."""
    found: list[str] = []
    levels: list[tuple[str, dict[str, dict[str, str]]]] = [("apps", unit_graph(graph, app_of))]
    for app in sorted({app_of(m) for m in graph}):
        inside = {
            m: {t: n for t, n in ts.items() if app_of(t) == app}
            for m, ts in graph.items()
            if app_of(m) == app
        }
        levels.append((app, unit_graph(inside, part_of)))
    for level, units in levels:
        as_lines = {a: {b: 0 for b in targets} for a, targets in units.items()}
        for group in strongly_connected(as_lines):
            ring = one_cycle(group, as_lines)
            steps = "; ".join(units[a][b] for a, b in pairwise(ring))
            found.append(f"{level}: {' -> '.join(ring)} ({steps})")
    return found


def test_every_package_imports_only_the_floors_below_it():
    graph = full_graph(ROOT, PROJECT_PACKAGES)
    found = forbidden_edges(graph, APP_EDGES, PART_EDGES)
    assert not found, "imports the table of floors does not allow:\n" + "\n".join(found)


def test_no_two_apps_and_no_two_parts_of_an_app_import_each_other():
    found = two_way_ties(full_graph(ROOT, PROJECT_PACKAGES))
    assert not found, "packages tied both ways:\n" + "\n".join(found)


def test_the_tables_of_floors_have_no_ring_themselves():
    apps = {a: dict.fromkeys(targets, 0) for a, targets in APP_EDGES.items()}
    assert not strongly_connected(apps)
    for app, table in PART_EDGES.items():
        parts = {a: dict.fromkeys(targets, 0) for a, targets in table.items()}
        assert not strongly_connected(parts), app


def test_the_settings_hook_is_an_edge(tmp_path):
    write(
        tmp_path,
        {
            "config/__init__.py": "",
            "config/settings.py": 'HOOK = "shop.hooks.changed"\nNAME = "not a.path"\n',
            "shop/__init__.py": "",
            "shop/hooks.py": "from shop import models\n",
            "shop/models.py": "",
        },
    )
    graph = full_graph(tmp_path, ["config", "shop"])
    assert graph["config.settings"] == {"shop.hooks": 1}


def test_an_import_against_the_floors_is_named_with_its_line(tmp_path):
    write(
        tmp_path,
        {
            "low/__init__.py": "",
            "low/models.py": "",
            "low/web.py": "from low import models\n\n\ndef late():\n    from high import views\n",
            "high/__init__.py": "",
            "high/views.py": "from low.models import Thing\n",
        },
    )
    graph = full_graph(tmp_path, ["low", "high"])
    apps = {"high": frozenset({"low"}), "low": frozenset()}
    parts = {"low": {"web": frozenset({"models"}), "models": frozenset()}, "high": {}}
    found = forbidden_edges(graph, apps, parts)
    assert found == [
        "app low -> high: low.web (line 5) -> high.views",
        "high.views is not in the table of parts",
    ]
    ties = two_way_ties(graph)
    assert ties == [
        "apps: high -> low -> high (high.views (line 1) -> low.models; "
        "low.web (line 5) -> high.views)"
    ]


# --------------------------------------------------------------------------- the renderer

# printing/render/ draws plain data with reportlab (and segno for QR codes): no Django,
# no other part of the project.
RENDER = "printing.render"
RENDER_LIBRARIES = ("reportlab", "segno")
# The one project module below the renderer: the printed column, plain data shared with the
# games' sheets.
RENDER_SHARED = ("common.columns",)


def allowed_in_the_renderer(name: str) -> bool:
    top = name.split(".")[0]
    if top == "__future__" or top in sys.stdlib_module_names or top in RENDER_LIBRARIES:
        return True
    return name == RENDER or name.startswith(f"{RENDER}.") or name in RENDER_SHARED


def test_the_renderer_imports_only_the_standard_library_reportlab_and_itself():
    offenders = {
        str(path.relative_to(ROOT)): names
        for path in sorted((ROOT / "printing" / "render").rglob("*.py"))
        if (names := sorted(n for n in imported_modules(path) if not allowed_in_the_renderer(n)))
    }
    assert not offenders, f"the renderer imports more than it may: {offenders}"


def test_the_renderer_check_refuses_django_and_the_apps():
    assert allowed_in_the_renderer("reportlab.pdfgen.canvas")
    assert allowed_in_the_renderer("printing.render.layout")
    assert not allowed_in_the_renderer("django.conf")
    assert not allowed_in_the_renderer("printing.models")
    assert not allowed_in_the_renderer("scoring.engines.base")
    assert not allowed_in_the_renderer("common.throttles")


# --------------------------------------------------------------------------- names

# The names every app and every feature package may use for the same job in its own
# place: a part of the layers (web, api, services, ...), Django's own, a pure core and its
# adapter. Any other name belongs to one thing: a module may not take the name of a
# package elsewhere (``web/desk/printouts.py`` beside ``printouts/``), and a module of the
# ground floor or the top floor is named once in the project (``common/throttles.py``
# beside ``scoring/api/throttles.py``). A game's key names its own files, by design.
LAYER_NAMES = frozenset(
    {
        "adapter",
        "admin",
        "api",
        "apps",
        "base",  # a database backend's module, by Django's rule (``ENGINE + ".base"``)
        "commands",
        "core",
        "errors",
        "formats",  # a language's date formats, by Django's rule (FORMAT_MODULE_PATH)
        "forms",
        "management",
        "migrations",
        "models",
        "selectors",
        "services",
        "tasks",
        "templatetags",
        "urls",
        "views",
        "web",
    }
)
ONE_OF_A_KIND_APPS = ("common", "config")


def name_clashes(root: Path, packages: Iterable[str], allowed: frozenset[str]) -> list[str]:
    """Every module named like a package elsewhere, or like a ground- or top-floor module."""
    modules = project_modules(root, packages)
    package_names = {name for name, path in modules.items() if path.name == "__init__.py"}
    by_leaf: dict[str, set[str]] = {}
    for name in modules:
        by_leaf.setdefault(name.rpartition(".")[2], set()).add(name)
    found = []
    for leaf, names in sorted(by_leaf.items()):
        if leaf in allowed or len(names) < 2:
            continue
        packages_named = sorted(n for n in names if n in package_names)
        modules_named = sorted(n for n in names if n not in package_names)
        one_of_a_kind = sorted(n for n in names if n.split(".")[0] in ONE_OF_A_KIND_APPS)
        if (packages_named and modules_named) or one_of_a_kind:
            found.append(f"{leaf}: " + ", ".join(sorted(names)))
    return found


def test_no_module_name_is_used_on_two_floors():
    from scoring.engines.registry import ENGINES

    allowed = LAYER_NAMES | frozenset(ENGINES)
    found = name_clashes(ROOT, PROJECT_PACKAGES, allowed)
    assert not found, "names used on two floors:\n" + "\n".join(found)


def test_a_module_named_like_a_package_or_a_ground_floor_module_is_found(tmp_path):
    write(
        tmp_path,
        {
            "common/__init__.py": "",
            "common/throttles.py": "",
            "app/__init__.py": "",
            "app/printouts/__init__.py": "",
            "app/web/__init__.py": "",
            "app/web/printouts.py": "",
            "app/api/__init__.py": "",
            "app/api/throttles.py": "",
            "app/api/views.py": "",
            "app/web/views.py": "",
        },
    )
    found = name_clashes(tmp_path, ("common", "app"), LAYER_NAMES)
    assert found == [
        "printouts: app.printouts, app.web.printouts",
        "throttles: app.api.throttles, common.throttles",
    ]


# --------------------------------------------------------------------------- the web layer

# The tournaments' pages read through selectors and write through services: no module of
# ``tournaments/web`` imports a models module when it runs (a class named for a type hint
# under ``if TYPE_CHECKING:`` is no query) nor reaches a manager (``Model.objects``).
WEB_WITHOUT_ORM = ("tournaments.web",)


def runtime_imports(tree: ast.Module) -> Iterable[ast.Import | ast.ImportFrom]:
    """Every import statement that runs: those under ``if TYPE_CHECKING:`` left out."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(inner) for stmt in node.body for inner in ast.walk(stmt))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in skipped:
            yield node


def orm_uses(root: Path, prefixes: Iterable[str]) -> list[str]:
    """Each runtime import of a models module, and each ``.objects``, in the given packages."""
    found: list[str] = []
    prefixes = tuple(prefixes)
    for module, path in project_modules(root, PROJECT_PACKAGES).items():
        if not module.startswith(prefixes):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in runtime_imports(tree):
            names = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [f"{node.module or ''}.{alias.name}" for alias in node.names]
            )
            if any(".models" in f".{name}." or name.endswith(".models") for name in names):
                found.append(f"{module} (line {node.lineno}) imports models")
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "objects":
                found.append(f"{module} (line {node.lineno}) queries {ast.unparse(node)}")
    return sorted(found)


def test_no_tournaments_page_queries_the_orm():
    found = orm_uses(ROOT, WEB_WITHOUT_ORM)
    assert not found, "the web layer reaching the ORM:\n" + "\n".join(found)


def test_a_page_importing_models_or_querying_is_found(tmp_path):
    write(
        tmp_path,
        {
            "config/__init__.py": "",
            "tournaments/__init__.py": "",
            "tournaments/models.py": "",
            "tournaments/web/__init__.py": "",
            "tournaments/web/hinted.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                "    from tournaments.models import Event\n"
            ),
            "tournaments/web/views.py": (
                "from tournaments.models import Event\n\n\ndef page():\n"
                "    return Event.objects.count()\n"
            ),
        },
    )
    assert orm_uses(tmp_path, WEB_WITHOUT_ORM) == [
        "tournaments.web.views (line 1) imports models",
        "tournaments.web.views (line 5) queries Event.objects",
    ]


# --------------------------------------------------------------------------- service names


# A service is called by its name from views, tasks and the other app's code: a public name
# defined in the services of two apps (``round_undo`` for a deal and for a tournament round)
# reads the same at the call and does two different things.
def public_service_names(root: Path, packages: Iterable[str]) -> dict[str, set[str]]:
    """Each public function or class defined in a services module -> the modules defining it."""
    names: dict[str, set[str]] = {}
    for module, path in project_modules(root, packages).items():
        if "services" not in module.split("."):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in tree.body:
            defined = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
            if isinstance(node, defined) and not node.name.startswith("_"):
                names.setdefault(node.name, set()).add(module)
    return names


def service_names_in_two_apps(root: Path, packages: Iterable[str]) -> list[str]:
    found = []
    for name, modules in sorted(public_service_names(root, packages).items()):
        if len({app_of(module) for module in modules}) > 1:
            found.append(f"{name}: " + ", ".join(sorted(modules)))
    return found


def test_no_public_service_name_is_used_in_two_apps():
    found = service_names_in_two_apps(ROOT, PROJECT_PACKAGES)
    assert not found, "one service name, two apps:\n" + "\n".join(found)


def test_a_service_name_in_two_apps_is_found(tmp_path):
    two_functions = "def round_undo():\n    pass\n\n\ndef _helper():\n    pass\n"
    write(
        tmp_path,
        {
            "scoring/__init__.py": "",
            "scoring/services/__init__.py": "",
            "scoring/services/rounds.py": two_functions,
            "tournaments/__init__.py": "",
            "tournaments/events/__init__.py": "",
            "tournaments/events/services.py": two_functions,
            "tournaments/events/selectors.py": "def round_rows():\n    pass\n",
            "scoring/selectors.py": "def round_rows():\n    pass\n",
        },
    )
    assert service_names_in_two_apps(tmp_path, ("scoring", "tournaments")) == [
        "round_undo: scoring.services.rounds, tournaments.events.services"
    ]


# --------------------------------------------------------------------------- service sizes

# A services module holds one entity's or one concern's changes: past this many lines it
# holds several, and is split by concern (``scoring/services/rounds.py`` beside
# ``corrections.py``) with its callers importing from the part that defines each name.
SERVICES_LONGEST = 500


def long_service_modules(root: Path, packages: Iterable[str], longest: int) -> list[str]:
    """Each services module (``services.py`` or a module of a ``services`` package) longer
    than ``longest`` lines, with its length."""
    found = []
    for module, path in project_modules(root, packages).items():
        if "services" not in module.split("."):
            continue
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > longest:
            found.append(f"{module}: {lines} lines")
    return found


def test_no_services_module_is_longer_than_the_limit():
    found = long_service_modules(ROOT, PROJECT_PACKAGES, SERVICES_LONGEST)
    assert not found, f"services modules over {SERVICES_LONGEST} lines:\n" + "\n".join(found)


def test_a_long_services_module_is_found(tmp_path):
    write(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/services.py": "x = 1\n" * 6,
            "app/selectors.py": "x = 1\n" * 9,
            "app/part/__init__.py": "",
            "app/part/services/__init__.py": "",
            "app/part/services/short.py": "x = 1\n" * 5,
            "app/part/services/long.py": "x = 1\n" * 7,
        },
    )
    assert long_service_modules(tmp_path, ("app",), 5) == [
        "app.part.services.long: 7 lines",
        "app.services: 6 lines",
    ]
