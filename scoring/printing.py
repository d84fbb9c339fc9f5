"""Scoresheets from games: what each game's sheet shows, and print jobs of many sheets.

The builders read an engine's description of a round (its ``FieldSpec`` list with
printed ``column`` headings, and its options) and a scored game, and return the
plain ``Sheet`` dataclasses that ``scoring.scoresheets`` draws. Blank sheets use
the same columns with no rounds in them.

A print job (a stack of blank sheets, or the sheets of many games) is rendered
by a Celery task; ``print_job_request`` creates or reuses the job and queues the
task once the transaction commits, ``print_job_run`` does the work and records
progress and failures on the job row, where the page reads them.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import F, Q
from django.utils import timezone

from scoring.engines.base import (
    Engine,
    FieldSpec,
    GameRecord,
    InvalidRecord,
    OptionSpec,
    RoundResult,
    ScoredGame,
    is_int,
)
from scoring.engines.registry import ENGINES
from scoring.engines.roller_derby import ALL_OR_NOTHING_SCORE, trick_score
from scoring.engines.rook_sluff import deals_in_game, tricks_per_deal
from scoring.models import Game, PrintJob
from scoring.scoresheets import (
    Column,
    ColumnGroup,
    Row,
    SeatLine,
    Sheet,
    normalise_paper,
    render,
)
from scoring.selectors import game_record, round_rows

logger = logging.getLogger(__name__)

MAX_COPIES = 200
MAX_GAMES = 300
STALE_AFTER = timedelta(minutes=10)  # a job left queued or running this long is queued again
KEEP_JOBS = timedelta(days=7)  # finished print jobs (and their PDFs) are dropped after this

# A blank sheet for pen and paper leaves room for inputs some options add.
OPEN_SHEET_OPTIONS: dict[str, dict[str, Any]] = {"roller_derby": {"jokers_for_sale": True}}
# Options that change who plays with whom, and so the columns: each has sheets of its own.
SHAPE_OPTIONS = frozenset({"called_partner", "six_player", "single_deck"})
VARIANTS: dict[tuple[str, int], tuple[dict[str, Any], ...]] = {
    ("roolz", 4): ({"called_partner": True},),
    ("roolz", 6): ({"six_player": "two_calls"}, {"six_player": "three_pairs"}),
    ("rook_sluff", 4): ({"single_deck": True},),
}


@dataclass(frozen=True)
class BlankKind:
    """One kind of blank sheet: a game, a player count and the options that shape it."""

    game: str
    players: int
    options: Mapping[str, Any] | None = None

    @property
    def key(self) -> str:
        shape = ",".join(f"{k}={v}" for k, v in sorted((self.options or {}).items()))
        return f"{self.game}:{self.players}" + (f":{shape}" if shape else "")

    @property
    def label(self) -> str:
        engine = ENGINES[self.game]
        text = f"{engine.title}, {self.players} players"
        shape = _shape_words(engine, self.options or {})
        return f"{text} ({shape})" if shape else text


def blank_kinds() -> list[BlankKind]:
    """Every blank sheet there is: each game, each player count, each shaping option."""
    kinds: list[BlankKind] = []
    for key, engine in ENGINES.items():
        counts = sorted({*engine.player_counts, *(n for g, n in VARIANTS if g == key)})
        for players in counts:
            if players in engine.player_counts:
                kinds.append(BlankKind(key, players))
            kinds += [
                BlankKind(key, players, options) for options in VARIANTS.get((key, players), ())
            ]
    return kinds


def _shape_words(engine: Engine, options: Mapping[str, Any]) -> str:
    words = []
    for spec in engine.option_specs():
        if spec.name in SHAPE_OPTIONS and spec.name in options:
            value = options[spec.name]
            if value == spec.default:
                continue
            label = re.sub(r"\s*\(.*\)$", "", spec.label)
            words.append(label.lower() if spec.kind == "bool" else str(value).replace("_", " "))
    return ", ".join(words)


SECTION_HEADINGS = {
    "ten_spades": "10♠",
    "jack_diamonds": "J♦",
    "queen_clubs": "Q♣",
    "king_hearts": "K♥",
    "ace_spades": "A♠",
    "ace_king_diamonds": "AK♦",
    "seven_eight_nine": "789",
}
PART_HEADINGS = {"exchange": "Swap", "buyer": "By", "price": "Paid", "winners": "Won by"}


class PrintRequestError(ValueError):
    """A print request a person can fix (an unknown game, too many copies, ...)."""


# --------------------------------------------------------------------------- sheet context


@dataclass(frozen=True)
class RoundMarks:
    """What the database knows about a round beyond its input."""

    corrected: bool = False
    pending: bool = False
    confirmed_by: int | None = None


@dataclass(frozen=True)
class _Context:
    engine: Engine
    players: int
    names: tuple[str, ...] | None  # None: a blank sheet
    options: Mapping[str, Any]
    teams: Mapping[str, list[int]]
    fields: tuple[FieldSpec, ...]
    marks: Mapping[int, RoundMarks] = field(default_factory=dict)

    @property
    def blank(self) -> bool:
        return self.names is None

    def field(self, name: str) -> FieldSpec | None:
        return next((f for f in self.fields if f.name == name), None)

    def name(self, seat: Any) -> str:
        if not is_int(seat) or not 0 <= seat < self.players:
            return ""
        if self.names is None:
            return f"Seat {seat + 1}"
        return self.names[seat]

    def members(self, seats: Sequence[int]) -> str:
        if self.names is None:
            return "seats " + _and([str(s + 1) for s in seats])
        return _and([self.names[s] for s in seats])

    def team_of(self, seat: int) -> str:
        return next((label for label, seats in self.teams.items() if seat in seats), "")


@dataclass(frozen=True)
class _Col:
    """A printed column and how to read its cell from a round."""

    column: Column
    value: Callable[[Mapping[str, Any], RoundResult], str]
    group: str = ""
    note: str = ""


def _and(words: Sequence[str]) -> str:
    """Ann & Cat; Ann, Cat & Eve."""
    if len(words) <= 2:
        return " & ".join(words)
    return ", ".join(words[:-1]) + " & " + words[-1]


def _signed(number: int) -> str:
    return f"+{number}" if number > 0 else str(number)


def _penalty_total(entry: Mapping[str, Any]) -> str:
    penalties = entry.get("penalties") or []
    points = sum(p.get("points", 0) for p in penalties if isinstance(p, Mapping))
    return f"-{points}" if points else ""


def _seat_number(seat: Any) -> str:
    return str(seat + 1) if is_int(seat) else ""


def _tick(value: Any) -> str:
    return "✓" if value is True else ""


# --------------------------------------------------------------------------- shared columns


def _dealer(ctx: _Context, width: float = 44.0) -> _Col:
    return _Col(
        Column("Dealer", width, align="left", number=False),
        lambda entry, result: ctx.name(result.dealer),
    )


def _score_columns(ctx: _Context) -> list[_Col]:
    """A delta and a running total for every team, or for every player."""
    cols: list[_Col] = []
    sides = (
        [(f"Team {label}", ctx.members(seats), seats[0]) for label, seats in ctx.teams.items()]
        if ctx.teams
        else [(ctx.name(seat), "", seat) for seat in range(ctx.players)]
    )
    for title, note, seat in sides:
        cols.append(
            _Col(
                Column("+/-", 28.0, align="right"),
                lambda entry, result, seat=seat: _signed(result.deltas[seat]),
                title,
                note,
            )
        )
        cols.append(
            _Col(
                Column("Total", 34.0, align="right", total=True),
                lambda entry, result, seat=seat: str(result.totals[seat]),
                title,
                note,
            )
        )
    return cols


def _initials(ctx: _Context, width: float = 34.0) -> _Col:
    def value(entry: Mapping[str, Any], result: RoundResult) -> str:
        marks = ctx.marks.get(result.number, RoundMarks())
        if marks.pending:
            return "pending"
        if marks.confirmed_by is not None:
            return ctx.name(marks.confirmed_by)
        return ""

    return _Col(Column("Initials", width, align="left", number=False), value)


def _penalties(ctx: _Context, width: float = 26.0) -> list[_Col]:
    spec = ctx.field("penalties")
    if spec is None or not spec.column:
        return []
    return [_Col(Column(spec.column, width, align="right"), lambda e, r: _penalty_total(e))]


# --------------------------------------------------------------------------- Roolz


def _roolz_columns(ctx: _Context) -> list[_Col]:
    cols = [_dealer(ctx)]
    side_names = {"bidder": "Bidder", "opponents": "Opp."}

    def misdeal(entry: Mapping[str, Any]) -> bool:
        return entry.get("misdeal") is True

    for spec in ctx.fields:
        if not spec.column:
            continue
        if spec.name == "bidder":
            cols.append(
                _Col(
                    Column(spec.column, 44.0, align="left", number=False),
                    lambda e, r: "Misdeal" if misdeal(e) else ctx.name(e.get("bidder")),
                )
            )
        elif spec.name == "bid":
            cols.append(_Col(Column(spec.column, 24.0), lambda e, r: str(e.get("bid", ""))))
        elif spec.name == "partners":
            cols.append(
                _Col(
                    Column(
                        spec.column,
                        60.0 if spec.column == "Partners" else 46.0,
                        align="left",
                        number=False,
                    ),
                    lambda e, r: "" if misdeal(e) else _roolz_partners(ctx, e, r),
                )
            )
        elif spec.name == "won":
            for key in spec.keys:
                cols.append(
                    _Col(
                        Column(side_names.get(key, key), 26.0 if len(key) < 3 else 30.0),
                        lambda e, r, key=key: str((e.get("won") or {}).get(key, "")),
                        spec.column,
                    )
                )
        elif spec.name == "all_tricks":
            cols.append(
                _Col(
                    Column(spec.column.replace(" ", "\n", 1), 26.0, number=False),
                    lambda e, r: side_names.get(e.get("all_tricks"), e.get("all_tricks") or ""),
                )
            )
        elif spec.name == "penalties":
            cols += _penalties(ctx)
    cols += _score_columns(ctx)
    cols.append(_initials(ctx))
    return cols


def _roolz_partners(ctx: _Context, entry: Mapping[str, Any], result: RoundResult) -> str:
    partners = entry.get("partners") or []
    names = " & ".join(ctx.name(p) for p in partners)
    if result.details.get("twofer"):
        return f"{names} (twofer)" if names else "twofer"
    return names or "alone"


def _roolz_reminder(ctx: _Context) -> list[str]:
    options = ctx.options
    from scoring.engines.roolz import setup_for

    setup = setup_for(ctx.players, options)
    lines = [
        "Every round shares out 300 card points, always in fives: 15s score 15, 14s and 10s "
        "score 10, 5s score 5 and each Rooler 30.",
        f"Bids run from {setup.min_bid} to 300 in steps of 5.",
        "The bidding side scores what it took if that reaches its bid; short of it, "
        "it loses the bid instead. Every other side scores what it took.",
        "A side that takes every trick adds 100"
        + (" (a twofer that does it adds 200)." if setup.call in ("five", "two_calls") else "."),
    ]
    if setup.call == "five":
        lines.append(
            "Five players: the bidder calls a card and its holder is the partner for the round. "
            "If the card lies in the low hand the bidder plays alone: a twofer."
        )
    elif setup.call == "called_partner":
        lines.append("Called partner: the holder of the called card partners the bidder.")
    elif setup.call == "two_calls":
        lines.append(
            "Two calls: the bidder calls two cards; one player holding both makes a twofer."
        )
    if ctx.players == 3:
        lines.append("Three players: the bidder also plays the low hand; both others share a side.")
    target = options.get("target", 1000)
    end = (
        f"The game ends after a round that takes a side to {target} or more; the highest such "
        "side wins, and a tie for it plays on."
    )
    if options.get("must_reach_on_bid"):
        end += " Only a side that has just made its own bid can win."
    lines.append(end)
    lines.append("A misdeal scores nothing: write Misdeal and the same dealer deals again.")
    return lines


# --------------------------------------------------------------------------- Roller Derby


def _derby_score(ctx: _Context, entry: Mapping[str, Any], result: RoundResult) -> str:
    if entry.get("all_or_nothing") is True:
        return str(ALL_OR_NOTHING_SCORE if entry.get("made") is True else 0)
    target = result.details.get("target")
    tricks = entry.get("tricks")
    if not (is_int(target) and is_int(tricks)):
        return ""
    jokers = entry.get("jokers", 0) if is_int(entry.get("jokers", 0)) else 0
    return str(trick_score(target, tricks, jokers, ctx.options.get("joker_cost", 9)))


def _derby_columns(ctx: _Context) -> list[_Col]:
    cols = [
        _dealer(ctx, 42.0),
        _Col(
            Column("Roller", 42.0, align="left", number=False),
            lambda e, r: ctx.name(r.details.get("roller")),
        ),
    ]
    for spec in ctx.fields:
        if not spec.column:
            continue
        if spec.name == "dice":
            two = (spec.count or 1) > 1
            cols.append(
                _Col(
                    Column(spec.column, 34.0 if two else 24.0, guide="+" if two else ""),
                    lambda e, r: "+".join(str(d) for d in e.get("dice") or []),
                )
            )
            cols.append(_Col(Column("Target", 28.0), lambda e, r: str(r.details.get("target"))))
        elif spec.name == "tricks":
            cols.append(_Col(Column(spec.column, 28.0), lambda e, r: str(e.get("tricks", ""))))
        elif spec.name == "jokers":
            cols.append(_Col(Column(spec.column, 28.0), lambda e, r: str(e.get("jokers") or "")))
        elif spec.name == "all_or_nothing":
            cols.append(
                _Col(
                    Column(spec.column, 22.0, number=False),
                    lambda e, r: _tick(e.get("all_or_nothing")),
                )
            )
        elif spec.name == "made":
            cols.append(
                _Col(
                    Column(spec.column, 24.0, number=False),
                    lambda e, r: (
                        ("✓" if e.get("made") is True else "✗")
                        if e.get("all_or_nothing") is True
                        else ""
                    ),
                )
            )
        elif spec.name == "penalties":
            cols += _penalties(ctx)
    cols.append(_Col(Column("Score", 30.0), lambda e, r: _derby_score(ctx, e, r)))
    cols += _score_columns(ctx)
    cols.append(_initials(ctx))
    return cols


def _derby_reminder(ctx: _Context) -> list[str]:
    options = ctx.options
    direction = "right" if options.get("counter_clockwise") else "left"
    dice = "the twelve-sided die" if options.get("dodecahedron") else "the two dice"
    lines = [
        f"The Roller sits to the dealer's {direction} and rolls {dice}: their total is the "
        "target number of tricks. Only the Roller's team scores in a deal.",
        "Score: 100 for taking exactly the target, 10 less for every trick above or below it, "
        "never below 0. Tricks off the target: "
        + ", ".join(f"{off}\u00a0=\u00a0{100 - 10 * off}" for off in range(10))
        + ", 10\u00a0or\u00a0more\u00a0=\u00a00.",
        "All or nothing (once per team per game, no Jokers): all tricks or none scores 150, "
        "anything else 0.",
    ]
    if options.get("jokers_for_sale") or ctx.blank:
        cost = options.get("joker_cost", 9)
        lines.append(f"Jokers for sale: each Joker the Roller buys takes {cost} off the score.")
    deals = options.get("deals", 4)
    if ctx.blank:
        lines.append(
            "A short game is 4 deals (the heavy rule), a long game 8. Highest total wins; "
            "equal totals are a draw."
        )
    else:
        lines.append(f"The game lasts {deals} deals. Highest total wins; equal totals draw.")
    gap = options.get("early_finish_gap", 150)
    if gap is not None:
        lines.append(
            f"Before the final deal, a team ahead by more than {gap} may end the game there."
        )
    lines.append("Penalties (usually 50) come off the offending team's total.")
    return lines


# --------------------------------------------------------------------------- Rook Sluff


def _sluff_columns(ctx: _Context) -> list[_Col]:
    cols = [_dealer(ctx, 40.0)]
    per_seat = [spec for spec in ctx.fields if spec.kind == "per_seat" and spec.column]
    for label, seats in ctx.teams.items():
        for seat in seats:
            title = ctx.name(seat)
            for spec in per_seat:
                cols.append(
                    _Col(
                        Column(spec.column, 19.0),
                        lambda e, r, seat=seat, name=spec.name: str((e.get(name) or [""])[seat]),
                        title,
                        f"Team {label}",
                    )
                )
        team = f"Team {label}"
        note = "team score"
        cols.append(
            _Col(
                Column("Bid", 20.0),
                lambda e, r, label=label: str(r.details.get("team_bids", {}).get(label, "")),
                team,
                note,
            )
        )
        cols.append(
            _Col(
                Column("Took", 21.0),
                lambda e, r, label=label: str(r.details.get("team_tricks", {}).get(label, "")),
                team,
                note,
            )
        )
        cols.append(
            _Col(
                Column("+/-", 28.0, align="right"),
                lambda e, r, seat=seats[0]: _signed(r.deltas[seat]),
                team,
                note,
            )
        )
        cols.append(
            _Col(
                Column("Total", 32.0, align="right", total=True),
                lambda e, r, seat=seats[0]: str(r.totals[seat]),
                team,
                note,
            )
        )
    cols += _penalties(ctx)
    cols.append(_initials(ctx, 30.0))
    return cols


def _sluff_reminder(ctx: _Context) -> list[str]:
    tricks = tricks_per_deal(ctx.players)
    bonus = ctx.options.get("sluff_bonus", 50)
    deals = deals_in_game(ctx.players, ctx.options)
    return [
        f"Every player bids 0 to {tricks} tricks; a bid of 0 is a Sluff. A team's bid is the "
        "sum of its players' bids, its tricks the sum of theirs.",
        "A team that takes at least its bid scores 10 for each trick bid and 1 for each trick "
        "over; a team that falls short scores 0.",
        f"Each Sluff adds {bonus} to the team if the player took no trick, "
        f"and takes {bonus} off if they took any.",
        f"A deal has {tricks} tricks: the tricks column adds up to {tricks}.",
        f"The game lasts {deals} deals, so that everyone deals once."
        if deals == ctx.players
        else f"The game lasts {deals} deals.",
        "Highest team total wins; equal totals are a draw. Penalties come off the team.",
    ]


# --------------------------------------------------------------------------- Rummoli


def _rummoli_columns(ctx: _Context) -> list[_Col]:
    """Widow, poker and pay cards by seat number, then each player's hand and chips.

    Under betting poker every player's bet sits in their own column group, beside the
    cards they had left. Seven or eight groups of four columns are too wide for US
    Letter, so at seven and eight players a betting sheet leaves out the +/- column:
    the chips column still shows every balance.
    """
    cols = [
        _Col(Column("Dealer", 22.0), lambda e, r: _seat_number(r.dealer)),
    ]
    many = ctx.players >= 7
    poker = ctx.field("poker")
    betting = poker is not None and any(part.name == "bets" for part in poker.parts)
    compact = many or betting
    for spec in ctx.fields:
        if not spec.column:
            continue
        if spec.name == "widow":
            for part in spec.parts:
                heading = PART_HEADINGS.get(part.name, part.label)
                if part.name == "exchange":
                    value = _widow_swap
                elif part.name == "buyer":
                    value = _widow_buyer
                else:
                    value = _widow_price
                cols.append(_Col(Column(heading, 17.0), value, spec.column))
        elif spec.name == "poker":
            for part in spec.parts:
                if part.name == "winners":
                    cols.append(
                        _Col(Column(PART_HEADINGS["winners"], 24.0), _poker_winners, spec.column)
                    )
        elif spec.name == "pay_cards":
            for part in spec.parts:
                heading = SECTION_HEADINGS.get(part.name, part.label)
                cols.append(
                    _Col(
                        Column(heading, 17.0),
                        lambda e, r, section=part.name: _seat_number(
                            (e.get("pay_cards") or {}).get(section)
                        ),
                        "Pay cards: who took",
                    )
                )
        elif spec.name == "went_out":
            cols.append(
                _Col(
                    Column(spec.column, 18.0),
                    lambda e, r: (
                        "-" if e.get("went_out") is None else _seat_number(e.get("went_out"))
                    ),
                )
            )
    left = ctx.field("cards_left")
    for seat in range(ctx.players):
        title = f"{seat + 1} {ctx.names[seat]}" if ctx.names else f"Seat {seat + 1}"
        if betting:
            cols.append(
                _Col(Column("Bet", 14.0), lambda e, r, seat=seat: _poker_bet(e, seat), title)
            )
        if left is not None:
            cols.append(
                _Col(
                    Column("Left", 15.0),
                    lambda e, r, seat=seat: str((e.get("cards_left") or [""] * (seat + 1))[seat]),
                    title,
                )
            )
        if not (betting and many):
            cols.append(
                _Col(
                    Column("+/-", 19.0 if compact else 22.0, align="right"),
                    lambda e, r, seat=seat: _signed(r.deltas[seat]),
                    title,
                )
            )
        cols.append(
            _Col(
                Column("Chips", 23.0 if compact else 27.0, align="right", total=True),
                lambda e, r, seat=seat: str(r.totals[seat]),
                title,
            )
        )
    cols.append(
        _Col(
            Column("On\nboard", 24.0),
            lambda e, r: str(sum((r.details.get("board") or {}).values())),
        )
    )
    if not many:
        cols.append(_initials(ctx, 30.0))
    return cols


def _widow_swap(entry: Mapping[str, Any], result: RoundResult) -> str:
    widow = entry.get("widow") or {}
    return _tick(widow.get("exchange"))


def _widow_buyer(entry: Mapping[str, Any], result: RoundResult) -> str:
    return _seat_number((entry.get("widow") or {}).get("buyer"))


def _widow_price(entry: Mapping[str, Any], result: RoundResult) -> str:
    price = (entry.get("widow") or {}).get("price")
    return str(price) if is_int(price) else ""


def _poker_winners(entry: Mapping[str, Any], result: RoundResult) -> str:
    poker = entry.get("poker") or {}
    return ",".join(_seat_number(s) for s in poker.get("winners") or [])


def _poker_bet(entry: Mapping[str, Any], seat: int) -> str:
    """One player's bet into the poker pot; empty when the hand had no bets."""
    bets = (entry.get("poker") or {}).get("bets") or []
    bet = bets[seat] if seat < len(bets) else None
    return str(bet) if is_int(bet) else ""


