"""Rummoli on paper: a chip ledger by seat number, and the scoring reminder."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, pgettext

from scoring.engines.base import RoundResult, is_int
from scoring.games.printed_base import (
    CellValue,
    Column,
    PrintedColumn,
    PrintedGame,
    SheetContext,
    delta_of,
    heading,
    initials_column,
    seat_number,
    tick,
    total_of,
)

SECTION_HEADINGS = {
    "ten_spades": "10♠",
    "jack_diamonds": "J♦",
    "queen_clubs": "Q♣",
    "king_hearts": "K♥",
    "ace_spades": "A♠",
    "ace_king_diamonds": "AK♦",
    "seven_eight_nine": "789",
}


def _part_heading(part: str) -> str | None:
    """The short heading of a part of the widow or the poker, in the reader's language (the
    sheet's narrow columns take their words in a context of their own, written out: the
    catalogue's tools read only a literal)."""
    headings = {
        "exchange": pgettext("a narrow printed column", "Swap"),
        "buyer": pgettext("a narrow printed column", "By"),
        "price": pgettext("a narrow printed column", "Paid"),
        "winners": pgettext("a narrow printed column", "Won by"),
    }
    return headings.get(part)


def _rummoli_columns(ctx: SheetContext) -> list[PrintedColumn]:
    """Widow, poker and pay cards by seat number, then each player's hand and chips.

    Under betting poker every player's bet sits in their own column group, beside the
    cards they had left. Seven or eight groups of four columns are too wide for US
    Letter, so at seven and eight players a betting sheet leaves out the +/- column:
    the chips column still shows every balance.
    """
    cols = [
        PrintedColumn(
            Column(pgettext("a narrow printed column", "Dealer"), 22.0),
            lambda e, r: seat_number(r.dealer),
        ),
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
                short = _part_heading(part.name) or gettext(part.label)
                if part.name == "exchange":
                    value = _widow_swap
                elif part.name == "buyer":
                    value = _widow_buyer
                else:
                    value = _widow_price
                cols.append(PrintedColumn(Column(short, 17.0), value, heading(spec.column)))
        elif spec.name == "poker":
            for part in spec.parts:
                if part.name == "winners":
                    cols.append(
                        PrintedColumn(
                            Column(pgettext("a narrow printed column", "Won by"), 24.0),
                            _poker_winners,
                            heading(spec.column),
                        )
                    )
        elif spec.name == "pay_cards":
            for part in spec.parts:
                short = SECTION_HEADINGS.get(part.name, part.label)
                cols.append(
                    PrintedColumn(
                        Column(short, 17.0),
                        _pay_card_taker(part.name),
                        gettext("Pay cards: who took"),
                    )
                )
        elif spec.name == "went_out":
            cols.append(
                PrintedColumn(
                    Column(heading(spec.column), 18.0),
                    _went_out,
                )
            )
    left = ctx.field("cards_left")
    for seat in range(ctx.players):
        title = f"{seat + 1} {ctx.names[seat]}" if ctx.names else ctx.name(seat)
        if betting:
            cols.append(
                PrintedColumn(
                    Column(pgettext("a narrow printed column", "Bet"), 14.0),
                    _poker_bet_cell(seat),
                    title,
                )
            )
        if left is not None:
            cols.append(
                PrintedColumn(
                    Column(pgettext("a narrow printed column", "Left"), 15.0),
                    _cards_left(seat),
                    title,
                )
            )
        if not (betting and many):
            cols.append(
                PrintedColumn(
                    Column("+/-", 19.0 if compact else 22.0, align="right"),
                    delta_of(seat),
                    title,
                )
            )
        cols.append(
            PrintedColumn(
                Column(
                    pgettext("a printed column", "Chips"),
                    23.0 if compact else 27.0,
                    align="right",
                    total=True,
                ),
                total_of(seat),
                title,
            )
        )
    cols.append(
        PrintedColumn(
            Column(pgettext("a printed column", "On\nboard"), 24.0),
            lambda e, r: str(sum((r.details.get("board") or {}).values())),
        )
    )
    if not many:
        cols.append(initials_column(ctx, 30.0))
    return cols


def _widow_swap(entry: Mapping[str, Any], result: RoundResult) -> str:
    widow = entry.get("widow") or {}
    return tick(widow.get("exchange"))


def _widow_buyer(entry: Mapping[str, Any], result: RoundResult) -> str:
    return seat_number((entry.get("widow") or {}).get("buyer"))


def _widow_price(entry: Mapping[str, Any], result: RoundResult) -> str:
    price = (entry.get("widow") or {}).get("price")
    return str(price) if is_int(price) else ""


def _poker_winners(entry: Mapping[str, Any], result: RoundResult) -> str:
    poker = entry.get("poker") or {}
    return ",".join(seat_number(s) for s in poker.get("winners") or [])


def _poker_bet(entry: Mapping[str, Any], seat: int) -> str:
    """One player's bet into the poker pot; empty when the hand had no bets."""
    bets = (entry.get("poker") or {}).get("bets") or []
    bet = bets[seat] if seat < len(bets) else None
    return str(bet) if is_int(bet) else ""


def _rummoli_reminder(ctx: SheetContext) -> list[str]:
    options = ctx.options
    ante = options.get("ante", 1)
    chips = options.get("starting_chips", 50)
    lines = [
        gettext(
            "Each hand starts with every player still in putting {ante} on each of the nine "
            "sections. Players are written by seat number."
        ).format(ante=ante),
        gettext(
            "Widow: the dealer may swap hands with it (tick Swap), or sell it to another player "
            "(By: the buyer's seat, Paid: the price, paid to the dealer)."
        ),
        gettext(
            "Poker: the best five-card hand takes the poker pot, after the bets go in (Bet: the "
            "chips each player bet); winners who tie share it and an odd chip stays."
        )
        if options.get("poker") == "betting"
        else gettext(
            "Poker: the best five-card hand takes the poker pot; winners who tie share it and "
            "an odd chip stays."
        ),
        gettext(
            "Pay cards: whoever plays 10♠, J♦, Q♣, K♥, A♠, A♦ with K♦, or 7-8-9 of one suit "
            "takes that section. Unclaimed sections carry over."
        ),
        gettext(
            "Going out takes the rummoli section, and every other player pays one chip per card "
            "left (Left: cards left in hand). In a deadlock ({nobody_out}) those chips go "
            "onto the rummoli."
        ).format(nobody_out=gettext("Out: -").replace(" ", "\u00a0")),
    ]
    if options.get("short_stack", "pay_what_you_can") == "debt":
        lines.append(gettext("Debt: balances may go below zero."))
    else:
        lines.append(
            gettext(
                "Short of chips, a player pays what they can and is out at 0; the last player "
                "with chips takes the board."
            )
        )
    lines.append(
        gettext(
            "Check each hand: the chips in hand and on the board add up to {chips} a player."
        ).format(chips=chips)
    )
    return lines


PRINTED = PrintedGame(
    columns=_rummoli_columns,
    reminder=_rummoli_reminder,
    blank_rows=lambda ctx: 12,
    fill_page=True,
    unit="chips",
    round_noun="hand",
    individual_subtitle="a chip ledger: one row per hand",
)


def _poker_bet_cell(seat: int) -> CellValue:
    return lambda entry, result: _poker_bet(entry, seat)


def _pay_card_taker(section: str) -> CellValue:
    """Who took a pay card's chips in the hand."""
    return lambda entry, result: seat_number((entry.get("pay_cards") or {}).get(section))


def _went_out(entry: Mapping[str, Any], result: RoundResult) -> str:
    went_out = entry.get("went_out")
    return "-" if went_out is None else seat_number(went_out)


def _cards_left(seat: int) -> CellValue:
    """The cards a seat held when the hand ended."""
    return lambda entry, result: str((entry.get("cards_left") or [""] * (seat + 1))[seat])
