"""Scoresheets from games: blank sheets for pen and paper, and the sheets of recorded games.

The builders read an engine's description of a round (its ``FieldSpec`` list and
its options), the game's printed columns (``scoring.games.printed``) and a scored
game, and return the plain ``Sheet`` that ``printing.render`` draws. Blank sheets
use the same columns with no rounds in them. Nothing here reads the database.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, gettext_noop, ngettext, pgettext

from printing.errors import PrintRequestError
from printing.render import Column, ColumnGroup, Row, SeatLine, Sheet
from scoring.engines.base import (
    Engine,
    GameRecord,
    InvalidRecord,
    OptionSpec,
    RoundResult,
    ScoredGame,
    is_int,
)
from scoring.engines.registry import ENGINES
from scoring.games.kit import option_words
from scoring.games.printed import printed_for
from scoring.games.printed_base import (
    PrintedColumn,
    PrintedGame,
    RoundMarks,
    SheetContext,
    initials_heading,
)

__all__ = ["BlankKind", "RoundMarks", "blank_kinds", "blank_sheet", "filled_sheet"]


@dataclass(frozen=True)
class BlankKind:
    """One kind of blank sheet: a game, a player count and the options that shape it."""

    game: str
    players: int
    options: Mapping[str, Any] | None = None

    @property
    def key(self) -> str:
        shape = ",".join(f"{k}={v}" for k, v in sorted((self.options or {}).items()))
        return f"{self.game}:{self.players}" + (f":{shape}" if shape else "")

    @property
    def label(self) -> str:
        engine = ENGINES[self.game]
        text = gettext("{game}, {players} players").format(game=engine.title, players=self.players)
        shape = _shape_words(engine, self.options or {})
        return f"{text} ({shape})" if shape else text


def blank_kinds() -> list[BlankKind]:
    """Every blank sheet there is: each game, each player count, each shaping option."""
    kinds: list[BlankKind] = []
    for key, engine in ENGINES.items():
        variants = printed_for(key).variants
        counts = sorted({*engine.player_counts, *variants})
        for players in counts:
            if players in engine.player_counts:
                kinds.append(BlankKind(key, players))
            kinds += [BlankKind(key, players, options) for options in variants.get(players, ())]
    return kinds


def _shape_words(engine: Engine, options: Mapping[str, Any]) -> str:
    words = []
    shaping = printed_for(engine.key).shape_options
    for spec in engine.option_specs():
        if spec.name in shaping and spec.name in options:
            value = options[spec.name]
            if value == spec.default:
                continue
            label = re.sub(r"\s*\(.*\)$", "", option_words(spec.label))
            words.append(label.lower() if spec.kind == "bool" else _choice_words(value))
    return ", ".join(words)


def _choice_words(value: Any) -> str:
    """A choice of an option ("two_calls") in the reader's words ("two calls")."""
    return option_words(str(value).replace("_", " "))


def _groups(cols: Sequence[PrintedColumn]) -> tuple[ColumnGroup, ...]:
    groups: list[ColumnGroup] = []
    current: list[Column] = []
    key: tuple[str, str] | None = None
    for col in cols:
        this = (col.group, col.note)
        if key is not None and (this != key or not col.group):
            groups.append(ColumnGroup(tuple(current), key[0], key[1]))
            current = []
        current.append(col.spec)
        key = this
    if current and key is not None:
        groups.append(ColumnGroup(tuple(current), key[0], key[1]))
    return tuple(groups)


def _option_value(spec: OptionSpec, value: Any, ctx: SheetContext) -> str:
    if spec.kind == "bool":
        return (
            pgettext("an option's value", "yes") if value else pgettext("an option's value", "no")
        )
    special = printed_for(ctx.engine.key).option_words
    if special is not None:
        words = special(spec, value, ctx)
        if words is not None:
            return words
    if value is None:
        return gettext("off")
    return _choice_words(value)


def _offered(spec: OptionSpec, players: int, engine: Engine) -> bool:
    """Whether the option can be in play at this table size (single deck: only with 4)."""
    if spec.player_counts is not None and players not in spec.player_counts:
        return False
    if spec.kind == "bool":
        flipped = {spec.name: not spec.default}
        return players in engine.allowed_player_counts(flipped)
    return True


