"""Rummoli at the table: the nine-section board, the widow, poker, pay cards, going out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext

from scoring.engines import rummoli
from scoring.engines.base import FieldSpec, RoundResult, ScoredGame
from scoring.entry.fields import (
    NO_SEAT,
    BoundField,
    Choice,
    ClaimedSections,
    FieldKind,
    parse_int,
    read_int,
    read_seat,
    words,
)
from scoring.entry.forms import EntryForm
from scoring.games.kit import Board, BoardCell, Kit
from scoring.games.rummoli.printed import PRINTED
from scoring.games.rummoli.rules import RULES

# The sections as the board prints them.
SECTION_SHORT: dict[str, str] = {
    rummoli.RUMMOLI: "Rummoli",
    rummoli.POKER: "Poker",
    "ten_spades": "10♠",
    "jack_diamonds": "J♦",
    "queen_clubs": "Q♣",
    "king_hearts": "K♥",
    "ace_spades": "A♠",
    "ace_king_diamonds": "A♦ K♦",
    "seven_eight_nine": "7-8-9",
}
RED_SECTIONS = frozenset({"jack_diamonds", "king_hearts", "ace_king_diamonds"})
# The board as it is laid out on the table: three by three, the rummoli in the centre.
LAYOUT: tuple[tuple[str, str, str], ...] = (
    ("ten_spades", "jack_diamonds", "queen_clubs"),
    ("king_hearts", rummoli.RUMMOLI, "ace_spades"),
    ("ace_king_diamonds", rummoli.POKER, "seven_eight_nine"),
)


class RummoliForm(EntryForm):
    def kinds(self) -> dict[str, FieldKind]:
        return {"pay_cards": ClaimedSections()}

    def adjust(self) -> None:
        fields = self.f
        out = set(self.context.get("out", []))
        dealer = self.dealer

        def mark(choices: list[Choice], *, no_dealer: bool = False) -> None:
            for choice in choices:
                seat = parse_int(choice.value)
                if seat in out:
                    choice.disabled, choice.note = True, gettext("out")
                elif no_dealer and seat == dealer:
                    choice.disabled, choice.note = True, gettext("deals")

        widow = fields["widow"]
        parts = widow.by_name
        mode = self.data.get("widow", "")
        if not mode:
            if self.data.get("widow.exchange"):
                mode = "exchange"
            elif self.data.get("widow.buyer") or self.data.get("widow.price"):
                mode = "buy"
        widow.value = mode
        widow.choices = [
            Choice("", gettext("Nobody took it"), mode == ""),
            Choice("exchange", gettext("Dealer exchanged"), mode == "exchange"),
            Choice("buy", gettext("Bought"), mode == "buy"),
        ]
        mark(parts["buyer"].choices, no_dealer=True)
        parts["buyer"].extra["choose"] = gettext("who bought the widow")
        parts["price"].extra["enter"] = gettext("the price paid for the widow")
        poker = fields["poker"].by_name
        mark(poker["winners"].choices)
        poker["winners"].extra["choose"] = gettext("who won the poker pot")
        if "bets" in poker:
            for item in poker["bets"].items:
                if item.extra["seat"] in out:
                    item.disabled = True
        board = self.context.get("board", {})
        ante = self.options.get("ante", 1)
        playing = len(self.seats) - len(out)
        for item in fields["pay_cards"].items:
            section = item.name.rsplit(".", 1)[-1]
            item.extra["chips"] = board.get(section, 0) + ante * playing
            item.extra["short"] = SECTION_SHORT.get(section, item.label)
            item.extra["short_lines"] = item.extra["short"].split(" ")  # "A♦ K♦": two lines
            item.extra["red"] = section in RED_SECTIONS
            item.choices = [Choice("", gettext("Not claimed"), not item.value), *item.choices]
            mark(item.choices)
        self.out_seats = out
        pay = fields["pay_cards"].items
        self.pay_rows = [
            {
                "seat": seat,
                "out": seat.number in out,
                "cells": [
                    {"item": item, "choice": choice}
                    for item in pay
                    for choice in item.choices
                    if choice.value == str(seat.number)
                ],
            }
            for seat in self.seats
        ]
        # Every count the engine accepts at this table, its limits read from the field.
        cards = fields["cards_left"]
        low = cards.minimum or 0
        high = cards.maximum if cards.maximum is not None else low
        self.cards_pad = list(range(low, high + 1))
        went_out = fields["went_out"]
        went_out.choices.append(Choice(NO_SEAT, gettext("Deadlock"), went_out.value == NO_SEAT))
        mark(went_out.choices)
        for item in fields["cards_left"].items:
            if item.extra["seat"] in out:
                item.disabled = True

    def read_field(self, spec: FieldSpec, bound: BoundField) -> tuple[bool, Any]:
        if bound.name == "widow":
            parts = bound.by_name
            if bound.value == "exchange":
                return True, {"exchange": True}
            if bound.value == "buy":
                buyer = read_seat(self, parts["buyer"], required=True)
                price = read_int(self, parts["price"], required=True)
                if buyer is None or price is None:
                    return False, None
                return True, {"buyer": buyer, "price": price}
            return False, None
        if bound.name == "poker":
            present, value = super().read_field(spec, bound)
            winners = value.get("winners") if present else None
            bets = value.get("bets") if present else None
            if not winners:
                if bets and any(bets):
                    self.fail("poker.winners", gettext("Choose who won the poker pot."))
                return False, None
            poker: dict[str, Any] = {"winners": winners}
            if bets and any(bets):
                poker["bets"] = bets
            return True, poker
        if bound.name == "went_out":
            text = self.data.get("went_out", "")
            if text == NO_SEAT:
                return True, None
            if not text:
                self.fail("went_out", gettext("Choose who went out, or deadlock."))
                return False, None
        if bound.name == "cards_left":
            went_out = parse_int(self.data.get("went_out", ""))
            out = set(self.context.get("out", []))
            for item in bound.items:
                seat = item.extra["seat"]
                if (seat == went_out or seat in out) and not self.data.get(item.name, "").strip():
                    self.data = self.data.copy()
                    self.data[item.name] = "0"
        return super().read_field(spec, bound)

    def finish(self, entry: dict[str, Any]) -> dict[str, Any]:
        went_out = self.find("went_out")
        if "went_out" not in entry and went_out is not None and not went_out.errors:
            self.fail("went_out", gettext("Choose who went out, or deadlock."))
        return entry

    @classmethod
    def data_for(cls, entry: Mapping[str, Any], specs: Any) -> Any:
        data = super().data_for(entry, specs)
        widow = entry.get("widow")
        if isinstance(widow, Mapping):
            data["widow"] = "exchange" if widow.get("exchange") else "buy"
        if "went_out" in entry and entry["went_out"] is None:
            data["went_out"] = NO_SEAT
        return data


def board_from(sections: Mapping[str, int]) -> Board:
    rows = [
        [
            BoardCell(
                key=key,
                short=SECTION_SHORT[key],
                name=words(rummoli.SECTION_NAMES[key]),
                chips=sections.get(key, 0),
                red=key in RED_SECTIONS,
                centre=key == rummoli.RUMMOLI,
            )
            for key in row
        ]
        for row in LAYOUT
    ]
    return Board(
        rows=rows,
        total=sum(sections.values()),
        label=gettext("The board: chips on each section"),
    )


class RummoliKit(Kit):
    key = rummoli.Rummoli.key
    demo_players = 5
    printed = PRINTED
    rules = RULES
    entry_form = RummoliForm
    ending = "leftovers"

    def facts(self, scored: ScoredGame, names: Mapping[int, str]) -> list[str]:
        out = scored.upcoming.get("out") or []
        if not out:
            return []
        return [gettext("Out: %(names)s") % {"names": ", ".join(names.get(s, "?") for s in out)}]

    def out(self, scored: ScoredGame) -> set[int]:
        return set(scored.extras.get("out") or [])

    def board_of(self, scored: ScoredGame) -> Board | None:
        return board_from(scored.extras.get("board") or {})

    def round_board(self, result: RoundResult) -> Board | None:
        sections = result.details.get("board")
        return board_from(sections) if isinstance(sections, Mapping) else None


KIT = RummoliKit()
