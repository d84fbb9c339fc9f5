"""Rook Sluff on paper: the columns of its scoresheet and the scoring reminder."""

from __future__ import annotations

from typing import Any

from scoring.engines.base import OptionSpec
from scoring.engines.rook_sluff import deals_in_game, tricks_per_deal
from scoring.games.printed_base import (
    Column,
    PrintedColumn,
    PrintedGame,
    SheetContext,
    dealer_column,
    initials_column,
    penalty_columns,
    signed,
)


def _sluff_columns(ctx: SheetContext) -> list[PrintedColumn]:
    cols = [dealer_column(ctx, 40.0)]
    per_seat = [spec for spec in ctx.fields if spec.kind == "per_seat" and spec.column]
    for label, seats in ctx.teams.items():
        for seat in seats:
            title = ctx.name(seat)
            for spec in per_seat:
                cols.append(
                    PrintedColumn(
                        Column(spec.column, 19.0),
                        lambda e, r, seat=seat, name=spec.name: str((e.get(name) or [""])[seat]),
                        title,
                        f"Team {label}",
                    )
                )
        team = f"Team {label}"
        note = "team score"
        cols.append(
            PrintedColumn(
                Column("Bid", 20.0),
                lambda e, r, label=label: str(r.details.get("team_bids", {}).get(label, "")),
                team,
                note,
            )
        )
        cols.append(
            PrintedColumn(
                Column("Took", 21.0),
                lambda e, r, label=label: str(r.details.get("team_tricks", {}).get(label, "")),
                team,
                note,
            )
        )
        cols.append(
            PrintedColumn(
                Column("+/-", 28.0, align="right"),
                lambda e, r, seat=seats[0]: signed(r.deltas[seat]),
                team,
                note,
            )
        )
        cols.append(
            PrintedColumn(
                Column("Total", 32.0, align="right", total=True),
                lambda e, r, seat=seats[0]: str(r.totals[seat]),
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


def _sluff_option_words(spec: OptionSpec, value: Any, ctx: SheetContext) -> str | None:
    if spec.name == "deals" and value is None:
        return f"{ctx.players} (one per player)"
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
