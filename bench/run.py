"""``make bench``: run every benchmark module in bench/ (each has a ``run()``)."""

from __future__ import annotations

import importlib.util
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def modules() -> list[Path]:
    return sorted(p for p in HERE.glob("*.py") if p.name not in {"run.py", "__init__.py"})


def load(path: Path):
    spec = importlib.util.spec_from_file_location(f"bench_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(selected: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("TABLESCORE_TESTING", "1")
    import django

    django.setup()
    failures = 0
    for path in modules():
        if selected and path.stem not in selected:
            continue
        module = load(path)
        if not callable(getattr(module, "run", None)):
            continue
        print(f"== bench/{path.name}", flush=True)
        started = time.perf_counter()
        try:
            module.run()
        except Exception as error:  # one broken benchmark must not hide the others' figures
            failures += 1
            print(f"   FAILED: {error.__class__.__name__}: {error}", flush=True)
        print(f"   ({time.perf_counter() - started:.1f} s)\n", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
