"""A bracket's matches: their games created, finished games reported and the winners
advanced, the director's override."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.db import transaction

from common.phrases import Phrase
from scoring.engines.base import N_, Problem
from scoring.models import Game
from scoring.services import Actor, GameChangeError, game_create
from tournaments.brackets.core import (
    Bracket,
    BracketState,
    BracketUserError,
    Override,
    Result,
    Status,
    override_advancement,
    report_result,
)
from tournaments.brackets.selectors import Finish, core_bracket, current_games, finish_of_game
from tournaments.errors import TournamentError
from tournaments.models import BracketGame, BracketStage, Entrant, Event
from tournaments.services.change import ActingUser, bump, event_locked_open, event_log, options_at

# Who makes a change at the desk: the signed-in director (a signed-out user is recorded
# as nobody).


# --------------------------------------------------------------------------- small helpers


def bracket_refusal(
    error: BracketUserError, names: Mapping[str, str] | None = None
) -> TournamentError:
    """The core's refusal as the director reads it, in the director's language: the match
    it is about, then why; entrant ids listed in it (the core knows only ids) as the
    players' names."""
    values = {name: _named(value, names) for name, value in error.values.items()}
    if not error.match:
        return TournamentError([Problem(error.template, None, error.field, values)])
    why = Phrase(error.template, values)
    return TournamentError(
        [
            Problem(
                N_("{match}: {problem}"), None, error.field, {"match": error.match, "problem": why}
            )
        ]
    )


def _named(value: object, names: Mapping[str, str] | None) -> object:
    """A value listing entrant ids ("12, 40") as their names, in alphabetical order."""
    if not names or not isinstance(value, str):
        return value
    ids = [part.strip() for part in value.split(",")]
    if ids and all(i in names for i in ids):
        return ", ".join(sorted((names[i] for i in ids), key=str.casefold))
    return value


# --------------------------------------------------------------------------- stored <-> core


def _store(stage: BracketStage, bracket: Bracket) -> None:
    stage.results = [
        {"match": r.match, "finish": [list(group) for group in r.finish]} for r in bracket.results
    ]
    stage.overrides = [
        {"match": o.match, "finish": [list(group) for group in o.finish], "reason": o.reason}
        for o in bracket.overrides
    ]
    stage.save(update_fields=["results", "overrides"])


# --------------------------------------------------------------------------- advancing


