"""``make bench``: every benchmark module in bench/ (each has a ``run()`` returning rows),
printed as one table and added to bench/RESULTS.md with the date and the core count.

``bench/run.py engines server`` runs only those modules (and records nothing).
"""

from __future__ import annotations

import datetime
import importlib.util
import os
import platform
import sys
import time
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "RESULTS.md"


def modules() -> list[Path]:
    helpers = {"run.py", "__init__.py", "figures.py"}
    return sorted(p for p in HERE.glob("*.py") if p.name not in helpers)


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load the benchmark {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def record(table: str, seconds: float) -> None:
    """Add this run to bench/RESULTS.md, newest last."""
    when = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    cores = os.cpu_count() or 0
    heading = (
        f"## {when}, {cores} cores ({platform.python_implementation()} {platform.python_version()})"
    )
    text = (
        RESULTS.read_text()
        if RESULTS.exists()
        else "# Benchmark runs\n\nEach `make bench` adds one run.\n"
    )
    RESULTS.write_text(f"{text.rstrip()}\n\n{heading}\n\nWhole run: {seconds:.0f} s.\n\n{table}\n")


def main(selected: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from config import test_env

    test_env.apply()  # relaxed limits, as the test suite runs
    import django

    django.setup()
    from bench.figures import Row, markdown_table, text_table

    rows: list[Row] = []
    failures = 0
    began = time.perf_counter()
    for path in modules():
        if selected and path.stem not in selected:
            continue
        module = load(path)
        if not callable(getattr(module, "run", None)):
            continue
        print(f"bench/{path.name} ...", file=sys.stderr, flush=True)
        started = time.perf_counter()
        try:
            rows.extend(module.run())
        except Exception as error:  # one broken benchmark must not hide the others' figures
            failures += 1
            rows.append(Row(path.stem, "FAILED", f"{error.__class__.__name__}: {error}"))
        print(f"   {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
    seconds = time.perf_counter() - began
    print(text_table(rows))
    if not selected:
        record(markdown_table(rows), seconds)
        print(f"\n(added to {RESULTS.relative_to(ROOT)}; whole run {seconds:.0f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
