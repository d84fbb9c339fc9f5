"""A game: started, imported, ended, reopened and started again."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from scoring.engines.base import N_, InvalidRecord, ScoredGame, ended_at_totals, parse_record
from scoring.engines.registry import ENGINES, engine_for
from scoring.models import (
    Confirmation,
    Game,
    Round,
    RoundEvent,
    Seat,
)
from scoring.selectors import (
    game_record,
)
from scoring.services.change import Actor, ChangeResult, GameChangeError, default_confirmation
from scoring.services.checks import (
    check_actor_seat,
    check_desk,
    check_open,
    check_revision,
    checked_reason,
)
from scoring.services.frame import audit, locked, save_projection, score_or_raise


def game_create(
    *,
    record: Mapping[str, Any],
    actor: Actor | None = None,
    confirmation: str | None = None,
    is_tournament_game: bool = False,
    one_phone: bool = False,
    action: str = RoundEvent.Action.CREATE,
) -> ChangeResult:
    """Create a game from a game record (rounds optional: an import carries them)."""
    actor = actor or Actor()
    try:
        parsed = parse_record(record, ENGINES)
        scored = engine_for(parsed.game).score(parsed)
    except InvalidRecord as invalid:
        raise GameChangeError(invalid.problems) from None
    if confirmation is None:
        confirmation = default_confirmation(is_tournament_game=is_tournament_game)
    if confirmation not in Confirmation.values:
        raise GameChangeError.single(
            N_("confirmation must be off, any_other_seat or other_side"), field="confirmation"
        )
    with transaction.atomic():
        game = Game.objects.create(
            kind=parsed.game,
            options=dict(parsed.options),
            first_dealer=parsed.first_dealer,
            ending={key: value for key, value in parsed.extras.items() if value},
            confirmation=confirmation,
            is_tournament_game=is_tournament_game,
            one_phone=one_phone and is_tournament_game,
            created_by=actor.user_or_none,
        )
        teams = scored.teams
        Seat.objects.bulk_create(
            Seat(
                game=game,
                number=seat,
                name=name,
                team=next((label for label, members in teams.items() if seat in members), ""),
            )
            for seat, name in enumerate(parsed.players)
        )
        # Imported rounds were played already: they stand as confirmed.
        Round.objects.bulk_create(
            Round(game=game, number=index + 1, entry=entry, status=Round.Status.CONFIRMED)
            for index, entry in enumerate(parsed.rounds)
        )
        audit(game, action, actor, after=parsed.as_dict())
        score = save_projection(game, scored)
    return ChangeResult(game=game, score=score)


def game_import(*, record: Mapping[str, Any], actor: Actor | None = None) -> ChangeResult:
    return game_create(record=record, actor=actor, action=RoundEvent.Action.IMPORT)


def check_ending(game: Game, ending: Mapping[str, Any]) -> ScoredGame:
    """The score once ``ending`` is applied, or the reason it cannot be (game locked)."""
    if game.ending:
        raise GameChangeError.single(N_("this game has already ended"), field="end")
    if not isinstance(ending, Mapping) or not ending:
        raise GameChangeError.single(N_("say how the game ends"), field="end")
    unknown = set(ending) - game.engine.record_extras
    if unknown:
        raise GameChangeError.single(
            N_("{game} cannot be ended this way"), field=sorted(unknown)[0], game=game.engine.title
        )
    scored = score_or_raise(game, game_record(game).with_extras(ending))
    if not scored.finished:
        raise GameChangeError.single(N_("that does not end the game"), field=sorted(ending)[0])
    return scored


def apply_end(game: Game, ending: Mapping[str, Any], actor: Actor) -> dict[str, Any]:
    scored = check_ending(game, ending)
    before = dict(game.ending)
    game.ending = dict(ending)
    audit(game, RoundEvent.Action.END, actor, before=before, after=dict(ending))
    return save_projection(game, scored)


def game_end(
    *, game: Game, ending: Mapping[str, Any], actor: Actor, revision: int | None = None
) -> ChangeResult:
    """End a game by a record-level ending its engine allows (an early finish, leftovers);
    ``revision``, when given, is the one the phone saw."""
    with transaction.atomic():
        game = locked(game.pk)
        check_actor_seat(game, actor)
        check_revision(game, revision)
        check_open(game, actor)
        score = apply_end(game, ending, actor)
    return ChangeResult(game=game, score=score)


def game_end_at_totals(
    *, game: Game, actor: Actor, reason: str, revision: int | None
) -> ChangeResult:
    """The event's desk ends a game where it stands: the best total wins (time called, a
    player gone). Its deals waiting for confirmation stand confirmed by the director. The
    reason is required and kept; ``revision`` is the one the desk page showed."""
    check_desk(actor)
    reason = checked_reason(reason)
    with transaction.atomic():
        game = locked(game.pk)
        check_revision(game, revision)
        record = game_record(game)
        if game.ending or score_or_raise(game, record).finished:
            raise GameChangeError.single(
                N_("the game is over already: there is nothing to end"), field="end"
            )
        ended, scored = ended_at_totals(game.engine, record)
        game.ending = dict(ended.extras)
        waiting = game.rounds.filter(status=Round.Status.PENDING)
        confirmed = list(waiting.values_list("number", flat=True))
        waiting.update(status=Round.Status.CONFIRMED, confirmed_at=timezone.now())
        after: dict[str, Any] = dict(game.ending)
        if confirmed:
            after["confirmed"] = confirmed
        audit(game, RoundEvent.Action.END, actor, before={}, after=after, reason=reason)
        score = save_projection(game, scored)
    return ChangeResult(game=game, score=score)


def check_reopen(game: Game) -> None:
    if not game.ending:
        raise GameChangeError.single(N_("this game was not ended early"), field="end")


def apply_reopen(game: Game, actor: Actor) -> dict[str, Any]:
    check_reopen(game)
    before = dict(game.ending)
    game.ending = {}
    scored = score_or_raise(game, game_record(game))
    audit(game, RoundEvent.Action.REOPEN, actor, before=before, after={})
    return save_projection(game, scored)


def game_reopen(*, game: Game, actor: Actor, revision: int | None = None) -> ChangeResult:
    """Take back an ending (an early finish, leftovers given out): the game goes on.

    ``revision`` is the one the phone saw (None: not checked)."""
    with transaction.atomic():
        game = locked(game.pk)
        check_actor_seat(game, actor)
        check_revision(game, revision)
        check_open(game, actor)
        score = apply_reopen(game, actor)
    return ChangeResult(game=game, score=score)


def record_to_start_again(game: Game) -> dict[str, Any]:
    """The record of ``game``'s table started again: the same players and options, no
    rounds, the first deal passing to the next seat."""
    players = list(game.seats.order_by("number").values_list("name", flat=True))
    return {
        "format": 1,
        "game": game.kind,
        "players": players,
        "options": dict(game.options),
        "first_dealer": (game.first_dealer + 1) % len(players),
        "rounds": [],
    }


def game_start_again(*, game: Game, actor: Actor) -> ChangeResult:
    """A new game of ``game``'s table, with its confirmation, the first deal passing on
    (a phone's recent table started again). Unlike a rematch it is any time, and ``game``
    is left as it is."""
    return game_create(
        record=record_to_start_again(game), actor=actor, confirmation=game.confirmation
    )


def game_rematch(*, game: Game, actor: Actor) -> ChangeResult:
    """Start the same table again, the first deal passing to the next seat.

    One rematch per game: a second phone asking gets the game the first one started.
    """
    with transaction.atomic():
        game = locked(game.pk)
        check_actor_seat(game, actor)
        existing = Game.objects.filter(rematch_of=game).first()
        if existing is not None:
            return ChangeResult(game=existing, score=existing.score_cache, replayed=True)
        if game.is_tournament_game:
            raise GameChangeError.single(
                N_("a tournament game is followed by the event's next round, not a rematch"),
                field="rematch",
            )
        if game.status != Game.Status.FINISHED:
            raise GameChangeError.single(N_("the game is not over yet"), field="rematch")
        result = game_create(
            record=record_to_start_again(game), actor=actor, confirmation=game.confirmation
        )
        rematch = result.game
        rematch.rematch_of = game
        rematch.save(update_fields=["rematch_of", "updated_at"])
        audit(game, RoundEvent.Action.REMATCH, actor, after={"game": rematch.pk})
        game.revision += 1
        game.save(update_fields=["revision", "updated_at"])
    return ChangeResult(game=rematch, score=result.score)


def seat_hold(*, game: Game, seat: int, actor: Actor) -> Game:
    """The phone ``actor.device`` holds ``seat`` of an event table for its player, proven
    by their own link (``actor.person``, checked by the caller): from now on no other
    phone enters or confirms for that seat. Opening the link on another phone moves the
    seat to that phone. The audit names the player."""
    if not actor.person or not actor.device:
        raise GameChangeError.single(N_("only a player's own link holds a seat"), field="seat")
    with transaction.atomic():
        game = locked(game.pk)
        if not game.is_tournament_game:
            raise GameChangeError.single(N_("only an event table's seats are held"), field="seat")
        row = Seat.objects.select_for_update().filter(game=game, number=seat).first()
        if row is None:
            raise GameChangeError.single(N_("that seat is not at this table"), field="seat")
        if row.held_by_device == actor.device[:64]:
            return game  # held by this phone already: nothing to say again
        before = {"held": bool(row.held_by_device)}
        row.held_by_device = actor.device[:64]
        row.save(update_fields=["held_by_device"])
        audit(game, RoundEvent.Action.HOLD, actor, before=before, after={"seat": seat})
    return game
