"""A season's table: each night's places turned into points, added up by the season's rule.

Every counting rule is "count a player's best C nights", absences counting as nothing:
all nights (C = nights held), best N of M (C = N), the worst k nights dropped
(C = nights held - k). A player with fewer nights played than the minimum is listed
but not ranked. Ties on the total are broken by the season's tiebreaks in order;
players still level share a rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from scoring.engines.base import N_, Phrase, Problem

PlayerId = int

#: The most nights a season can count and the longest list of place points.
MAX_NIGHTS = 200
MAX_PLACES = 64


class Counting(StrEnum):
    ALL = "all"
    BEST = "best"
    DROP_WORST = "drop_worst"


COUNTING_LABELS: Mapping[Counting, str] = {
    Counting.ALL: N_("Every night's points summed"),
    Counting.BEST: N_("Best N nights count"),
    Counting.DROP_WORST: N_("The worst nights are dropped"),
}


class Tiebreak(StrEnum):
    WINS = "wins"
    COUNTBACK = "countback"
    NIGHTS = "nights"
    RECENT = "recent"
    ALL_POINTS = "all_points"


TIEBREAK_LABELS: Mapping[Tiebreak, str] = {
    Tiebreak.WINS: N_("More nights won"),
    Tiebreak.COUNTBACK: N_("Better best night, then next best (count-back)"),
    Tiebreak.NIGHTS: N_("More nights played"),
    Tiebreak.RECENT: N_("Better on the latest night, then the one before"),
    Tiebreak.ALL_POINTS: N_("More points over every night, dropped ones included"),
}

DEFAULT_PLACE_POINTS: tuple[int, ...] = (10, 8, 6, 5, 4, 3, 2, 1)
DEFAULT_TIEBREAKS: tuple[Tiebreak, ...] = (Tiebreak.WINS, Tiebreak.COUNTBACK, Tiebreak.RECENT)


@dataclass(frozen=True)
class SeasonRule:
    """How nights add up. ``best``: N of best N (Counting.BEST); ``drop``: the number of
    worst nights dropped (Counting.DROP_WORST); ``attendance``: points for every night
    played, on top of the place points (``place_points[0]`` for first, and so on; a place
    past the list scores only the attendance)."""

    counting: Counting = Counting.ALL
    best: int = 0
    drop: int = 0
    min_nights: int = 0
    place_points: tuple[int, ...] = DEFAULT_PLACE_POINTS
    attendance: int = 0
    tiebreaks: tuple[Tiebreak, ...] = DEFAULT_TIEBREAKS

    def problems(self) -> list[Problem]:
        found: list[Problem] = []
        if self.counting == Counting.BEST and not 1 <= self.best <= MAX_NIGHTS:
            found.append(
                Problem(N_("best nights must be 1 to {most}"), None, "best", {"most": MAX_NIGHTS})
            )
        if self.counting == Counting.DROP_WORST and not 1 <= self.drop <= MAX_NIGHTS:
            found.append(
                Problem(
                    N_("nights dropped must be 1 to {most}"), None, "drop", {"most": MAX_NIGHTS}
                )
            )
        if not 0 <= self.min_nights <= MAX_NIGHTS:
            found.append(
                Problem(
                    N_("minimum nights must be 0 to {most}"),
                    None,
                    "min_nights",
                    {"most": MAX_NIGHTS},
                )
            )
        if not 1 <= len(self.place_points) <= MAX_PLACES:
            found.append(
                Problem(
                    N_("give points for 1 to {most} places"),
                    None,
                    "place_points",
                    {"most": MAX_PLACES},
                )
            )
        elif any(p < 0 or p > 1000 for p in self.place_points):
            found.append(Problem(N_("place points must be 0 to 1000"), field="place_points"))
        elif list(self.place_points) != sorted(self.place_points, reverse=True):
            found.append(
                Problem(N_("a better place never scores fewer points"), field="place_points")
            )
        if not 0 <= self.attendance <= 1000:
            found.append(Problem(N_("attendance points must be 0 to 1000"), field="attendance"))
        if len(set(self.tiebreaks)) != len(self.tiebreaks):
            found.append(Problem(N_("each tiebreak once"), field="tiebreaks"))
        return found

    def counted(self, nights_held: int) -> int:
        """How many of a player's best nights count when ``nights_held`` nights were held."""
        if self.counting == Counting.BEST:
            return min(self.best, nights_held)
        if self.counting == Counting.DROP_WORST:
            return max(nights_held - self.drop, 0)
        return nights_held

    def points(self, place: int) -> int:
        """A night's points for a finishing place (1 for first)."""
        placed = self.place_points[place - 1] if 1 <= place <= len(self.place_points) else 0
        return placed + self.attendance

    def describe(self) -> str:
        """The rule in English words (``rule_phrase`` for a reader's language)."""
        return str(self.rule_phrase())

    def rule_phrase(self) -> Phrase:
        if self.counting == Counting.BEST:
            how = Phrase(N_("best {best} nights count"), {"best": self.best})
        elif self.counting == Counting.DROP_WORST:
            how = Phrase(
                N_("the worst {drop} night dropped")
                if self.drop == 1
                else N_("the worst {drop} nights dropped"),
                {"drop": self.drop},
            )
        else:
            how = Phrase(N_("every night counts"))
        points = "-".join(str(p) for p in self.place_points)
        extra: Phrase | str = (
            Phrase(N_(", +{points} for playing"), {"points": self.attendance})
            if self.attendance
            else ""
        )
        ranked: Phrase | str = (
            Phrase(N_("; ranked after {nights} nights"), {"nights": self.min_nights})
            if self.min_nights
            else ""
        )
        return Phrase(
            N_("Places score {points}{extra}; {how}{ranked}."),
            {"points": points, "extra": extra, "how": how, "ranked": ranked},
        )


