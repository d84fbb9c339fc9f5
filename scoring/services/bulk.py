"""Many games started at once (an event's round of thousands of tables), in a few bulk
writes instead of a handful of queries each.

``game_prepare(record=)`` reads and scores one game record (raising ``GameChangeError``
as ``game_create`` does), ``games_create_prepared(prepared=, ...)`` writes them all: the
games with their score projection, their seats, their rounds (an import's, confirmed)
and one audit event each, the same rows ``game_create`` writes for each game alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from common.rows import insert_rows
from scoring.engines.base import N_, GameRecord, InvalidRecord, ScoredGame, parse_record
from scoring.engines.registry import ENGINES, engine_for
from scoring.models import Confirmation, Game, Round, RoundEvent, Seat
from scoring.services.change import Actor, GameChangeError, default_confirmation
from scoring.services.frame import announce_change, set_standing

BATCH = 1000  # rows a bulk insert sends at once


def team_of(teams: Mapping[str, Sequence[int]], seat: int) -> str:
    """The team label of ``seat`` (empty when it plays for itself)."""
    return next((label for label, members in teams.items() if seat in members), "")


@dataclass(frozen=True)
class PreparedGame:
    """A game record read and scored, ready to be written."""

    record: GameRecord
    scored: ScoredGame


def game_prepare(*, record: Mapping[str, Any]) -> PreparedGame:
    """Read and score a game record (nothing is written); GameChangeError when invalid."""
    try:
        parsed = parse_record(record, ENGINES)
        scored = engine_for(parsed.game).score(parsed)
    except InvalidRecord as invalid:
        raise GameChangeError(invalid.problems) from None
    return PreparedGame(record=parsed, scored=scored)


def games_create_prepared(
    *,
    prepared: Sequence[PreparedGame],
    actor: Actor | None = None,
    confirmation: str | None = None,
    is_tournament_game: bool = False,
    one_phone: bool = False,
    action: str = RoundEvent.Action.CREATE,
    announce: bool = True,
) -> list[Game]:
    """Write the prepared games in one transaction, in their order, with the rows
    ``game_create`` writes for each. ``announce=False`` for a caller that tells of the
    change itself once (an event's round published), not once a game."""
    actor = actor or Actor()
    if confirmation is None:
        confirmation = default_confirmation(is_tournament_game=is_tournament_game)
    if confirmation not in Confirmation.values:
        raise GameChangeError.single(
            N_("confirmation must be off, any_other_seat or other_side"), field="confirmation"
        )
    games = []
    for one in prepared:
        parsed, scored = one.record, one.scored
        game = Game(
            kind=parsed.game,
            options=dict(parsed.options),
            first_dealer=parsed.first_dealer,
            ending={key: value for key, value in parsed.extras.items() if value},
            confirmation=confirmation,
            is_tournament_game=is_tournament_game,
            one_phone=one_phone and is_tournament_game,
            created_by=actor.user_or_none,
            last_round_number=len(scored.rounds),
        )
        set_standing(game, scored.standing(), scored.state)  # as the projection saved
        games.append(game)
    now = timezone.now()
    fields = [f for f in Game._meta.concrete_fields if not f.primary_key]
    for game in games:
        game.created_at = game.updated_at = now
    with transaction.atomic():
        # Plain rows (the ORM's bulk insert spends more on adapting thousands of JSON
        # values than the database on storing them); each game is found again by its
        # entry link's token, unique.
        insert_rows(
            Game,
            [f.attname for f in fields],
            ([getattr(game, f.attname) for f in fields] for game in games),
        )
        keys = dict(
            Game.objects.filter(table_token__in=[g.table_token for g in games]).values_list(
                "table_token", "pk"
            )
        )
        for game in games:
            game.pk = keys[game.table_token]
            game._state.adding = False
        insert_rows(
            Seat,
            ("game_id", "number", "name", "team"),
            (
                (game.pk, seat, name, team_of(one.scored.teams, seat))
                for game, one in zip(games, prepared, strict=True)
                for seat, name in enumerate(one.record.players)
            ),
        )
        Round.objects.bulk_create(
            (
                Round(
                    game=game,
                    number=index + 1,
                    entry=entry,
                    status=Round.Status.CONFIRMED,
                    result=one.scored.rounds[index].as_dict(),
                )
                for game, one in zip(games, prepared, strict=True)
                for index, entry in enumerate(one.record.rounds)
            ),
            batch_size=BATCH,
        )
        insert_rows(
            RoundEvent,
            (
                "game_id",
                "round_number",
                "action",
                "seat",
                "device",
                "user_id",
                "before",
                "after",
                "reason",
                "at",
            ),
            (
                (
                    game.pk,
                    None,
                    action,
                    actor.seat,
                    actor.device[:64],
                    getattr(actor.user_or_none, "pk", None),
                    None,
                    one.record.as_dict(),
                    "",
                    now,
                )
                for game, one in zip(games, prepared, strict=True)
            ),
        )
        if announce:
            for game in games:
                announce_change(game)
    return games