def _rummoli_reminder(ctx: _Context) -> list[str]:
    options = ctx.options
    ante = options.get("ante", 1)
    chips = options.get("starting_chips", 50)
    lines = [
        f"Each hand starts with every player still in putting {ante} on each of the nine "
        "sections. Players are written by seat number.",
        "Widow: the dealer may swap hands with it (tick Swap), or sell it to another player "
        "(By: the buyer's seat, Paid: the price, paid to the dealer).",
        "Poker: the best five-card hand takes the poker pot"
        + (
            ", after the bets go in (Bet: the chips each player bet)"
            if options.get("poker") == "betting"
            else ""
        )
        + "; winners who tie share it and an odd chip stays.",
        "Pay cards: whoever plays 10♠, J♦, Q♣, K♥, A♠, A♦ with K♦, or 7-8-9 of one suit "
        "takes that section. Unclaimed sections carry over.",
        "Going out takes the rummoli section, and every other player pays one chip per card "
        "left (Left: cards left in hand). In a deadlock (Out:\u00a0-) those chips go onto the "
        "rummoli.",
    ]
    if options.get("short_stack", "pay_what_you_can") == "debt":
        lines.append("Debt: balances may go below zero.")
    else:
        lines.append(
            "Short of chips, a player pays what they can and is out at 0; the last player "
            "with chips takes the board."
        )
    lines.append(f"Check each hand: the chips in hand and on the board add up to {chips} a player.")
    return lines


