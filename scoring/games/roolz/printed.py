"""Roolz on paper: the columns of its scoresheet and the scoring reminder."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, pgettext

from scoring.engines.base import RoundResult
from scoring.engines.roolz import setup_for
from scoring.games.printed_base import (
    CellValue,
    Column,
    PrintedColumn,
    PrintedGame,
    SheetContext,
    dealer_column,
    heading,
    initials_column,
    penalty_columns,
    score_columns,
)


def _tricks_won(side: str) -> CellValue:
    """The tricks a side took in the deal."""

    def cell(entry: Mapping[str, Any], result: RoundResult) -> str:
        return str((entry.get("won") or {}).get(side, ""))

    return cell


def _side_name(side_names: Mapping[str, str], side: str | None) -> str:
    """The printed name of a side ("" when no side took all the tricks)."""
    if not side:
        return ""
    return side_names.get(side, side)


def _roolz_columns(ctx: SheetContext) -> list[PrintedColumn]:
    cols = [dealer_column(ctx)]
    side_names = {
        "bidder": pgettext("a printed column: the bidder's side", "Bidder"),
        "opponents": pgettext("a printed column: the opponents, short", "Opp."),
    }

    def misdeal(entry: Mapping[str, Any]) -> bool:
        return entry.get("misdeal") is True

    for spec in ctx.fields:
        if not spec.column:
            continue
        if spec.name == "bidder":
            cols.append(
                PrintedColumn(
                    Column(heading(spec.column), 44.0, align="left", number=False),
                    lambda e, r: gettext("Misdeal") if misdeal(e) else ctx.name(e.get("bidder")),
                )
            )
        elif spec.name == "bid":
            cols.append(
                PrintedColumn(
                    Column(heading(spec.column), 24.0), lambda e, r: str(e.get("bid", ""))
                )
            )
        elif spec.name == "partners":
            cols.append(
                PrintedColumn(
                    Column(
                        heading(spec.column),
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
                    PrintedColumn(
                        Column(side_names.get(key, key), 26.0 if len(key) < 3 else 30.0),
                        _tricks_won(key),
                        heading(spec.column),
                    )
                )
        elif spec.name == "all_tricks":
            cols.append(
                PrintedColumn(
                    Column(heading(spec.column).replace(" ", "\n", 1), 26.0, number=False),
                    lambda e, r: _side_name(side_names, e.get("all_tricks")),
                )
            )
        elif spec.name == "penalties":
            cols += penalty_columns(ctx)
    cols += score_columns(ctx)
    cols.append(initials_column(ctx))
    return cols


def _roolz_partners(ctx: SheetContext, entry: Mapping[str, Any], result: RoundResult) -> str:
    partners = entry.get("partners") or []
    names = " & ".join(ctx.name(p) for p in partners)
    if result.details.get("twofer"):
        return gettext("{names} (twofer)").format(names=names) if names else gettext("twofer")
    return names or gettext("alone")


def _roolz_reminder(ctx: SheetContext) -> list[str]:
    options = ctx.options

    setup = setup_for(ctx.players, options)
    lines = [
        gettext(
            "Every round shares out 300 card points, always in fives: 15s score 15, 14s and 10s "
            "score 10, 5s score 5 and each Rooler 30."
        ),
        gettext("Bids run from {lowest} to 300 in steps of 5.").format(lowest=setup.min_bid),
        gettext(
            "The bidding side scores what it took if that reaches its bid; short of it, "
            "it loses the bid instead. Every other side scores what it took."
        ),
        gettext("A side that takes every trick adds 100 (a twofer that does it adds 200).")
        if setup.call in ("five", "two_calls")
        else gettext("A side that takes every trick adds 100."),
    ]
    if setup.call == "five":
        lines.append(
            gettext(
                "Five players: the bidder calls a card and its holder is the partner for the "
                "round. If the card lies in the low hand the bidder plays alone: a twofer."
            )
        )
    elif setup.call == "called_partner":
        lines.append(gettext("Called partner: the holder of the called card partners the bidder."))
    elif setup.call == "two_calls":
        lines.append(
            gettext(
                "Two calls: the bidder calls two cards; one player holding both makes a twofer."
            )
        )
    if ctx.players == 3:
        lines.append(
            gettext("Three players: the bidder also plays the low hand; both others share a side.")
        )
    target = options.get("target", 1000)
    end = gettext(
        "The game ends after a round that takes a side to {target} or more; the highest such "
        "side wins, and a tie for it plays on."
    ).format(target=target)
    if options.get("must_reach_on_bid"):
        end += " " + gettext("Only a side that has just made its own bid can win.")
    lines.append(end)
    lines.append(
        gettext("A misdeal scores nothing: write Misdeal and the same dealer deals again.")
    )
    return lines


PRINTED = PrintedGame(
    columns=_roolz_columns,
    reminder=_roolz_reminder,
    blank_rows=lambda ctx: 16,
    fill_page=True,
    shape_options=frozenset({"called_partner", "six_player"}),
    variants={
        4: ({"called_partner": True},),
        6: ({"six_player": "two_calls"}, {"six_player": "three_pairs"}),
    },
)