def _options_in_force(ctx: SheetContext) -> tuple[str, ...]:
    items: list[str] = []
    for spec in ctx.engine.option_specs():
        if not _offered(spec, ctx.players, ctx.engine):
            continue
        value = ctx.options.get(spec.name, spec.default)
        if spec.play_only and not value:
            continue
        items.append(
            gettext("{option}: {value}").format(
                option=option_words(spec.label), value=_option_value(spec, value, ctx)
            )
        )
    return tuple(items)


def _options_to_choose(ctx: SheetContext) -> tuple[str, ...]:
    """A blank sheet's options: tick boxes and blanks, the default shown first."""
    items: list[str] = []
    for spec in ctx.engine.option_specs():
        if not _offered(spec, ctx.players, ctx.engine):
            continue
        if spec.name in printed_for(ctx.engine.key).shape_options:
            continue  # these change the columns: a sheet of their own
        label = option_words(spec.label)
        if spec.kind == "bool":
            items.append(f"☐ {label}")
        elif spec.kind == "choice":
            choices = " ".join(f"☐ {_option_value(spec, c, ctx)}" for c in spec.choices)
            items.append(gettext("{option}: {value}").format(option=label, value=choices))
        else:
            default = _option_value(spec, spec.default, ctx)
            items.append(
                gettext("{option}: {default} or ____").format(option=label, default=default)
            )
    return tuple(items)


def _subtitle(ctx: SheetContext) -> str:
    if ctx.teams:
        teams = "; ".join(
            gettext("team {label}: {members}").format(label=label, members=ctx.members(seats))
            for label, seats in ctx.teams.items()
        )
        return gettext("{players} players in {count} teams ({teams})").format(
            players=ctx.players, count=len(ctx.teams), teams=teams
        )
    return gettext("{players} players, {subtitle}").format(
        players=ctx.players, subtitle=gettext(printed_for(ctx.engine.key).individual_subtitle)
    )


def _shaped(shape: str, subtitle: str) -> str:
    """The subtitle led by the shape of the game, if any ("Two calls: 6 players, ...")."""
    if not shape:
        return subtitle
    return gettext("{shape}: {subtitle}").format(shape=shape.capitalize(), subtitle=subtitle)


def _seat_lines(ctx: SheetContext) -> tuple[SeatLine, ...]:
    lines = []
    for seat in range(ctx.players):
        team = ctx.team_of(seat)
        if ctx.names is None:
            team_words = gettext("Team {label}").format(label=team) if team else ""
            lines.append(SeatLine(gettext("Seat {seat}").format(seat=seat + 1), "", team_words))
        else:
            team_words = gettext("team {label}").format(label=team) if team else ""
            lines.append(SeatLine(str(seat + 1), ctx.names[seat], team_words))
    return tuple(lines)


def _signatures(ctx: SheetContext) -> tuple[str, ...]:
    if ctx.teams:
        return tuple(
            gettext("Team {label}").format(label=label)
            if ctx.blank
            else gettext("Team {label}: {members}").format(label=label, members=ctx.members(seats))
            for label, seats in ctx.teams.items()
        )
    return tuple(ctx.name(seat) for seat in range(ctx.players))


def _context(
    engine: Engine,
    players: int,
    options: Mapping[str, Any],
    names: tuple[str, ...] | None,
    marks: Mapping[int, RoundMarks] | None = None,
) -> SheetContext:
    return SheetContext(
        engine=engine,
        players=players,
        names=names,
        options=options,
        teams=engine.teams(players, options),
        fields=engine.round_fields(players, options),
        marks=marks or {},
    )