# --------------------------------------------------------------------------- games


@dataclass(frozen=True)
class _GamePrint:
    columns: Callable[[_Context], list[_Col]]
    reminder: Callable[[_Context], list[str]]
    blank_rows: Callable[[_Context], int]
    fill_page: bool
    unit: str = "points"
    short_game_rows: int = 0
    by_seat_number: bool = False


GAMES: dict[str, _GamePrint] = {
    "roolz": _GamePrint(_roolz_columns, _roolz_reminder, lambda ctx: 16, True),
    "roller_derby": _GamePrint(
        _derby_columns,
        _derby_reminder,
        lambda ctx: 8 if ctx.blank else ctx.options.get("deals", 4),
        False,
    ),
    "rook_sluff": _GamePrint(
        _sluff_columns,
        _sluff_reminder,
        lambda ctx: deals_in_game(ctx.players, ctx.options),
        False,
    ),
    "rummoli": _GamePrint(
        _rummoli_columns,
        _rummoli_reminder,
        lambda ctx: 12,
        True,
        unit="chips",
        by_seat_number=True,
    ),
}


def _groups(cols: Sequence[_Col]) -> tuple[ColumnGroup, ...]:
    groups: list[ColumnGroup] = []
    current: list[Column] = []
    key: tuple[str, str] | None = None
    for col in cols:
        this = (col.group, col.note)
        if key is not None and (this != key or not col.group):
            groups.append(ColumnGroup(tuple(current), key[0], key[1]))
            current = []
        current.append(col.column)
        key = this
    if current and key is not None:
        groups.append(ColumnGroup(tuple(current), key[0], key[1]))
    return tuple(groups)


