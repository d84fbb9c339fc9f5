"""A plain description of a bracket for drawing: sections of columns of matches.

The bracket page and the bracket PDF both draw from this: each column is a
round, each match lists its seats (a name, or where the seat comes from) and
the matches that feed it, so lines can be drawn from feeder to fed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from common.phrases import N_, Words

from .state import BracketState, Feed, MatchView, Placement, Status

# Titles and labels are Words: English text that keeps its marked template, so that a page
# says them in its reader's language (see scoring.engines.base).
SECTION_TITLES = {
    "main": N_("Bracket"),
    "winners": N_("Winners' bracket"),
    "losers": N_("Losers' bracket"),
    "grand_final": N_("Grand final"),
    "third_place": N_("Third place"),
}
SECTION_ORDER = ("main", "winners", "third_place", "losers", "grand_final")
NAMED_ROUNDS = {1: N_("Final"), 2: N_("Semifinals"), 3: N_("Quarterfinals")}

# What a column holds: the core's matches here; a page's matches (names, table links) when
# the adapter dresses them, in the same sections and columns.
M = TypeVar("M")


@dataclass(frozen=True)
class LayoutSeat:
    entrant: str | None
    seed: int | None  # 1-based seed of the entrant, when known
    label: str  # what to print: the name, "Bye", "Winner of R1-2", "To be drawn"
    advanced: bool  # went on from this match (or won it)


@dataclass(frozen=True)
class LayoutMatch:
    id: str
    number: int
    status: Status
    seats: tuple[LayoutSeat, ...]
    feeders: tuple[str, ...]  # the matches whose lines run into this one
    advance: int  # how many go on (0: a final)
    overridden: bool  # decided by the director: show it, with the reason on the page


@dataclass(frozen=True)
class LayoutColumn(Generic[M]):
    round: int
    title: str
    matches: tuple[M, ...]


@dataclass(frozen=True)
class LayoutSection(Generic[M]):
    key: str
    title: str
    columns: tuple[LayoutColumn[M], ...]


@dataclass(frozen=True)
class BracketLayout:
    sections: tuple[LayoutSection[LayoutMatch], ...]
    placements: tuple[Placement, ...]
    complete: bool

    @property
    def widest_column(self) -> int:
        """The most matches in one column: what a page sizes its height by."""
        return max(
            (len(column.matches) for section in self.sections for column in section.columns),
            default=0,
        )


def ordinal(place: int) -> Words:
    """1st, 2nd, 3rd, 4th ... 11th, 21st (a first place is its own word in some languages)."""
    if place == 1:
        return Words(N_("1st"))
    if 10 <= place % 100 <= 20:
        return Words(N_("{number}th"), {"number": place})
    suffixed = {1: N_("{number}st"), 2: N_("{number}nd"), 3: N_("{number}rd")}
    template = suffixed[place % 10] if place % 10 in suffixed else N_("{number}th")
    return Words(template, {"number": place})


def _feed_label(feed: Feed, two_team: bool) -> Words:
    if feed.place == 1:
        return Words(N_("Winner of {match}"), {"match": feed.match})
    if two_team:
        return Words(N_("Loser of {match}"), {"match": feed.match})
    return Words(N_("{place} of {match}"), {"place": ordinal(feed.place), "match": feed.match})


def _seat(view: MatchView, index: int, seed_of: dict[str, int], two_team: bool) -> LayoutSeat:
    name = view.seats[index]
    feed = view.feeds[index]
    if name is not None:
        went_on = name in view.finish[: max(view.advance, 1)]
        return LayoutSeat(name, seed_of.get(name), name, went_on)
    if view.status is Status.WAITING:
        label = _feed_label(feed, two_team) if feed is not None else Words(N_("To be drawn"))
    else:
        label = Words(N_("Bye"))
    return LayoutSeat(None, None, label, False)


def _round(rnd: int) -> Words:
    return Words(N_("Round {number}"), {"number": rnd})


def _column_title(section: str, rnd: int, rounds: int) -> Words:
    if section == "main":
        named = NAMED_ROUNDS.get(rounds - rnd + 1)
        return Words(named) if named else _round(rnd)
    if section == "grand_final":
        return Words(N_("Grand final") if rnd == 1 else N_("Grand final, second game"))
    if section == "third_place":
        return Words(N_("Third place"))
    return _round(rnd)


def _section_title(key: str) -> str:
    known = SECTION_TITLES.get(key)
    if known:
        return Words(known)
    if key.startswith("places "):
        first, _, last = key.split()[-1].partition("-")
        return Words(N_("Places {first}-{last}"), {"first": first, "last": last})
    return key.capitalize()


def bracket_layout(state: BracketState, seeds: Sequence[str]) -> BracketLayout:
    """Sections (in reading order) of columns (rounds) of matches, from a bracket's state."""
    seed_of = {name: index + 1 for index, name in enumerate(seeds)}
    two_team = all(len(view.seats) == 2 for view in state.matches)
    by_section: dict[str, dict[int, list[MatchView]]] = {}
    for view in state.matches:
        by_section.setdefault(view.section, {}).setdefault(view.round, []).append(view)
    # A table elimination's main line is titled by its tables, not by "Final / Semifinals".
    tables = not two_team
    keys = sorted(
        by_section,
        key=lambda key: (
            SECTION_ORDER.index(key) if key in SECTION_ORDER else len(SECTION_ORDER),
            int(key.split()[-1].split("-")[0]) if key.startswith("places") else 0,
        ),
    )
    sections: list[LayoutSection[LayoutMatch]] = []
    for key in keys:
        rounds = by_section[key]
        last = max(rounds)
        columns: list[LayoutColumn[LayoutMatch]] = []
        for rnd in sorted(rounds):
            matches = tuple(
                LayoutMatch(
                    id=view.id,
                    number=view.number,
                    status=view.status,
                    seats=tuple(_seat(view, i, seed_of, two_team) for i in range(len(view.seats))),
                    feeders=view.feeding_matches,
                    advance=view.advance,
                    overridden=view.override is not None,
                )
                for view in sorted(rounds[rnd], key=lambda v: v.number)
            )
            title = _round(rnd) if tables else _column_title(key, rnd, last)
            if tables and len(matches) == 1 and rnd == last and matches[0].advance == 0:
                title = Words(N_("Final table") if key == "main" else N_("Placement table"))
            columns.append(LayoutColumn(rnd, title, matches))
        sections.append(LayoutSection(key, _section_title(key), tuple(columns)))
    return BracketLayout(tuple(sections), state.placements, state.complete)
