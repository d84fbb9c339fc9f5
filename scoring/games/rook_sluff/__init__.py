"""Rook Sluff at the table: bids then tricks tapped from one pad, the last tricks the rest."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.engines import rook_sluff
from scoring.engines.base import ScoredGame
from scoring.entry.fields import BoundField, CountsThatSum, FieldKind, SeatInfo
from scoring.entry.forms import EntryForm
from scoring.games.kit import Kit, plural
from scoring.games.rook_sluff.printed import PRINTED
from scoring.games.rook_sluff.rules import RULES


@dataclass
class SluffRow:
    seat: SeatInfo
    bid: BoundField
    took: BoundField
    deals: bool
    bid_order: int = 0  # the order the pad fills the boxes: bids from the dealer's left,
    took_order: int = 0  # then the tricks in the same order


class RookSluffForm(EntryForm):
    def kinds(self) -> dict[str, FieldKind]:
        return {"tricks": CountsThatSum()}

    def adjust(self) -> None:
        fields = self.f
        self.tricks = fields["tricks"].extra["sum"] or 0
        self.teams = sorted({seat.team for seat in self.seats if seat.team})
        count = len(self.seats)
        first = ((self.dealer if self.dealer is not None else -1) + 1) % max(count, 1)
        self.rows = [
            SluffRow(
                seat,
                bid,
                took,
                seat.number == self.dealer,
                bid_order=(seat.number - first) % count,
                took_order=count + (seat.number - first) % count,
            )
            for seat, bid, took in zip(
                self.seats, fields["bids"].items, fields["tricks"].items, strict=True
            )
        ]
        low = fields["bids"].minimum or 0
        high = fields["bids"].maximum if fields["bids"].maximum is not None else self.tricks
        self.pad_values = list(range(low, high + 1))


class RookSluffKit(Kit):
    key = rook_sluff.RookSluff.key
    demo_players = 6
    demo_rounds = 3
    printed = PRINTED
    rules = RULES
    entry_form = RookSluffForm

    def facts(self, scored: ScoredGame, names: Mapping[int, str]) -> list[str]:
        upcoming = scored.upcoming
        facts = []
        left = upcoming.get("deals_left")
        if left is not None:
            facts.append(f"{plural(left, 'deal')} left")
        if upcoming.get("tricks"):
            facts.append(f"{upcoming['tricks']} tricks a deal")
        return facts

    def heading(self, upcoming: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
        return [f"{upcoming['tricks']} tricks"] if upcoming.get("tricks") else []


KIT = RookSluffKit()