def _option_value(spec: OptionSpec, value: Any, ctx: _Context) -> str:
    if spec.kind == "bool":
        return "yes" if value else "no"
    if value is None:
        if ctx.engine.key == "rook_sluff" and spec.name == "deals":
            return f"{ctx.players} (one per player)"
        return "off"
    return str(value).replace("_", " ")


def _offered(spec: OptionSpec, players: int, engine: Engine) -> bool:
    """Whether the option can be in play at this table size (single deck: only with 4)."""
    if spec.player_counts is not None and players not in spec.player_counts:
        return False
    if spec.kind == "bool":
        flipped = {spec.name: not spec.default}
        return players in engine.allowed_player_counts(flipped)
    return True


def _options_in_force(ctx: _Context) -> tuple[str, ...]:
    items: list[str] = []
    for spec in ctx.engine.option_specs():
        if not _offered(spec, ctx.players, ctx.engine):
            continue
        value = ctx.options.get(spec.name, spec.default)
        if spec.play_only and not value:
            continue
        items.append(f"{spec.label}: {_option_value(spec, value, ctx)}")
    return tuple(items)


def _options_to_choose(ctx: _Context) -> tuple[str, ...]:
    """A blank sheet's options: tick boxes and blanks, the default shown first."""
    items: list[str] = []
    for spec in ctx.engine.option_specs():
        if not _offered(spec, ctx.players, ctx.engine):
            continue
        if spec.name in ("called_partner", "six_player", "single_deck"):
            continue  # these change the columns: a sheet of their own
        if spec.kind == "bool":
            items.append(f"☐ {spec.label}")
        elif spec.kind == "choice":
            choices = " ".join(f"☐ {_option_value(spec, c, ctx)}" for c in spec.choices)
            items.append(f"{spec.label}: {choices}")
        else:
            default = _option_value(spec, spec.default, ctx)
            items.append(f"{spec.label}: {default} or ____")
    return tuple(items)