@dataclass(frozen=True)
class Night:
    """One night of the season: its number (1, 2, ...) and each player's final place."""

    number: int
    places: Mapping[PlayerId, int]


@dataclass(frozen=True)
class NightScore:
    night: int
    place: int
    points: int
    counted: bool


@dataclass(frozen=True)
class SeasonRow:
    player: PlayerId
    rank: int | None  # None: not ranked yet (too few nights)
    total: int
    nights: tuple[NightScore, ...]  # the nights played, in order
    wins: int
    all_points: int

    @property
    def played(self) -> int:
        return len(self.nights)


@dataclass(frozen=True)
class SeasonTable:
    rule: SeasonRule
    nights_held: int
    rows: tuple[SeasonRow, ...] = field(default_factory=tuple)


def _sort_key(
    row: SeasonRow, tiebreaks: Sequence[Tiebreak], numbers: Sequence[int]
) -> tuple[object, ...]:
    keys: list[object] = [-row.total]
    by_night = {n.night: n.points for n in row.nights}
    for tiebreak in tiebreaks:
        if tiebreak == Tiebreak.WINS:
            keys.append(-row.wins)
        elif tiebreak == Tiebreak.COUNTBACK:
            keys.append(tuple(sorted(-n.points for n in row.nights)))
        elif tiebreak == Tiebreak.NIGHTS:
            keys.append(-row.played)
        elif tiebreak == Tiebreak.RECENT:
            keys.append(tuple(-by_night.get(n, 0) for n in reversed(numbers)))
        elif tiebreak == Tiebreak.ALL_POINTS:
            keys.append(-row.all_points)
    return tuple(keys)


def season_table(rule: SeasonRule, nights: Sequence[Night]) -> SeasonTable:
    """The season's table after ``nights`` (in any order; their numbers order them)."""
    ordered = sorted(nights, key=lambda n: n.number)
    numbers = [n.number for n in ordered]
    take = rule.counted(len(ordered))
    played: dict[PlayerId, list[tuple[int, int, int]]] = {}
    for night in ordered:
        for player, place in night.places.items():
            played.setdefault(player, []).append((night.number, place, rule.points(place)))
    rows: list[SeasonRow] = []
    for player, results in played.items():
        # The best nights count; of equal points the earlier night is the one counted.
        best = sorted(results, key=lambda r: (-r[2], r[0]))[:take]
        chosen = {r[0] for r in best}
        scores = tuple(
            NightScore(night=n, place=place, points=points, counted=n in chosen)
            for n, place, points in results
        )
        rows.append(
            SeasonRow(
                player=player,
                rank=None,
                total=sum(r[2] for r in best),
                nights=scores,
                wins=sum(1 for r in results if r[1] == 1),
                all_points=sum(r[2] for r in results),
            )
        )
    ranked = [r for r in rows if r.played >= rule.min_nights]
    unranked = [r for r in rows if r.played < rule.min_nights]
    keyed = sorted(
        ((_sort_key(r, rule.tiebreaks, numbers), r) for r in ranked), key=lambda kr: kr[0]
    )
    out: list[SeasonRow] = []
    previous: tuple[object, ...] | None = None
    rank = 0
    for position, (key, row) in enumerate(keyed, start=1):
        if key != previous:
            rank = position
            previous = key
        out.append(SeasonRow(row.player, rank, row.total, row.nights, row.wins, row.all_points))
    unranked.sort(key=lambda r: (-r.played, -r.total, r.player))
    return SeasonTable(rule=rule, nights_held=len(ordered), rows=tuple(out + unranked))
