"""What the language checks share: the catalogues, gettext's tools, and the list of what is
marked for translation so far (each check reads its list here: marking another area is one
line in each list)."""

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


# Templates whose every word a person sees is marked ({% translate %}, {% blocktranslate %}).
MARKED_TEMPLATES = (
    "base.html",
    "home.html",
    "403.html",
    "403_csrf.html",
    "404.html",
    "500.html",
    "too_many_requests.html",
    "unavailable.html",
    "tournaments/club_desk.html",
    "tournaments/club_night.html",
    "tournaments/club_player.html",
    "tournaments/leaderboard.html",
    "tournaments/player.html",
    "tournaments/season.html",
    "tournaments/desk.html",
    "tournaments/desk_log.html",
    "tournaments/event_import.html",
    "tournaments/bracket.html",
    "tournaments/bracket_desk.html",
    "tournaments/bracket_wall.html",
    "tournaments/draw.html",
    "tournaments/standings.html",
    "tournaments/projector.html",
    "tournaments/entrant.html",
    "tournaments/_tables.html",
    "tournaments/_standings.html",
    "tournaments/_pager.html",
    "tournaments/_players_nav.html",
    "tournaments/_report.html",
    "tournaments/_staff.html",
    "tournaments/_event_facts.html",
    "tournaments/_announcements.html",
    "tournaments/_signup_link.html",
    "tournaments/signup.html",
    "tournaments/signup_status.html",
    "tournaments/me/page.html",
    "tournaments/me/unknown.html",
    "tournaments/desk_event.html",
    "tournaments/desk_round.html",
    "tournaments/desk_table.html",
    "tournaments/_desk_signup_links.html",
    "tournaments/me/_desk.html",
    "tournaments/desk_correct.html",
    "tournaments/desk_signup.html",
    "tournaments/desk_announcements.html",
    "tournaments/_registrations.html",
    "tournaments/desk/links.html",
    "tournaments/desk/links_row.html",
    "tournaments/desk/links_club.html",
    "tournaments/event_new.html",
    "tournaments/_event_new_schedule.html",
    "printing/job.html",
    "printing/blank.html",
    "scoring/table.html",
    "scoring/history.html",
    "scoring/view.html",
    "scoring/my_games.html",
    "scoring/game_new.html",
    "scoring/rules.html",
    "scoring/correct.html",
    "scoring/_correction.html",
    "scoring/preview_page.html",
    "scoring/_clock.html",
    "scoring/entry/form.html",
    "scoring/entry/fields.html",
    "scoring/entry/generic.html",
    "scoring/entry/roolz.html",
    "scoring/entry/rummoli.html",
    "scoring/entry/roller_derby.html",
    "scoring/entry/rook_sluff.html",
    "scoring/table_scripts.html",
)

# Core modules whose every problem is a marked template with its values apart (see
# scoring.engines.base): no message built with an f-string or from pieces.
MARKED_CORES = (
    "scoring/engines/base.py",
    "scoring/engines/roolz.py",
    "scoring/engines/rummoli.py",
    "scoring/engines/rook_sluff.py",
    "scoring/engines/roller_derby.py",
    "tournaments/club/core/table.py",
    "tournaments/club/core/chart.py",
    "tournaments/brackets/core/layout.py",
    "tournaments/brackets/core/state.py",
    "tournaments/brackets/core/changes.py",
    "tournaments/brackets/core/tables.py",
    "tournaments/brackets/core/two_team.py",
    "tournaments/seating/core/types.py",
    "tournaments/seating/core/planner.py",
    "tournaments/seating/core/dryrun.py",
    "tournaments/seating/core/sizes.py",
    "tournaments/seating/core/words.py",
    "tournaments/seating/core/formats/mixer.py",
    "tournaments/seating/core/formats/progressive.py",
    "tournaments/seating/core/formats/round_robin.py",
    "tournaments/standings/core/metrics.py",
    "tournaments/standings/core/policy.py",
    "tournaments/standings/core/results.py",
    "tournaments/standings/core/ranking.py",
    "tournaments/standings/core/scales.py",
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
