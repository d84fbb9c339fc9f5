"""Roller Derby: four players in two partnerships; the Roller's team chases the dice.

rules.md section 2 is the decision. Teams A = seats 0,2 and B = seats 1,3. The
Roller sits left of the dealer (right under ``counter_clockwise``, where the deal
also passes right) and only the Roller's team scores in a deal.

A deliberate departure from rules.md, which lists ``dice`` among every deal's inputs:
in a deal played all or nothing the dice are optional. All or nothing "overrides the
dice roll" and scores 150 or 0 whatever the dice show, so the table is not asked for
them. A record that gives them is still read and checked as before (every existing
record stays valid and scores the same); a deal without them has no target, and its
``target`` in the scored output is null.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from common.phrases import Words, listed
from scoring.engines.base import (
    MAX_INT,
    N_,
    Conclusion,
    Engine,
    FieldSpec,
    InvalidRecord,
    OptionSpec,
    Phrase,
    Problem,
    RoundReader,
    RoundResult,
    Table,
    is_int,
    running,
    top_seats,
)

SEATS = 4
TRICKS = 13
MAX_JOKERS = 2
EXACT_SCORE = 100
TRICK_STEP = 10
ALL_OR_NOTHING_SCORE = 150
PENALTY_SIZE = 50
TEAMS: dict[str, list[int]] = {"A": [0, 2], "B": [1, 3]}
ROUND_KEYS = frozenset({"dice", "tricks", "all_or_nothing", "made", "jokers", "penalties"})


def trick_score(target: int, tricks: int, jokers: int = 0, joker_cost: int = 9) -> int:
    """The Roller's team's score for a normal deal (never below zero)."""
    return max(0, EXACT_SCORE - TRICK_STEP * abs(tricks - target) - joker_cost * jokers)


def team_label(seat: int) -> str:
    return "A" if seat % 2 == 0 else "B"


@dataclass
class DerbyState:
    """How the game stands after the deals recorded so far."""

    deals: int = 0
    totals: list[int] = field(default_factory=lambda: [0] * SEATS)
    all_or_nothing_used: dict[str, bool] = field(default_factory=lambda: {"A": False, "B": False})

    def team_total(self, label: str) -> int:
        return self.totals[TEAMS[label][0]]


class RollerDerby(Engine):
    key = "roller_derby"
    title = "Roller Derby"
    summary = N_(
        "Four players in two partnerships. The Roller rolls the dice for a target "
        "number of tricks; only the Roller's team scores, 100 for hitting it exactly."
    )
    player_counts = (SEATS,)
    round_word: ClassVar[str] = "Deal"
    preferred_table_size: ClassVar[int] = 4
    standings_metrics: ClassVar[tuple[str, ...]] = (
        "wins",
        "share",
        "opponents_strength",
        "head_to_head",
    )
    standings_strength: ClassVar[str] = "wins"
    record_extras = frozenset({"ended_early"})

    # -- descriptions ------------------------------------------------------

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return (
            OptionSpec(
                "deals",
                "choice",
                4,
                "Game length",
                "A short game is 4 deals, a long game 8 deals.",
                choices=(4, 8),
            ),
            OptionSpec(
                "dodecahedron",
                "bool",
                False,
                "Dodecahedron",
                "Roll one twelve-sided die (1-12) instead of two six-sided dice.",
            ),
            OptionSpec(
                "jokers_for_sale",
                "bool",
                False,
                "Jokers for sale",
                "The Roller may buy one or two Jokers after naming trump, each costing points.",
            ),
            OptionSpec(
                "joker_cost",
                "int",
                9,
                "Joker cost",
                "Points taken off the Roller's team's score for each Joker bought.",
                minimum=0,
                maximum=100,
            ),
            OptionSpec(
                "counter_clockwise",
                "bool",
                False,
                "Counter-clockwise",
                "The deal passes to the right and the Roller is the player right of the dealer.",
            ),
            OptionSpec(
                "early_finish_gap",
                "int_or_null",
                150,
                "Early finish gap",
                "Before the final deal, a lead of more than this may end the game; empty: never.",
                minimum=0,
                maximum=MAX_INT,
            ),
            OptionSpec(
                "rollers_privilege",
                "bool",
                False,
                "Roller's privilege",
                "The Roller sees the partner's three cards before choosing which to give back.",
                group="Play only",
                play_only=True,
            ),
        )

    def teams(self, players: int, options: Mapping[str, Any]) -> dict[str, list[int]]:
        return {
            "A": [seat for seat in range(players) if seat % 2 == 0],
            "B": [seat for seat in range(players) if seat % 2 == 1],
        }

    def round_fields(self, players: int, options: Mapping[str, Any]) -> tuple[FieldSpec, ...]:
        if options.get("dodecahedron", False):
            dice = FieldSpec(
                "dice",
                "dice",
                N_("Die"),
                N_(
                    "The Roller's roll of the twelve-sided die: the target number of tricks "
                    "(not needed when the deal is all or nothing)."
                ),
                required=False,
                minimum=1,
                maximum=12,
                count=1,
                column="Die",
            )
        else:
            dice = FieldSpec(
                "dice",
                "dice",
                N_("Dice"),
                N_(
                    "The Roller's two dice; their sum is the target number of tricks "
                    "(not needed when the deal is all or nothing)."
                ),
                required=False,
                minimum=1,
                maximum=6,
                count=2,
                column="Dice",
            )
        fields = [
            dice,
            FieldSpec(
                "tricks",
                "int",
                N_("Tricks"),
                N_("Tricks won by the Roller's team (needed unless the deal is all or nothing)."),
                required=False,
                minimum=0,
                maximum=TRICKS,
                column="Tricks",
            ),
        ]
        if options.get("jokers_for_sale", False):
            cost = options.get("joker_cost", 9)
            fields.append(
                FieldSpec(
                    "jokers",
                    "int",
                    N_("Jokers bought"),
                    Words(
                        N_(
                            "Jokers the Roller bought (0-2), {cost} points each; none in all or "
                            "nothing."
                        ),
                        {"cost": cost},
                    ),
                    required=False,
                    minimum=0,
                    maximum=MAX_JOKERS,
                    column="Jokers",
                )
            )
        fields += [
            FieldSpec(
                "all_or_nothing",
                "bool",
                N_("All or nothing"),
                N_("The Roller's team played for all the tricks or none (once per team per game)."),
                required=False,
                column="A/N",
            ),
            FieldSpec(
                "made",
                "bool",
                N_("All or nothing made"),
                Words(
                    N_(
                        "Only with all or nothing: did the Roller's team take all tricks or "
                        "none? Made scores {score}, failed 0."
                    ),
                    {"score": ALL_OR_NOTHING_SCORE},
                ),
                required=False,
                column="Made",
            ),
            FieldSpec(
                "penalties",
                "penalties",
                N_("Penalties"),
                Words(
                    N_(
                        "Points taken off the offender's team, usually {points} "
                        "(for example for failing to follow suit)."
                    ),
                    {"points": PENALTY_SIZE},
                ),
                required=False,
                minimum=0,
                column="Pen.",
            ),
        ]
        return tuple(fields)

    # -- the deal order ----------------------------------------------------

    @staticmethod
    def step(table: Table) -> int:
        return -1 if table.options.get("counter_clockwise", False) else 1

    def dealer_of(self, table: Table, number: int) -> int:
        """The dealer of deal ``number`` (1-based)."""
        return table.next_seat(table.first_dealer, self.step(table) * (number - 1))

    def roller_of(self, table: Table, number: int) -> int:
        return table.next_seat(self.dealer_of(table, number), self.step(table))

    # -- scoring -----------------------------------------------------------

    def start(self, table: Table) -> DerbyState:
        return DerbyState(totals=[0] * table.size)

    def read_dice(self, reader: RoundReader, table: Table, *, needed: bool = True) -> int | None:
        """The target number of tricks, or None: after recording a problem, or when the
        dice are not ``needed`` (all or nothing) and not given."""
        raw = reader.entry.get("dice")
        if table.options.get("dodecahedron", False):
            count, top = 1, 12
            shape = Phrase(N_("one value from 1 to 12 (the twelve-sided die)"))
        else:
            count, top = 2, 6
            shape = Phrase(N_("two values from 1 to 6 (two six-sided dice)"))
        if raw is None:
            if needed:
                reader.fail("dice", N_("dice is missing: record {shape}"), shape=shape)
            return None
        if not isinstance(raw, list) or len(raw) != count:
            reader.fail("dice", N_("dice must be a list of {shape}"), shape=shape)
            return None
        total = 0
        for index, value in enumerate(raw):
            which = (
                Phrase(N_("the die"))
                if count == 1
                else Phrase(N_("die {number}"), {"number": index + 1})
            )
            if not is_int(value):
                reader.fail(
                    "dice",
                    N_("dice: {which} must be a whole number from 1 to {top}"),
                    which=which,
                    top=top,
                )
                return None
            if not 1 <= value <= top:
                reader.fail(
                    "dice",
                    N_("dice: {which} shows {value}; a d{top} has 1 to {top}"),
                    which=which,
                    value=value,
                    top=top,
                )
                return None
            total += value
        return total

    def play(
        self, table: Table, state: DerbyState, number: int, entry: Mapping[str, Any]
    ) -> RoundResult:
        reader = RoundReader(number, entry)
        reader.only_keys(ROUND_KEYS)
        options = table.options
        dealer = self.dealer_of(table, number)
        roller = self.roller_of(table, number)
        team = team_label(roller)

        declared = entry.get("all_or_nothing", False)
        if not isinstance(declared, bool):
            reader.fail("all_or_nothing", N_("all_or_nothing must be true or false"))
            declared = False
        # All or nothing scores 150 or 0 whatever the dice show: they are not needed then.
        target = self.read_dice(reader, table, needed=not declared)
        if declared and state.all_or_nothing_used[team]:
            reader.fail(
                "all_or_nothing",
                N_("team {team} has already played all or nothing in this game (once per team)"),
                team=team,
            )

        made: bool | None = None
        tricks: int | None = None
        if declared:
            if "made" not in entry:
                reader.fail("made", N_("made is missing: was the all-or-nothing deal made?"))
            else:
                made = entry["made"]
                if not isinstance(made, bool):
                    reader.fail("made", N_("made must be true or false"))
                    made = None
            if "tricks" in entry:
                reader.fail("tricks", N_("tricks are not recorded in an all-or-nothing deal"))
        else:
            if "made" in entry:
                reader.fail("made", N_("made is only recorded in an all-or-nothing deal"))
            if "tricks" not in entry:
                reader.fail(
                    "tricks",
                    N_("tricks is missing: tricks won by the Roller's team (0-{most})"),
                    most=TRICKS,
                )
            else:
                tricks = reader.integer("tricks", entry["tricks"], 0, TRICKS)

        jokers = 0
        if "jokers" in entry:
            if not options.get("jokers_for_sale", False):
                reader.fail("jokers", N_("jokers are only recorded when Jokers for sale is on"))
            else:
                value = reader.integer("jokers", entry["jokers"], 0, MAX_JOKERS)
                if value is not None:
                    if declared and value:
                        reader.fail(
                            "jokers", N_("jokers cannot be bought for an all-or-nothing deal")
                        )
                    jokers = value

        penalties = reader.penalties(table.size)
        reader.done()

        if declared:
            score = ALL_OR_NOTHING_SCORE if made else 0
            state.all_or_nothing_used[team] = True
        else:
            assert tricks is not None and target is not None  # reader.done() raised otherwise
            score = trick_score(target, tricks, jokers, options.get("joker_cost", 9))

        deltas = [score if team_label(seat) == team else 0 for seat in range(table.size)]
        for offender, points in penalties:
            for seat in range(table.size):
                if team_label(seat) == team_label(offender):
                    deltas[seat] -= points
        state.totals = running(state.totals, deltas)
        state.deals = number
        return RoundResult(
            number=number,
            dealer=dealer,
            deltas=deltas,
            totals=list(state.totals),
            details={
                "roller": roller,
                "target": target,
                "team": team,
                "all_or_nothing": declared,
                "summary": self.summary_with_roller(table, entry, roller),
            },
        )

    def is_over(self, table: Table, state: DerbyState) -> bool:
        deals: int = table.options.get("deals", 4)
        return state.deals >= deals

    def early_finish_problem(self, table: Table, state: DerbyState) -> Phrase | None:
        """Why the game cannot end early now, or None when it can."""
        deals = table.options.get("deals", 4)
        gap = table.options.get("early_finish_gap", 150)
        if gap is None:
            return Phrase(N_("ended_early: the early finish is turned off for this game"))
        if state.deals != deals - 1:
            return Phrase(
                N_(
                    "ended_early: the game can only end early right before the final deal "
                    "(after {last} deals; {recorded} recorded)"
                ),
                {"last": deals - 1, "recorded": state.deals},
            )
        apart = abs(state.team_total("A") - state.team_total("B"))
        if apart <= gap:
            return Phrase(
                N_(
                    "ended_early: the teams are {apart} points apart; "
                    "ending early needs more than {gap}"
                ),
                {"apart": apart, "gap": gap},
            )
        return None

    def conclude(self, table: Table, state: DerbyState, extras: Mapping[str, Any]) -> Conclusion:
        ended = extras.get("ended_early", False)
        if not isinstance(ended, bool):
            raise InvalidRecord(
                [Problem(N_("ended_early must be true or false"), field="ended_early")]
            )
        problem = self.early_finish_problem(table, state)
        can_end_early = problem is None
        if ended and problem:
            raise InvalidRecord(
                [Problem(problem.template, field="ended_early", values=problem.values)]
            )
        deals = table.options.get("deals", 4)
        finished = ended or state.deals >= deals
        winners = top_seats(state.totals) if finished else []
        following = state.deals + 1
        roller = self.roller_of(table, following)
        return Conclusion(
            totals=list(state.totals),
            finished=finished,
            winners=winners,
            extras={"can_end_early": can_end_early, "ended_early": ended},
            upcoming={
                "dealer": self.dealer_of(table, following),
                "roller": roller,
                "roller_team": team_label(roller),
                "all_or_nothing_used": dict(state.all_or_nothing_used),
                "deals_left": 0 if finished else deals - state.deals,
            },
        )

    # -- people ------------------------------------------------------------

    def round_summary(self, table: Table, entry: Mapping[str, Any]) -> str:
        return self.summary_with_roller(table, entry, None)

    def summary_with_roller(
        self, table: Table, entry: Mapping[str, Any], roller: int | None
    ) -> str:
        """The round in a line; names the Roller when the deal number is known. ``Words``,
        said in the reader's language by the pages (English as a string)."""
        dice: Any = entry.get("dice")
        rolled = isinstance(dice, list) and bool(dice) and all(is_int(d) for d in dice)
        name = None if roller is None else table.players[roller]
        aon = entry.get("all_or_nothing") is True
        parts: list[Phrase] = []
        if rolled:
            target = sum(dice)
            roll = f"{'+'.join(str(d) for d in dice)} = {target}" if len(dice) > 1 else str(target)
            if name is None:
                parts.append(Phrase(N_("Rolled {roll}"), {"roll": roll}))
            else:
                parts.append(Phrase(N_("{name} rolled {roll}"), {"name": name, "roll": roll}))
        elif not (aon and dice is None):  # no dice needed (see the module's description)
            return ""
        if aon:
            made = entry.get("made") is True
            if rolled:
                said = N_("all or nothing, made") if made else N_("all or nothing, failed")
            elif name is None:
                said = N_("All or nothing, made") if made else N_("All or nothing, failed")
            else:
                said = (
                    N_("{name} called all or nothing, made")
                    if made
                    else N_("{name} called all or nothing, failed")
                )
            parts.append(Phrase(said, {"name": name} if name is not None and not rolled else {}))
            score = ALL_OR_NOTHING_SCORE if made else 0
        else:
            tricks = entry.get("tricks")
            if not is_int(tricks):
                return listed(parts)
            assert rolled
            jokers = entry.get("jokers", 0)
            jokers = jokers if is_int(jokers) else 0
            if jokers:
                parts.append(
                    Phrase(N_("bought 1 joker"))
                    if jokers == 1
                    else Phrase(N_("bought {count} jokers"), {"count": jokers})
                )
            parts.append(
                Phrase(N_("the Roller's team took 1 trick"))
                if tricks == 1
                else Phrase(N_("the Roller's team took {count} tricks"), {"count": tricks})
            )
            score = trick_score(target, tricks, jokers, table.options.get("joker_cost", 9))
        line = Words(N_("{what}: {score} points"), {"what": listed(parts, ", "), "score": score})
        penalties = entry.get("penalties") or []
        notes = []
        if isinstance(penalties, list):
            for item in penalties:
                if not isinstance(item, Mapping):
                    continue
                seat, points = item.get("player"), item.get("points")
                if is_int(seat) and 0 <= seat < table.size and is_int(points):
                    reason = item.get("reason")
                    why = f" ({reason})" if isinstance(reason, str) and reason else ""
                    notes.append(f"{table.players[seat]} -{points}{why}")
        if notes:
            return Words(N_("{line}; penalty: {notes}"), {"line": line, "notes": ", ".join(notes)})
        return line


__all__ = ["DerbyState", "RollerDerby", "trick_score"]