def _subtitle(ctx: _Context) -> str:
    count = f"{ctx.players} players"
    if ctx.teams:
        teams = "; ".join(
            f"team {label}: {ctx.members(seats)}" for label, seats in ctx.teams.items()
        )
        return f"{count} in {len(ctx.teams)} teams ({teams})"
    if ctx.engine.key == "rummoli":
        return f"{count}, a chip ledger: one row per hand"
    return f"{count}, scores kept individually"


def _seat_lines(ctx: _Context) -> tuple[SeatLine, ...]:
    lines = []
    for seat in range(ctx.players):
        team = ctx.team_of(seat)
        if ctx.names is None:
            lines.append(SeatLine(f"Seat {seat + 1}", "", f"Team {team}" if team else ""))
        else:
            lines.append(SeatLine(str(seat + 1), ctx.names[seat], f"team {team}" if team else ""))
    return tuple(lines)


def _signatures(ctx: _Context) -> tuple[str, ...]:
    if ctx.teams:
        return tuple(
            f"Team {label}" + ("" if ctx.blank else f": {ctx.members(seats)}")
            for label, seats in ctx.teams.items()
        )
    return tuple(ctx.name(seat) for seat in range(ctx.players))


def _context(
    engine: Engine,
    players: int,
    options: Mapping[str, Any],
    names: tuple[str, ...] | None,
    marks: Mapping[int, RoundMarks] | None = None,
) -> _Context:
    return _Context(
        engine=engine,
        players=players,
        names=names,
        options=options,
        teams=engine.teams(players, options),
        fields=engine.round_fields(players, options),
        marks=marks or {},
    )


