"""Rook Sluff at the table: a bid and the tricks taken per player, the tricks adding up."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.engines import rook_sluff
from scoring.engines.base import ScoredGame
from scoring.games.kit import Kit, plural
from scoring.games.rook_sluff.printed import PRINTED
from scoring.web.fields import BoundField, CountsThatSum, FieldKind, SeatInfo
from scoring.web.forms import EntryForm


@dataclass
class SluffRow:
    seat: SeatInfo
    bid: BoundField
    took: BoundField
    deals: bool


class RookSluffForm(EntryForm):
    def kinds(self) -> dict[str, FieldKind]:
        return {"tricks": CountsThatSum()}

    def adjust(self) -> None:
        fields = self.f
        self.tricks = fields["tricks"].extra["sum"] or 0
        self.teams = sorted({seat.team for seat in self.seats if seat.team})
        self.rows = [
            SluffRow(seat, bid, took, seat.number == self.dealer)
            for seat, bid, took in zip(
                self.seats, fields["bids"].items, fields["tricks"].items, strict=True
            )
        ]


class RookSluffKit(Kit):
    key = rook_sluff.RookSluff.key
    printed = PRINTED
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