def _seat_order(entrants: Sequence[Entrant]) -> list[tuple[Entrant, int]]:
    """Who sits in which seat: sides alternate round the table (team A on seats 1, 3 ...)."""
    most = max(max(1, len(e.members)) for e in entrants)
    if len(entrants) == 2 and most > 1:
        return [(entrants[seat % 2], seat // 2) for seat in range(2 * most)]
    return [(e, 0) for e in entrants]


def _create_game(
    stage: BracketStage,
    event: Event,
    match: str,
    entrants: list[Entrant],
    attempt: int,
    user: ActingUser,
) -> BracketGame:
    seated = _seat_order(entrants)
    names = [e.members[m] if e.members else e.name for e, m in seated]
    record = {
        "game": event.game,
        "players": names,
        "options": options_at(event.game, event.options, len(names)),
        "first_dealer": 0,
        "rounds": [],
    }
    try:
        created = game_create(
            record=record,
            actor=Actor(user=user, device="bracket"),
            confirmation=event.confirmation,
            is_tournament_game=True,
        )
    except GameChangeError as error:
        raise TournamentError(
            [
                Problem(N_("{match}: {problem}"), p.round, p.field, {"match": match, "problem": p})
                for p in error.problems
            ]
        ) from None
    return BracketGame.objects.create(
        stage=stage,
        match=match,
        attempt=attempt,
        game=created.game,
        seats=[e.pk for e, _ in seated],
    )


def stage_advance_locked(stage: BracketStage, *, user: ActingUser = None) -> BracketState:
    """Report every finished match game, then create the games of the matches now ready.

    Runs inside the caller's transaction, with the event locked.
    """
    event = stage.event
    bracket = core_bracket(stage)
    current = current_games(stage)
    changed = False
    replays: list[str] = []
    for _ in range(len(bracket.seeds) * 2 + 4):  # a round's results can make the next ready
        state = bracket.state()
        reported_any = False
        for view in state.matches:
            row = current.get(view.id)
            if row is None or view.status not in (Status.READY, Status.DONE):
                continue
            if view.override is not None:
                continue  # the director decided this match: its game no longer counts
            if sorted(map(str, set(row.seats))) != sorted(view.entrants):
                continue  # a game seated before a correction: recreated below
            finish = finish_of_game(row)
            if finish is None:
                continue
            if view.reported is not None and _same_finish(view.reported, finish):
                continue
            correction = view.reported is not None
            try:
                bracket = report_result(bracket, Result(view.id, finish), correction=correction)
            except BracketUserError as error:
                if "plays again" in error.message and view.reported is None:
                    replays.append(view.id)
                    continue
                event_log(
                    event,
                    "bracket_result_refused",
                    user,
                    after={
                        "match": view.id,
                        "finish": [list(g) for g in finish],
                        "why": str(error),
                    },
                )
                continue
            event_log(
                event,
                "bracket_result_corrected" if correction else "bracket_result",
                user,
                before={"match": view.id, "finish": [list(g) for g in view.reported]}
                if view.reported
                else None,
                after={"match": view.id, "game": row.game_id, "finish": [list(g) for g in finish]},
            )
            changed = reported_any = True
        if not reported_any:
            break
    if changed:
        _store(stage, bracket)
    state = bracket.state()
    entrants = {str(e.pk): e for e in event.entrants.all()}
    for view in state.matches:
        if view.status is not Status.READY or view.override is not None:
            continue
        row = current.get(view.id)
        if view.id in replays and row is not None:
            new = _create_game(
                stage, event, view.id, [entrants[n] for n in view.entrants], row.attempt + 1, user
            )
            event_log(
                event,
                "bracket_replay",
                user,
                after={"match": view.id, "game": new.game_id, "attempt": new.attempt},
            )
            continue
        if row is not None:
            if sorted(map(str, set(row.seats))) == sorted(view.entrants):
                continue
            if row.game.rounds.exists():
                continue  # played already: the director settles it with an override
            old = row.game
            row.delete()
            old.delete()
        new = _create_game(stage, event, view.id, [entrants[n] for n in view.entrants], 1, user)
        event_log(event, "bracket_game_create", user, after={"match": view.id, "game": new.game_id})
        changed = True
    if changed or replays:
        bump(event)
    return state


def _same_finish(a: Finish, b: Finish) -> bool:
    return [sorted(group) for group in a] == [sorted(group) for group in b]


def bracket_game_changed(*, game_id: int) -> None:
    """A tournament game changed: when it is a bracket match's game, advance the bracket."""
    stage_id = (
        BracketGame.objects.filter(game_id=game_id).values_list("stage_id", flat=True).first()
    )
    if stage_id is None:
        return
    with transaction.atomic():
        stage = BracketStage.objects.select_related("event").get(pk=stage_id)
        event = Event.objects.select_for_update().get(pk=stage.event_id)
        stage = BracketStage.objects.select_for_update().select_related("event").get(pk=stage_id)
        if event.status == Event.Status.CLOSED:
            return
        bump(event)
        stage_advance_locked(stage)


def stage_advance(*, event: Event, user: ActingUser = None) -> BracketState:
    """Read every match game again and advance (the desk's "check the tables" button)."""
    with transaction.atomic():
        event = event_locked_open(event)
        stage = _stage_of(event, lock=True)
        return stage_advance_locked(stage, user=user)


def _stage_of(event: Event, *, lock: bool = False) -> BracketStage:
    rows = BracketStage.objects.select_related("event")
    if lock:
        rows = rows.select_for_update()
    stage = rows.filter(event=event).first()
    if stage is None:
        raise TournamentError.single(N_("this event has no bracket yet"), field="kind")
    return stage


def bracket_override(
    *,
    event: Event,
    match: str,
    finish: Sequence[int | str],
    reason: str,
    user: ActingUser = None,
) -> BracketStage:
    """The director decides who goes on from ``match``: ``finish`` ranks every entrant at
    the table (ids, best first); the reason is required and kept, and the change is
    logged with the finish it replaced."""
    with transaction.atomic():
        event = event_locked_open(event)
        stage = _stage_of(event, lock=True)
        bracket = core_bracket(stage)
        try:
            before = bracket.state().match(match)
            changed = override_advancement(
                bracket,
                Override(
                    match=match,
                    finish=tuple((str(name),) for name in finish),
                    reason=reason,
                ),
            )
        except BracketUserError as error:
            names = {str(pk): name for pk, name in event.entrants.values_list("pk", "name")}
            raise bracket_refusal(error, names) from None
        _store(stage, changed)
        # The match's games are the desk's now: the table can no longer change them itself.
        Game.objects.filter(bracket_game__stage=stage, bracket_game__match=match).update(
            closed_by_desk=True
        )
        event_log(
            event,
            "bracket_override",
            user,
            before={
                "match": match,
                "finish": list(before.finish),
                "reported": [list(g) for g in before.reported] if before.reported else None,
                "override": before.override.reason if before.override else None,
            },
            after={
                "match": match,
                "finish": [str(name) for name in finish],
                "reason": reason.strip(),
            },
        )
        stage_advance_locked(stage, user=user)
        bump(event)
    return stage
