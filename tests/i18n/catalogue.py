"""What the language checks share: the catalogues, gettext's tools, and what the checks read
(every template, every module of the pure cores, each exclusion named with its reason)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("fr_CA",)


def catalogue(language: str, domain: str = "django") -> Path:
    return ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po"


# Every template under templates/ is checked: a new page is checked without being listed.
# None is left out (a template holding no word a person reads passes the check as it is).
TEMPLATES_EXCLUDED: dict[str, str] = {}
MARKED_TEMPLATES = tuple(
    name
    for name in sorted(
        path.relative_to(ROOT / "templates").as_posix()
        for path in (ROOT / "templates").rglob("*.html")
    )
    if name not in TEMPLATES_EXCLUDED
)

# The pure cores' modules: every problem, phrase or error a person reads is a marked
# template with its values apart (see scoring.engines.base), never an f-string or pieces.
# Every module of the cores is checked, but for these, each with its reason.
CORES = ("scoring/engines", "tournaments/*/core", "common/phrases.py")
CORES_EXCLUDED = {
    # The ``score`` command's plain-text report for the terminal, in English on purpose
    # (a command's output, like Django's own commands), never shown on a page.
    "scoring/engines/text.py": "the score command's terminal output",
}
MARKED_CORES = tuple(
    name
    for name in sorted(
        {
            path.relative_to(ROOT).as_posix()
            for pattern in CORES
            for found in ROOT.glob(pattern)
            for path in ([found] if found.is_file() else found.rglob("*.py"))
        }
    )
    if name not in CORES_EXCLUDED
)

# Words in a marked template that are no language's: names of things and formats, and a
# sample name and address shown as they are.
NOT_WORDS = frozenset(
    {"Tablescore", "CSV", "JSON", "PDF", "QR", "Łukasz", "Nowak", "lukasz", "example", "org"}
)


def gettext_tool(name: str) -> str:
    """A GNU gettext program (Debian's gettext package: ``make system-deps`` installs it)."""
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is missing: install gettext (make system-deps)")
    return found


def statistics(po: Path) -> tuple[int, int, int]:
    """Translated, fuzzy and untranslated entries, as msgfmt counts them (it also checks
    that each translation keeps its places: ``--check``)."""
    run = subprocess.run(
        [gettext_tool("msgfmt"), "--check", "--statistics", "-o", "/dev/null", str(po)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    counts = {"translated": 0, "fuzzy": 0, "untranslated": 0}
    for number, word in re.findall(r"(\d+) (translated|fuzzy|untranslated)", run.stderr):
        counts[word] = int(number)
    return counts["translated"], counts["fuzzy"], counts["untranslated"]