def blank_sheet(game: str, players: int, options: Mapping[str, Any] | None = None) -> Sheet:
    """A sheet for pen and paper: the columns this game records, empty rows, the rules."""
    engine = ENGINES.get(game)
    if engine is None:
        raise PrintRequestError(
            gettext("game must be one of {games}").format(games=", ".join(ENGINES))
        )
    kind = printed_for(game)
    open_sheet = options is None or set(options) <= kind.shape_options
    chosen = dict(options or {})
    if open_sheet:
        chosen = {**kind.open_sheet_options, **chosen}
    try:
        resolved = engine.resolve_options(chosen, players)
    except InvalidRecord as invalid:
        raise PrintRequestError(str(invalid)) from None
    if players not in engine.allowed_player_counts(resolved):
        counts = ", ".join(str(c) for c in engine.allowed_player_counts(resolved))
        raise PrintRequestError(
            gettext("{game} is played by {counts} players, not {players}").format(
                game=engine.title, counts=counts, players=players
            )
        )
    ctx = _context(engine, players, resolved, None)
    cols = kind.columns(ctx)
    signature_note = gettext(
        "Signatures: initial each round in the last column when it is confirmed"
    )
    shape = _shape_words(engine, resolved)
    return Sheet(
        title=gettext("{game} scoresheet").format(game=engine.title),
        subtitle=_shaped(shape, _subtitle(ctx)),
        meta=((gettext("Date"), ""), (gettext("Event"), ""), (gettext("Table"), "")),
        seats=_seat_lines(ctx),
        options_title=gettext("Options (tick or fill in)")
        if open_sheet
        else gettext("Options in force"),
        options=_options_to_choose(ctx) if open_sheet else _options_in_force(ctx),
        groups=_groups(cols),
        blank_rows=kind.blank_rows(ctx),
        fill_page=kind.fill_page,
        short_game_rows=kind.short_game_rows if open_sheet else 0,
        reminder_title=gettext("How it scores"),
        reminder=tuple(kind.reminder(ctx)),
        signatures_title=signature_note
        if any(c.spec.heading == initials_heading() for c in cols)
        else gettext("Signatures"),
        signatures=_signatures(ctx),
        footer="Tablescore · "
        + gettext("{game}, {players} players").format(game=engine.title, players=players)
        + " · "
        + gettext("blank scoresheet"),
        blank=True,
    )


def filled_sheet(
    record: GameRecord,
    *,
    scored: ScoredGame | None = None,
    marks: Mapping[int, RoundMarks] | None = None,
    meta: Sequence[tuple[str, str]] = (),
) -> Sheet:
    """The sheet of a recorded game: every round's inputs, deltas and running totals."""
    engine = ENGINES[record.game]
    if scored is None:
        scored = engine.score(record)
    players = len(record.players)
    ctx = _context(engine, players, scored.options, tuple(record.players), marks)
    kind = printed_for(record.game)
    cols = kind.columns(ctx)
    shape = _shape_words(engine, scored.options)
    rows = []
    for entry, result in zip(record.rounds, scored.rounds, strict=True):
        marked = ctx.marks.get(result.number, RoundMarks())
        rows.append(
            Row(
                str(result.number),
                tuple(col.value(entry, result) for col in cols),
                corrected=marked.corrected,
            )
        )
    totals = Row(
        gettext("Total"),
        tuple(_final_total(col, scored) if col.spec.total else "" for col in cols),
    )
    return Sheet(
        title=gettext("{game} scoresheet").format(game=engine.title),
        subtitle=_shaped(shape, _subtitle(ctx)),
        meta=tuple(meta),
        seats=_seat_lines(ctx),
        options_title=gettext("Options in force"),
        options=_options_in_force(ctx),
        groups=_groups(cols),
        rows=tuple(rows),
        totals=totals,
        result=_result(ctx, scored, kind),
        notes=tuple(_notes(ctx, record, scored)),
        reminder_title=gettext("How it scores"),
        reminder=tuple(kind.reminder(ctx)),
        signatures_title=gettext("Signatures: the final score is agreed"),
        signatures=_signatures(ctx),
        footer="Tablescore · "
        + gettext("{game}, {players} players").format(game=engine.title, players=players),
    )


def _final_total(col: PrintedColumn, scored: ScoredGame) -> str:
    """The final total of a Total column: the game's totals (after any record ending)."""
    fake = RoundResult(
        number=0, dealer=0, deltas=[0] * len(scored.totals), totals=list(scored.totals)
    )
    return col.value({}, fake)


def _side_words(ctx: SheetContext, seats: Sequence[int]) -> str:
    for label, members in ctx.teams.items():
        if sorted(members) == sorted(seats):
            return gettext("Team {label} ({members})").format(
                label=label, members=ctx.members(members)
            )
    return gettext(" and ").join(ctx.name(s) for s in seats)


