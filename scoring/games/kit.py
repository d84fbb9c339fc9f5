"""What the web layer knows of one game beyond its engine: a kit.

The engine scores; the kit says how the game reads at the table: its word for a
round ("Deal", "Hand"), its round form (the field kinds of its inputs, quick
choices), the facts shown under the scoreboard, anything more the scoreboard
holds (a board of chips) and how the game may be ended. (Its printed columns and
scoring reminder live beside it, in the game's ``printed`` module.)
The entry template and the script are found by the game's key. Every method
here has a plain default, so a kit states only what is odd to its game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from django.utils.translation import gettext_noop, pgettext, pgettext_lazy

from scoring.engines.base import RoundResult, ScoredGame
from scoring.engines.registry import ENGINES
from scoring.entry.forms import EntryForm
from scoring.games.printed_base import PrintedGame

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


# The context of an option's label and choices in the catalogue (a game's "Pass cards"
# are not an event's pass cards): said with ``option_words`` wherever a page or sheet shows
# them (a template: ``{% translate option.spec.label context "a game option" %}``).
OPTION = "a game option"


def option_words(text: str) -> str:
    """An option's label, or one of its choices in words ("two calls"), in the reader's
    language."""
    return pgettext(OPTION, text)


# An engine is a pure core and states its options, their help and its printed columns in
# English; the pages and sheets say them in the reader's language. Each game's
# ``scoring/games/<game>/engine_words.py`` marks them so that ``makemessages`` finds them (a
# contract test checks it holds every one): the options' labels and choices in the context
# OPTION, the printed columns in that of ``scoring.games.printed_base.heading`` (written out:
# the catalogue's tools read only a literal), the options' help plain.
#
# What the new-game page says of any game's options, besides each game's own words: the
# engines' group of play-only options, and a default in words (in the options' context).
OPTION_WORDS = (
    gettext_noop("Play only"),
    pgettext_lazy("a game option", "on"),
    pgettext_lazy("a game option", "off"),
    pgettext_lazy("a game option", "empty"),
)


@dataclass(frozen=True)
class BoardCell:
    """One section of a board of chips, as the table lays it out."""

    key: str
    short: str
    name: str
    chips: int
    red: bool = False
    centre: bool = False


@dataclass(frozen=True)
class Board:
    """Chips on the sections of a board (rows as on the table) and their sum."""

    rows: list[list[BoardCell]]
    total: int
    label: str = ""


@dataclass(frozen=True)
class RuleSection:
    """One part of a game's rules card: a heading and a few short lines (marked lazily, so
    that each reader reads them in their own language)."""

    heading: StrOrPromise
    lines: tuple[StrOrPromise, ...]


@dataclass(frozen=True)
class RulesCard:
    """The rules of a game on one phone screen, in the app's own words: how a round goes
    and how it scores, enough to settle a question at the table."""

    summary: StrOrPromise
    sections: tuple[RuleSection, ...]


class Kit:
    """The defaults: a game with rounds, a form built from its fields, no extra facts."""

    key: ClassVar[str] = ""
    entry_form: ClassVar[type[EntryForm]] = EntryForm
    printed: ClassVar[PrintedGame]  # the game on paper: its columns and reminder
    rules: ClassVar[RulesCard]  # the rules card, one tap from the table page
    # How a game may be ended before its natural end: "" (never), "early" (an offered
    # early finish), "leftovers" (a seat takes what is left on the board).
    ending: ClassVar[str] = ""
    # The demo table of this game (``manage.py demo``): how many play, how many rounds in.
    demo_players: ClassVar[int] = 4
    demo_rounds: ClassVar[int] = 2

    @property
    def word(self) -> str:
        """One round of play, as the players say it (the engine states it)."""
        return ENGINES[self.key].round_word

    @property
    def entry_template(self) -> str:
        return f"scoring/entry/{self.key}.html"

    @property
    def script(self) -> str:
        return f"js/games/{self.key}.js"

    def facts(self, scored: ScoredGame, names: Mapping[int, str]) -> list[str]:
        """Short lines about where an unfinished game stands: deals left, the target."""
        return []

    def heading(self, upcoming: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
        """What the line above the round form says besides who deals."""
        return []

    def markers(self, upcoming: Mapping[str, Any]) -> dict[int, str]:
        """Seats marked on the scoreboard for the next round besides the dealer ("rolls")."""
        return {}

    def out(self, scored: ScoredGame) -> set[int]:
        """Seats out of play (no chips left)."""
        return set()

    def board(self, sections: Mapping[str, int]) -> Board | None:
        """The board of chips, for a game that has one."""
        return None

    def board_of(self, scored: ScoredGame) -> Board | None:
        return None

    def round_board(self, result: RoundResult) -> Board | None:
        return None

    def round_details(self, result: RoundResult, names: Mapping[int, str]) -> list[str]:
        """Lines under a round in the lists ("Ann rolled 9")."""
        return []

    def side_name(self, key: str) -> str:
        """A side of a "per side" input, as a line of text says it: a team's label as it is
        ("A"), like the round's summary says it."""
        return key

    def can_end_early(self, scored: ScoredGame) -> bool:
        return self.ending == "early" and bool(scored.extras.get("can_end_early"))


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


def names_of(names: Mapping[int, str], seats: Sequence[int]) -> str:
    return ", ".join(names.get(s, "?") for s in seats)