def blank_sheet(game: str, players: int, options: Mapping[str, Any] | None = None) -> Sheet:
    """A sheet for pen and paper: the columns this game records, empty rows, the rules."""
    engine = ENGINES.get(game)
    if engine is None:
        raise PrintRequestError(f"game must be one of {', '.join(ENGINES)}")
    open_sheet = options is None or set(options) <= SHAPE_OPTIONS
    chosen = dict(options or {})
    if open_sheet:
        chosen = {**OPEN_SHEET_OPTIONS.get(game, {}), **chosen}
    try:
        resolved = engine.resolve_options(chosen, players)
    except InvalidRecord as invalid:
        raise PrintRequestError(str(invalid)) from None
    if players not in engine.allowed_player_counts(resolved):
        counts = ", ".join(str(c) for c in engine.allowed_player_counts(resolved))
        raise PrintRequestError(f"{engine.title} is played by {counts} players, not {players}")
    ctx = _context(engine, players, resolved, None)
    kind = GAMES[game]
    cols = kind.columns(ctx)
    signature_note = "Signatures: initial each round in the last column when it is confirmed"
    shape = _shape_words(engine, resolved)
    return Sheet(
        title=f"{engine.title} scoresheet",
        subtitle=(f"{shape.capitalize()}: " if shape else "") + _subtitle(ctx),
        meta=(("Date", ""), ("Event", ""), ("Table", "")),
        seats=_seat_lines(ctx),
        options_title="Options (tick or fill in)" if open_sheet else "Options in force",
        options=_options_to_choose(ctx) if open_sheet else _options_in_force(ctx),
        groups=_groups(cols),
        blank_rows=kind.blank_rows(ctx),
        fill_page=kind.fill_page,
        short_game_rows=4 if game == "roller_derby" and open_sheet else 0,
        reminder=tuple(kind.reminder(ctx)),
        signatures_title=signature_note
        if any(c.column.heading == "Initials" for c in cols)
        else "Signatures",
        signatures=_signatures(ctx),
        footer=f"Tablescore · {engine.title}, {players} players · blank scoresheet",
        blank=True,
    )


def filled_sheet(
    record: GameRecord,
    *,
    scored: ScoredGame | None = None,
    marks: Mapping[int, RoundMarks] | None = None,
    meta: Sequence[tuple[str, str]] = (),
) -> Sheet:
    """The sheet of a recorded game: every round's inputs, deltas and running totals."""
    engine = ENGINES[record.game]
    if scored is None:
        scored = engine.score(record)
    players = len(record.players)
    ctx = _context(engine, players, scored.options, tuple(record.players), marks)
    kind = GAMES[record.game]
    cols = kind.columns(ctx)
    shape = _shape_words(engine, scored.options)
    rows = []
    for entry, result in zip(record.rounds, scored.rounds, strict=True):
        marked = ctx.marks.get(result.number, RoundMarks())
        rows.append(
            Row(
                str(result.number),
                tuple(col.value(entry, result) for col in cols),
                corrected=marked.corrected,
            )
        )
    totals = Row(
        "Total",
        tuple(_final_total(col, scored) if col.column.total else "" for col in cols),
    )
    return Sheet(
        title=f"{engine.title} scoresheet",
        subtitle=(f"{shape.capitalize()}: " if shape else "") + _subtitle(ctx),
        meta=tuple(meta),
        seats=_seat_lines(ctx),
        options=_options_in_force(ctx),
        groups=_groups(cols),
        rows=tuple(rows),
        totals=totals,
        result=_result(ctx, scored, kind.unit),
        notes=tuple(_notes(ctx, record, scored)),
        reminder=tuple(kind.reminder(ctx)),
        signatures_title="Signatures: the final score is agreed",
        signatures=_signatures(ctx),
        footer=f"Tablescore · {engine.title}, {players} players",
    )


def _final_total(col: _Col, scored: ScoredGame) -> str:
    """The final total of a Total column: the game's totals (after any record ending)."""
    fake = RoundResult(
        number=0, dealer=0, deltas=[0] * len(scored.totals), totals=list(scored.totals)
    )
    return col.value({}, fake)


def _side_words(ctx: _Context, seats: Sequence[int]) -> str:
    for label, members in ctx.teams.items():
        if sorted(members) == sorted(seats):
            return f"Team {label} ({ctx.members(members)})"
    return " and ".join(ctx.name(s) for s in seats)


def _sides_of(ctx: _Context, seats: Sequence[int]) -> list[list[int]]:
    if not ctx.teams:
        return [[s] for s in seats]
    found = []
    for members in ctx.teams.values():
        if any(s in seats for s in members):
            found.append(list(members))
    return found


def _result(ctx: _Context, scored: ScoredGame, unit: str) -> str:
    rounds = len(scored.rounds)
    noun = (
        "hand"
        if ctx.engine.key == "rummoli"
        else "deal"
        if ctx.engine.key in ("roller_derby", "rook_sluff")
        else "round"
    )
    played = f"{rounds} {noun}{'' if rounds == 1 else 's'}"
    if scored.finished:
        sides = _sides_of(ctx, scored.winners)
        best = scored.totals[scored.winners[0]] if scored.winners else 0
        if len(sides) == 1:
            text = f"Winner: {_side_words(ctx, sides[0])} with {best} {unit}"
        else:
            together = " and ".join(_side_words(ctx, s) for s in sides)
            text = f"Draw: {together} with {best} {unit} each"
        if scored.extras.get("ended_early"):
            text += ", the game ended early before the final deal"
        return f"{text} (after {played})."
    if not rounds:
        return "Not started yet."
    leaders = _sides_of(ctx, [s for s, t in enumerate(scored.totals) if t == max(scored.totals)])
    lead = " and ".join(_side_words(ctx, s) for s in leaders)
    verb = "leads" if len(leaders) == 1 else "lead"
    return f"In progress after {played}: {lead} {verb} with {max(scored.totals)} {unit}."


