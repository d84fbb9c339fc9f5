"""Roolz at the table: every bid one tap away, points won by buttons, the rest of the total."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, pgettext

from scoring.engines import roolz
from scoring.engines.base import FieldSpec, ScoredGame
from scoring.entry.fields import (
    NO_SEAT,
    BoundField,
    Choice,
    FieldKind,
    Number,
    RestOfTotal,
    and_list,
    words,
)
from scoring.entry.forms import EntryForm
from scoring.games.kit import Kit
from scoring.games.roolz.printed import PRINTED
from scoring.games.roolz.rules import RULES

# Points the bidding side commonly takes, said against its bid: a little short, made
# exactly (0), a little over. Each button shows the points themselves; the other side
# gets the rest of the round's total.
POINT_OFFSETS = (-20, -15, -10, -5, 5, 10, 15, 20, 30, 40, 50)


def quick_bids(spec: FieldSpec) -> list[int]:
    """Every bid the engine allows, lowest to highest: the whole ladder, one tap each."""
    low = spec.minimum or 0
    high = spec.maximum if spec.maximum is not None else low
    return list(range(low, high + 1, spec.step or 1))


def side_label(form: EntryForm, key: str) -> str:
    return side_name(key)


def side_name(key: str) -> str:
    if key == roolz.BIDDER:
        return gettext("Bidder's side")
    if key == roolz.OPPONENTS:
        return gettext("Opponents")
    return gettext("Team %(team)s") % {"team": key}


def no_partner_text(call: str | None) -> str:
    """The engine's choice of no partner in this call mode, in the reader's language."""
    text = roolz.no_partner_choice(call)
    return words(text) if text else ""


class RoolzForm(EntryForm):
    @property
    def setup(self) -> roolz.Setup:
        return roolz.setup_for(len(self.seats), self.options)

    def kinds(self) -> dict[str, FieldKind]:
        bid = next(spec for spec in self.specs if spec.name == "bid")
        return {
            "bid": Number(quick=quick_bids(bid)),
            "won": RestOfTotal(
                side_label, full="all_tricks", full_fills=not self.options.get("point_discards")
            ),
        }

    def adjust(self) -> None:
        fields = self.f
        fields["misdeal"].hidden = True  # recorded by its own button
        setup = self.setup
        slam = fields["all_tricks"]
        slam.choices = [Choice("", pgettext("an answer", "No"), not slam.value)] + [
            Choice(c.value, side_label(self, c.value), c.selected) for c in slam.choices
        ]
        slam.extra["fills"] = not self.options.get("point_discards", False)
        partners = fields.get("partners")
        if partners is not None:
            partners.extra["call"] = setup.call
            partners.extra["several"] = setup.call == roolz.CALL_TWO
            nobody = no_partner_text(setup.call)
            if nobody:
                partners.choices.append(Choice(NO_SEAT, nobody, NO_SEAT in partners.values))
        fields["won"].extra["individual"] = setup.individual
        fields["won"].extra["offsets"] = [
            {"value": o, "label": f"+{o}" if o > 0 else f"\N{MINUS SIGN}{-o}"}
            for o in POINT_OFFSETS
        ]
        for item in fields["won"].items:
            item.extra["members"] = self.members(item.extra["side"])
        for choice in slam.choices:
            members = self.members(choice.value)
            if choice.value and members:
                choice.note = members

    def members(self, key: str) -> str:
        return and_list([s.name for s in self.seats if key and s.team == key])

    def read_field(self, spec: FieldSpec, bound: BoundField) -> tuple[bool, Any]:
        if bound.name == "partners" and self.setup.call in (roolz.CALL_ONE, roolz.CALL_FIVE):
            chosen = [v for v in self.data.getlist("partners") if v]
            if not chosen:
                message = (
                    gettext("Choose the partner, or twofer if the card was in the low hand.")
                    if self.setup.call == roolz.CALL_FIVE
                    else gettext('Choose the partner, or "%(nobody)s".')
                    % {"nobody": no_partner_text(self.setup.call)}
                )
                self.fail("partners", message)
                return False, None
        return super().read_field(spec, bound)

    def finish(self, entry: dict[str, Any]) -> dict[str, Any]:
        if entry.get("misdeal") is not True:
            entry.pop("misdeal", None)
        return entry


class RoolzKit(Kit):
    key = roolz.Roolz.key
    demo_rounds = 3
    printed = PRINTED
    rules = RULES
    entry_form = RoolzForm

    def side_name(self, key: str) -> str:
        """The individual game's sides in the reader's words; a team's label as it is."""
        return side_name(key) if key in roolz.INDIVIDUAL_SIDES else key

    def facts(self, scored: ScoredGame, names: Mapping[int, str]) -> list[str]:
        facts = []
        if "target" in scored.options:
            facts.append(gettext("Target %(target)s") % {"target": scored.options["target"]})
        if "min_bid" in scored.upcoming:
            facts.append(gettext("Bids from %(bid)s") % {"bid": scored.upcoming["min_bid"]})
        return facts


KIT = RoolzKit()
