"""Rook Sluff at the table: every player's bid, then one team's tricks, from one pad.

The rules score a team on its bids added up, its tricks in total and each Sluff on
whether that player took a trick, so the form asks no more: a bid per player (a bid of
0 is what makes a Sluff), team A's tricks (team B's are the rest) and, beside each
Sluff, one tap when that player took a trick. It writes the engine's per-team deal
(``team_tricks``, ``failed_sluffs``); a correction of a deal recorded per player opens
with its team totals and failed Sluffs, which score the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext, ngettext

from scoring.engines import rook_sluff
from scoring.engines.base import FieldSpec, ScoredGame
from scoring.entry.fields import (
    BoundField,
    CountsThatSum,
    FieldKind,
    FormLike,
    Reading,
    RestOfTotal,
    SeatInfo,
)
from scoring.entry.forms import EntryForm
from scoring.games.kit import Kit
from scoring.games.rook_sluff.printed import PRINTED
from scoring.games.rook_sluff.rules import RULES


def team_label(form: FormLike, key: str) -> str:
    return gettext("Team %(team)s") % {"team": key}


class TeamTricks(RestOfTotal):
    """Each team's tricks: team A's tapped, team B's the rest of the deal's tricks."""

    def read(self, form: FormLike, bound: BoundField) -> Reading:
        blank = [item for item in bound.items if not form.data.get(item.name, "").strip()]
        if len(blank) == len(bound.items):
            first = bound.items[0].label if bound.items else gettext("one team")
            form.fail(
                bound.name,
                gettext(
                    "Enter the tricks %(team)s took; the other team's are the rest of %(total)s."
                )
                % {"team": first, "total": bound.maximum},
            )
            return False, None
        return super().read(form, bound)


@dataclass
class SluffRow:
    seat: SeatInfo
    bid: BoundField
    deals: bool
    sluff: bool  # the bid shown is 0: the row offers "took a trick"
    took_a_trick: bool
    bid_order: int = 0  # the order the pad fills the boxes: bids from the dealer's left


@dataclass
class TeamCell:
    team: str
    took: BoundField
    order: int


class RookSluffForm(EntryForm):
    def kinds(self) -> dict[str, FieldKind]:
        return {"tricks": CountsThatSum(), "team_tricks": TeamTricks(team_label)}

    def adjust(self) -> None:
        fields = self.f
        fields["tricks"].hidden = True  # entered per team (the module's description)
        team_tricks = fields["team_tricks"]
        self.tricks = team_tricks.maximum or 0
        self.teams = sorted({seat.team for seat in self.seats if seat.team})
        count = len(self.seats)
        first = ((self.dealer if self.dealer is not None else -1) + 1) % max(count, 1)
        failed = set(self.data.getlist("failed_sluffs"))
        self.rows = [
            SluffRow(
                seat,
                bid,
                seat.number == self.dealer,
                sluff=bid.value.strip() == "0",
                took_a_trick=str(seat.number) in failed,
                bid_order=(seat.number - first) % count,
            )
            for seat, bid in zip(self.seats, fields["bids"].items, strict=True)
        ]
        self.team_cells = [
            TeamCell(item.extra["side"], item, count + index)
            for index, item in enumerate(team_tricks.items)
        ]
        low = fields["bids"].minimum or 0
        high = fields["bids"].maximum if fields["bids"].maximum is not None else self.tricks
        self.pad_values = list(range(low, high + 1))

    def finish(self, entry: dict[str, Any]) -> dict[str, Any]:
        """Only the boxes of players who bid a Sluff count (a box ticked before the bid
        changed is no longer offered); none ticked: every Sluff made."""
        bids = entry.get("bids")
        failed = entry.pop("failed_sluffs", None) or []
        if isinstance(bids, list):
            kept = [seat for seat in failed if seat < len(bids) and bids[seat] == 0]
            if kept:
                entry["failed_sluffs"] = sorted(kept)
        return entry

    @classmethod
    def data_for(cls, entry: Mapping[str, Any], specs: Sequence[FieldSpec]) -> MultiValueDict:
        """A deal recorded per player opens as its team totals and failed Sluffs."""
        tricks = entry.get("tricks")
        bids = entry.get("bids")
        if isinstance(tricks, list) and isinstance(bids, list) and len(tricks) == len(bids):
            teams = rook_sluff.team_seats(len(bids))
            entry = {
                key: value for key, value in entry.items() if key not in {"tricks", "failed_sluffs"}
            }
            entry["team_tricks"] = {
                label: sum(tricks[seat] for seat in seats) for label, seats in teams.items()
            }
            entry["failed_sluffs"] = [
                seat
                for seat, (bid, took) in enumerate(zip(bids, tricks, strict=True))
                if bid == 0 and took
            ]
        return super().data_for(entry, specs)


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
            facts.append(
                ngettext("%(count)s deal left", "%(count)s deals left", left) % {"count": left}
            )
        tricks = upcoming.get("tricks")
        if tricks:
            facts.append(
                ngettext("%(count)s trick a deal", "%(count)s tricks a deal", tricks)
                % {"count": tricks}
            )
        return facts

    def heading(self, upcoming: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
        tricks = upcoming.get("tricks")
        if not tricks:
            return []
        return [ngettext("%(count)s trick", "%(count)s tricks", tricks) % {"count": tricks}]


KIT = RookSluffKit()
