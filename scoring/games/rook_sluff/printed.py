"""Rook Sluff on paper: the columns of its scoresheet and the scoring reminder."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, pgettext

from scoring.engines.base import OptionSpec, RoundResult
from scoring.engines.rook_sluff import deals_in_game, tricks_per_deal
from scoring.games.printed_base import (
    CellValue,
    Column,
    PrintedColumn,
    PrintedGame,
    SheetContext,
    dealer_column,
    delta_of,
    heading,
    initials_column,
    penalty_columns,
    total_of,
)


def _seat_entry(name: str, seat: int) -> CellValue:
    """A seat's value of a per-seat field."""

    def cell(entry: Mapping[str, Any], result: RoundResult) -> str:
        values = entry.get(name)  # a per-team deal has no tricks per player
        return str(values[seat]) if isinstance(values, list) and seat < len(values) else ""

    return cell


def _team_detail(key: str, label: str) -> CellValue:
    """A team's figure from the engine's details of the round."""

    def cell(entry: Mapping[str, Any], result: RoundResult) -> str:
        return str(result.details.get(key, {}).get(label, ""))

    return cell


def _sluff_columns(ctx: SheetContext) -> list[PrintedColumn]:
    cols = [dealer_column(ctx, 40.0)]
    per_seat = [
        (spec.name, column)
        for spec in ctx.fields
        if spec.kind == "per_seat" and (column := spec.column)
    ]
    for label, seats in ctx.teams.items():
        for seat in seats:
            title = ctx.name(seat)
            for name, column in per_seat:
                cols.append(
                    PrintedColumn(
                        Column(heading(column), 19.0),
                        _seat_entry(name, seat),
                        title,
                        gettext("Team {label}").format(label=label),
                    )
                )
        team = gettext("Team {label}").format(label=label)
        note = gettext("team score")
        cols.append(
            PrintedColumn(
                Column(pgettext("a printed column", "Bid"), 20.0),
                _team_detail("team_bids", label),
                team,
                note,
            )
        )
        cols.append(
            PrintedColumn(
                Column(pgettext("a printed column", "Took"), 21.0),
                _team_detail("team_tricks", label),
                team,
                note,
            )
        )
        cols.append(
            PrintedColumn(
                Column("+/-", 28.0, align="right"),
                delta_of(seats[0]),
                team,
                note,
            )
        )
        cols.append(
            PrintedColumn(
                Column(pgettext("a printed column", "Total"), 32.0, align="right", total=True),
                total_of(seats[0]),
                team,
                note,
            )
        )
    cols += penalty_columns(ctx)
    cols.append(initials_column(ctx, 30.0))
    return cols


def _sluff_reminder(ctx: SheetContext) -> list[str]:
    tricks = tricks_per_deal(ctx.players)
    bonus = ctx.options.get("sluff_bonus", 50)
    deals = deals_in_game(ctx.players, ctx.options)
    return [
        gettext(
            "Every player bids 0 to {tricks} tricks; a bid of 0 is a Sluff. A team's bid is the "
            "sum of its players' bids, its tricks the sum of theirs."
        ).format(tricks=tricks),
        gettext(
            "A team that takes at least its bid scores 10 for each trick bid and 1 for each "
            "trick over; a team that falls short scores 0."
        ),
        gettext(
            "Each Sluff adds {bonus} to the team if the player took no trick, "
            "and takes {bonus} off if they took any."
        ).format(bonus=bonus),
        gettext("A deal has {tricks} tricks: the tricks column adds up to {tricks}.").format(
            tricks=tricks
        ),
        gettext("The game lasts {deals} deals, so that everyone deals once.").format(deals=deals)
        if deals == ctx.players
        else gettext("The game lasts {deals} deals.").format(deals=deals),
        gettext("Highest team total wins; equal totals are a draw. Penalties come off the team."),
    ]


def _sluff_option_words(spec: OptionSpec, value: Any, ctx: SheetContext) -> str | None:
    if spec.name == "deals" and value is None:
        return gettext("{players} (one per player)").format(players=ctx.players)
    return None


PRINTED = PrintedGame(
    columns=_sluff_columns,
    reminder=_sluff_reminder,
    blank_rows=lambda ctx: deals_in_game(ctx.players, ctx.options),
    fill_page=False,
    round_noun="deal",
    shape_options=frozenset({"single_deck"}),
    variants={4: ({"single_deck": True},)},
    option_words=_sluff_option_words,
)