def _notes(ctx: _Context, record: GameRecord, scored: ScoredGame) -> list[str]:
    notes: list[str] = []
    corrected = sorted(n for n, m in ctx.marks.items() if m.corrected)
    if corrected:
        which = ", ".join(str(n) for n in corrected)
        notes.append(
            f"{'Rounds' if len(corrected) > 1 else 'Round'} {which} "
            f"(marked {'*'}) corrected after first entry."
        )
    pending = sorted(n for n, m in ctx.marks.items() if m.pending)
    if pending:
        which = ", ".join(str(n) for n in pending)
        notes.append(f"Waiting for confirmation: round{'s' if len(pending) > 1 else ''} {which}.")
    for number, entry in enumerate(record.rounds, start=1):
        for penalty in entry.get("penalties") or []:
            if not isinstance(penalty, Mapping):
                continue
            reason = penalty.get("reason") or ""
            why = f" ({reason})" if reason else ""
            notes.append(
                f"Round {number}: penalty, {ctx.name(penalty.get('player'))} "
                f"-{penalty.get('points')}{why}."
            )
    for result in scored.rounds:
        for warning in result.warnings:
            notes.append(f"Round {result.number}: {warning}.")
    end = record.extras.get("end")
    if isinstance(end, Mapping) and is_int(end.get("leftovers_to")) and scored.rounds:
        left = sum(scored.totals) - sum(scored.rounds[-1].totals)
        notes.append(
            f"At the end, the {left} chips left on the board went to "
            f"{ctx.name(end['leftovers_to'])}."
        )
    return notes


# --------------------------------------------------------------------------- from the database


def game_marks(game: Game) -> dict[int, RoundMarks]:
    return {
        row["number"]: RoundMarks(
            corrected=bool(row["corrected"]),
            pending=row["status"] != "confirmed",
            confirmed_by=row["confirmed_by_seat"],
        )
        for row in round_rows(game)
    }


def game_sheet(game: Game) -> Sheet:
    """The filled sheet of a stored game, its corrected and pending rounds marked."""
    record = game_record(game)
    meta = [("Game", f"#{game.pk}"), ("Started", f"{game.created_at:%d %b %Y}")]
    return filled_sheet(record, marks=game_marks(game), meta=meta)


def game_filename(game: Game) -> str:
    return f"{game.kind.replace('_', '-')}-game-{game.pk}.pdf"


def game_pdf(game: Game, paper: str) -> bytes:
    sheet = game_sheet(game)
    return render([sheet], paper, title=f"{game.engine.title} game #{game.pk}")


def default_paper() -> str:
    return normalise_paper(getattr(settings, "TABLESCORE_PAPER_SIZE", "A4"))


# --------------------------------------------------------------------------- print jobs


