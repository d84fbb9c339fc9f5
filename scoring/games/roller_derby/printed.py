"""Roller Derby on paper: the columns of its scoresheet and the scoring reminder."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, pgettext

from scoring.engines.base import RoundResult, is_int
from scoring.engines.roller_derby import ALL_OR_NOTHING_SCORE, trick_score
from scoring.games.printed_base import (
    Column,
    PrintedColumn,
    PrintedGame,
    SheetContext,
    dealer_column,
    heading,
    initials_column,
    penalty_columns,
    score_columns,
    tick,
)


def _target_text(result: RoundResult) -> str:
    """The target of a deal; none (\N{EN DASH}) when all or nothing was played without dice."""
    target = result.details.get("target")
    return "\N{EN DASH}" if target is None else str(target)


def _derby_score(ctx: SheetContext, entry: Mapping[str, Any], result: RoundResult) -> str:
    if entry.get("all_or_nothing") is True:
        return str(ALL_OR_NOTHING_SCORE if entry.get("made") is True else 0)
    target = result.details.get("target")
    tricks = entry.get("tricks")
    if not (is_int(target) and is_int(tricks)):
        return ""
    jokers = entry.get("jokers", 0) if is_int(entry.get("jokers", 0)) else 0
    return str(trick_score(target, tricks, jokers, ctx.options.get("joker_cost", 9)))


def _derby_columns(ctx: SheetContext) -> list[PrintedColumn]:
    cols = [
        dealer_column(ctx, 42.0),
        PrintedColumn(
            Column(pgettext("a printed column", "Roller"), 42.0, align="left", number=False),
            lambda e, r: ctx.name(r.details.get("roller")),
        ),
    ]
    for spec in ctx.fields:
        if not spec.column:
            continue
        if spec.name == "dice":
            two = (spec.count or 1) > 1
            cols.append(
                PrintedColumn(
                    Column(heading(spec.column), 34.0 if two else 24.0, guide="+" if two else ""),
                    lambda e, r: "+".join(str(d) for d in e.get("dice") or []),
                )
            )
            cols.append(
                PrintedColumn(
                    Column(pgettext("a printed column", "Target"), 28.0),
                    lambda e, r: _target_text(r),
                )
            )
        elif spec.name == "tricks":
            cols.append(
                PrintedColumn(
                    Column(heading(spec.column), 28.0), lambda e, r: str(e.get("tricks", ""))
                )
            )
        elif spec.name == "jokers":
            cols.append(
                PrintedColumn(
                    Column(heading(spec.column), 28.0), lambda e, r: str(e.get("jokers") or "")
                )
            )
        elif spec.name == "all_or_nothing":
            cols.append(
                PrintedColumn(
                    Column(heading(spec.column), 22.0, number=False),
                    lambda e, r: tick(e.get("all_or_nothing")),
                )
            )
        elif spec.name == "made":
            cols.append(
                PrintedColumn(
                    Column(heading(spec.column), 24.0, number=False),
                    lambda e, r: (
                        ("✓" if e.get("made") is True else "✗")
                        if e.get("all_or_nothing") is True
                        else ""
                    ),
                )
            )
        elif spec.name == "penalties":
            cols += penalty_columns(ctx)
    cols.append(
        PrintedColumn(
            Column(pgettext("a printed column", "Score"), 30.0),
            lambda e, r: _derby_score(ctx, e, r),
        )
    )
    cols += score_columns(ctx)
    cols.append(initials_column(ctx))
    return cols


def _derby_reminder(ctx: SheetContext) -> list[str]:
    options = ctx.options
    if options.get("counter_clockwise"):
        if options.get("dodecahedron"):
            roller = gettext(
                "The Roller sits to the dealer's right and rolls the twelve-sided die: its "
                "number is the target number of tricks. Only the Roller's team scores in a deal."
            )
        else:
            roller = gettext(
                "The Roller sits to the dealer's right and rolls the two dice: their total is "
                "the target number of tricks. Only the Roller's team scores in a deal."
            )
    elif options.get("dodecahedron"):
        roller = gettext(
            "The Roller sits to the dealer's left and rolls the twelve-sided die: its number "
            "is the target number of tricks. Only the Roller's team scores in a deal."
        )
    else:
        roller = gettext(
            "The Roller sits to the dealer's left and rolls the two dice: their total is the "
            "target number of tricks. Only the Roller's team scores in a deal."
        )
    scale = ", ".join(f"{off}\u00a0=\u00a0{100 - 10 * off}" for off in range(10))
    # Kept on one line: each "off = points" pair, and the last one in words.
    last = gettext("10 or more = 0").replace(" ", "\u00a0")
    lines = [
        roller,
        gettext(
            "Score: 100 for taking exactly the target, 10 less for every trick above or below "
            "it, never below 0. Tricks off the target: {scale}, {last}."
        ).format(scale=scale, last=last),
        gettext(
            "All or nothing (once per team per game, no Jokers): all tricks or none scores 150, "
            "anything else 0."
        ),
    ]
    if options.get("jokers_for_sale") or ctx.blank:
        cost = options.get("joker_cost", 9)
        lines.append(
            gettext(
                "Jokers for sale: each Joker the Roller buys takes {cost} off the score."
            ).format(cost=cost)
        )
    deals = options.get("deals", 4)
    if ctx.blank:
        lines.append(
            gettext(
                "A short game is 4 deals (the heavy rule), a long game 8. Highest total wins; "
                "equal totals are a draw."
            )
        )
    else:
        lines.append(
            gettext("The game lasts {deals} deals. Highest total wins; equal totals draw.").format(
                deals=deals
            )
        )
    gap = options.get("early_finish_gap", 150)
    if gap is not None:
        lines.append(
            gettext(
                "Before the final deal, a team ahead by more than {gap} may end the game there."
            ).format(gap=gap)
        )
    lines.append(gettext("Penalties (usually 50) come off the offending team's total."))
    return lines


PRINTED = PrintedGame(
    columns=_derby_columns,
    reminder=_derby_reminder,
    blank_rows=lambda ctx: 8 if ctx.blank else ctx.options.get("deals", 4),
    fill_page=False,
    round_noun="deal",
    short_game_rows=4,
    open_sheet_options={"jokers_for_sale": True},
)