def _sides_of(ctx: SheetContext, seats: Sequence[int]) -> list[list[int]]:
    if not ctx.teams:
        return [[s] for s in seats]
    found = []
    for members in ctx.teams.values():
        if any(s in seats for s in members):
            found.append(list(members))
    return found


# The units the games' result lines count in, for the catalogue (said with gettext).
UNITS = (gettext_noop("points"), gettext_noop("chips"))
SUBTITLES = (
    gettext_noop("scores kept individually"),
    gettext_noop("a chip ledger: one row per hand"),
)


def _played(noun: str, count: int) -> str:
    """``3 deals``: what the result line calls the rounds played, in the reader's words."""
    if noun == "deal":
        return ngettext("{count} deal", "{count} deals", count).format(count=count)
    if noun == "hand":
        return ngettext("{count} hand", "{count} hands", count).format(count=count)
    return ngettext("{count} round", "{count} rounds", count).format(count=count)


def _result(ctx: SheetContext, scored: ScoredGame, kind: PrintedGame) -> str:
    rounds = len(scored.rounds)
    unit, noun = kind.unit, kind.round_noun
    played = _played(noun, rounds)
    unit = gettext(unit)
    if scored.finished:
        sides = _sides_of(ctx, scored.winners)
        best = scored.totals[scored.winners[0]] if scored.winners else 0
        if len(sides) == 1:
            text = gettext("Winner: {side} with {best} {unit}").format(
                side=_side_words(ctx, sides[0]), best=best, unit=unit
            )
        else:
            together = gettext(" and ").join(_side_words(ctx, s) for s in sides)
            text = gettext("Draw: {sides} with {best} {unit} each").format(
                sides=together, best=best, unit=unit
            )
        if scored.extras.get("ended_early"):
            text += gettext(", the game ended early before the final deal")
        return gettext("{result} (after {played}).").format(result=text, played=played)
    if not rounds:
        return gettext("Not started yet.")
    leaders = _sides_of(ctx, [s for s, t in enumerate(scored.totals) if t == max(scored.totals)])
    lead = gettext(" and ").join(_side_words(ctx, s) for s in leaders)
    template = (
        gettext("In progress after {played}: {lead} leads with {best} {unit}.")
        if len(leaders) == 1
        else gettext("In progress after {played}: {lead} lead with {best} {unit}.")
    )
    return template.format(played=played, lead=lead, best=max(scored.totals), unit=unit)


def _notes(ctx: SheetContext, record: GameRecord, scored: ScoredGame) -> list[str]:
    notes: list[str] = []
    corrected = sorted(n for n, m in ctx.marks.items() if m.corrected)
    if corrected:
        which = ", ".join(str(n) for n in corrected)
        notes.append(
            ngettext(
                "Round {which} (marked *) corrected after first entry.",
                "Rounds {which} (marked *) corrected after first entry.",
                len(corrected),
            ).format(which=which)
        )
    pending = sorted(n for n, m in ctx.marks.items() if m.pending)
    if pending:
        which = ", ".join(str(n) for n in pending)
        notes.append(
            ngettext(
                "Waiting for confirmation: round {which}.",
                "Waiting for confirmation: rounds {which}.",
                len(pending),
            ).format(which=which)
        )
    for number, entry in enumerate(record.rounds, start=1):
        for penalty in entry.get("penalties") or []:
            if not isinstance(penalty, Mapping):
                continue
            reason = penalty.get("reason") or ""
            why = f" ({reason})" if reason else ""
            notes.append(
                gettext("Round {number}: penalty, {name} -{points}{why}.").format(
                    number=number,
                    name=ctx.name(penalty.get("player")),
                    points=penalty.get("points"),
                    why=why,
                )
            )
    for result in scored.rounds:
        for warning in result.warnings:
            notes.append(
                gettext("Round {number}: {warning}.").format(
                    number=result.number, warning=gettext(str(warning))
                )
            )
    end = record.extras.get("end")
    if isinstance(end, Mapping) and is_int(end.get("leftovers_to")) and scored.rounds:
        left = sum(scored.totals) - sum(scored.rounds[-1].totals)
        notes.append(
            gettext("At the end, the {left} chips left on the board went to {name}.").format(
                left=left, name=ctx.name(end["leftovers_to"])
            )
        )
    return notes