def blank_request(
    *, game: str, players: int, copies: int, options: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The ``what`` of a print job for a stack of blank sheets (checked)."""
    if not is_int(copies) or not 1 <= copies <= MAX_COPIES:
        raise PrintRequestError(f"copies must be from 1 to {MAX_COPIES}")
    blank_sheet(game, players, options)  # raises PrintRequestError for a bad combination
    what: dict[str, Any] = {"kind": "blank", "game": game, "players": players, "copies": copies}
    if options is not None:
        what["options"] = dict(options)
    return what


def games_request(game_ids: Sequence[int]) -> dict[str, Any]:
    ids = list(dict.fromkeys(game_ids))
    if not ids:
        raise PrintRequestError("choose at least one game to print")
    if len(ids) > MAX_GAMES:
        raise PrintRequestError(f"at most {MAX_GAMES} games can be printed at once")
    if not all(is_int(i) for i in ids):
        raise PrintRequestError("games are named by their numbers")
    found = set(Game.objects.filter(pk__in=ids).values_list("pk", flat=True))
    missing = [i for i in ids if i not in found]
    if missing:
        raise PrintRequestError(f"no such game: {', '.join(str(i) for i in missing)}")
    return {"kind": "games", "games": ids}


def _request_key(what: Mapping[str, Any], paper: str) -> str:
    material: dict[str, Any] = {"what": what, "paper": paper}
    if what.get("kind") == "games":
        # A game that changed since is printed afresh.
        material["revisions"] = sorted(
            Game.objects.filter(pk__in=what["games"]).values_list("pk", "revision")
        )
    canonical = json.dumps(material, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _filename(what: Mapping[str, Any]) -> str:
    if what.get("kind") == "blank":
        game = str(what["game"]).replace("_", "-")
        return f"{game}-{what['players']}-players-blank-x{what['copies']}.pdf"
    count = len(what.get("games", []))
    return f"scoresheets-{count}-game{'s' if count != 1 else ''}.pdf"


def print_job_request(*, what: Mapping[str, Any], paper: str | None = None) -> PrintJob:
    """The print job for this request: an existing one when asked before, else a new one.

    A finished or running job is reused; a failed or stale one is queued again. The
    task is queued after the transaction commits, so the worker always finds the row.
    """
    paper = normalise_paper(paper or default_paper())
    key = _request_key(what, paper)
    with transaction.atomic():
        job, created = PrintJob.objects.select_for_update().get_or_create(
            request_key=key,
            defaults={"what": dict(what), "paper_size": paper, "filename": _filename(what)},
        )
        if created:
            _queue(job.pk)
            _forget_old_jobs()
        else:
            _queue_again_if_needed(job)
    # Outside a transaction the task has been queued (or, eager, has run) by now.
    return PrintJob.objects.defer("pdf").get(pk=job.pk)


def _forget_old_jobs() -> None:
    """Print jobs are not records: a week on, their PDFs go, so the table stays small."""
    PrintJob.objects.filter(updated_at__lt=timezone.now() - KEEP_JOBS).delete()


def print_job_retry(*, job_id: int) -> PrintJob:
    """Queue a failed (or stuck) job again; a job that is fine is left as it is."""
    with transaction.atomic():
        job = PrintJob.objects.select_for_update().defer("pdf").get(pk=job_id)
        _queue_again_if_needed(job)
    return PrintJob.objects.defer("pdf").get(pk=job_id)


def _queue_again_if_needed(job: PrintJob) -> None:
    stale = timezone.now() - job.updated_at > STALE_AFTER
    if job.status == PrintJob.Status.FAILED or (
        job.status in (PrintJob.Status.QUEUED, PrintJob.Status.RUNNING) and stale
    ):
        job.status = PrintJob.Status.QUEUED
        job.error = ""
        job.progress_done = 0
        job.save(update_fields=["status", "error", "progress_done", "updated_at"])
        _queue(job.pk)


def _queue(job_id: int) -> None:
    transaction.on_commit(lambda: _enqueue(job_id))


def _enqueue(job_id: int) -> None:
    from scoring.tasks import render_print_job

    render_print_job.delay(job_id)


def _update(job_id: int, **values: Any) -> None:
    PrintJob.objects.filter(pk=job_id).update(updated_at=timezone.now(), **values)


def _sheets_for(job: PrintJob) -> tuple[Iterator[Sheet], int]:
    what = job.what or {}
    kind = what.get("kind")
    if kind == "blank":
        sheet = blank_sheet(what.get("game", ""), what.get("players", 0), what.get("options"))
        copies = what.get("copies", 1)
        if not is_int(copies) or not 1 <= copies <= MAX_COPIES:
            raise PrintRequestError(f"copies must be from 1 to {MAX_COPIES}")
        return iter([sheet] * copies), copies
    if kind == "games":
        ids = list(what.get("games") or [])
        return _game_sheets(ids), len(ids)
    raise PrintRequestError("this print job does not say what to print")


def _game_sheets(ids: Sequence[int]) -> Iterator[Sheet]:
    for game_id in ids:
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            raise PrintRequestError(f"Game #{game_id} no longer exists.")
        try:
            yield game_sheet(game)
        except InvalidRecord as invalid:
            raise PrintRequestError(f"Game #{game_id} cannot be scored: {invalid}") from None


class _Progress:
    """Writes progress to the job row, often enough to move a bar, rarely enough to be cheap."""

    def __init__(self, job_id: int, total: int):
        self.job_id = job_id
        self.step = max(1, total // 50)

    def __call__(self, done: int, total: int) -> None:
        if done == total or done % self.step == 0:
            report_progress(self.job_id, done, total)


def report_progress(job_id: int, done: int, total: int) -> None:
    _update(job_id, progress_done=done, progress_total=total)


def print_job_run(*, job_id: int) -> str:
    """Render a job's sheets; record progress, the file, or a failure on the job row.

    Idempotent: only a queued (or stale running) job is claimed, so a task delivered
    twice renders once. Database outages are raised for the task to retry; anything
    else is recorded on the job for the page to show, and logged.
    """
    stale = timezone.now() - STALE_AFTER
    claimable = Q(status=PrintJob.Status.QUEUED) | Q(
        status=PrintJob.Status.RUNNING, updated_at__lt=stale
    )
    claimed = PrintJob.objects.filter(claimable, pk=job_id).update(
        status=PrintJob.Status.RUNNING,
        progress_done=0,
        attempts=F("attempts") + 1,
        updated_at=timezone.now(),
    )
    if not claimed:
        status = PrintJob.objects.filter(pk=job_id).values_list("status", flat=True).first()
        return status or "missing"
    job = PrintJob.objects.get(pk=job_id)
    try:
        sheets, total = _sheets_for(job)
        _update(job_id, progress_total=total)
        pdf = render(
            sheets,
            job.paper_size,
            title=job.filename or "Scoresheets",
            total=total,
            on_progress=_Progress(job_id, total),
        )
    except (OperationalError, InterfaceError):
        _requeue_quietly(job_id)
        raise
    except PrintRequestError as problem:
        print_job_fail(job_id=job_id, error=str(problem))
        return PrintJob.Status.FAILED
    except Exception as error:
        logger.exception("print job %s failed", job_id)
        print_job_fail(
            job_id=job_id,
            error=f"The sheets could not be drawn ({error.__class__.__name__}: {error}). "
            "Try again; if it fails again, tell the organiser.",
        )
        return PrintJob.Status.FAILED
    _update(
        job_id,
        status=PrintJob.Status.DONE,
        pdf=pdf,
        size=len(pdf),
        progress_done=total,
        progress_total=total,
        error="",
    )
    return PrintJob.Status.DONE


def _requeue_quietly(job_id: int) -> None:
    # The database may be away: the retry then finds the job as it was left.
    with contextlib.suppress(OperationalError, InterfaceError):
        _update(job_id, status=PrintJob.Status.QUEUED)


def print_job_fail(*, job_id: int, error: str) -> None:
    _update(job_id, status=PrintJob.Status.FAILED, error=error[:2000])


def print_job_fail_quietly(*, job_id: int, error: str) -> None:
    """Record a failure if the database allows it (the caller has logged the cause)."""
    try:
        print_job_fail(job_id=job_id, error=error)
    except (OperationalError, InterfaceError):
        logger.warning("print job %s: could not record its failure", job_id)


def describe(what: Mapping[str, Any], paper: str) -> str:
    """A print job in words: "10 blank Roolz sheets for 4 players, A4"."""
    paper_name = {"A4": "A4", "LETTER": "US Letter"}.get(paper, paper)
    if what.get("kind") == "blank":
        engine = ENGINES.get(what.get("game", ""))
        title = engine.title if engine else what.get("game", "")
        copies = what.get("copies", 1)
        noun = "sheet" if copies == 1 else "sheets"
        return f"{copies} blank {title} {noun} for {what.get('players')} players, {paper_name}"
    count = len(what.get("games") or [])
    return f"Scoresheets of {count} game{'' if count == 1 else 's'}, {paper_name}"


def paper_from(value: str | None) -> str:
    """A paper size from a request (``?paper=letter``), else the site's default."""
    if not value:
        return default_paper()
    try:
        return normalise_paper(value)
    except ValueError:
        return default_paper()


def safe_filename(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-") or "scoresheets.pdf"
