"""Publishing a tournament round: every table of its draft becomes one scoring game
(in parts, for a large draft), and taking the last published round back."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from common.phrases import N_, Phrase
from common.rows import set_column
from scoring.engines.base import Problem
from scoring.models import Game
from scoring.services import (
    Actor,
    GameChangeError,
    PreparedGame,
    game_prepare,
    games_create_prepared,
)
from tournaments.errors import TournamentError, listed
from tournaments.events import availability
from tournaments.events.services.tournament_rounds import (
    tournament_round_locked,
    tournament_round_still_playing_check,
)
from tournaments.models import Event, Table, TableSeat, TournamentRound
from tournaments.services.change import (
    ActingUser,
    bump,
    event_locked,
    event_locked_open,
    event_log,
    options_at,
    refuse_closed,
)


def _first_dealer(seated: Sequence[int], dealt: Counter[int]) -> int:
    """The seat whose player has dealt first least often so far (ties: the lowest seat)."""
    return min(range(len(seated)), key=lambda s: (dealt[seated[s]], s))


def _publish_checks(event: Event, round_: TournamentRound, *, go_on: bool) -> None:
    tournament_round_still_playing_check(event=event, number=round_.number, go_on=go_on)
    twice = availability.seated_still_playing(round_)
    if twice:
        raise TournamentError.single(
            N_(
                "this draft seats players still playing: {players}. Generate the draft "
                "again to leave them out"
            ),
            field="round",
            round_number=round_.number,
            players=listed(
                (
                    Phrase(
                        "{name} ({where})",
                        {
                            "name": name,
                            "where": Phrase(
                                N_("round {round}, table {table}"),
                                {"round": table.round_number, "table": table.table_number},
                            ),
                        },
                    )
                    for name, table in twice
                ),
                "; ",
            ),
        )


def _create_games(
    event: Event, round_: TournamentRound, user: ActingUser, *, most: int | None = None
) -> list[Table]:
    """Give up to ``most`` of the draft's tables that have none their scoring game."""
    tables = list(round_.tables.filter(game__isnull=True).order_by("number")[:most])
    if not tables:
        return []
    dealt: Counter[int] = Counter()
    for seat, entrant_id, first in TableSeat.objects.filter(
        table__round__event=event,
        table__round__status=TournamentRound.Status.PUBLISHED,
    ).values_list("seat", "entrant_id", "table__game__first_dealer"):
        if seat == first:
            dealt[entrant_id] += 1
    # (seat, entrant, the name at that seat) of each table, read as plain values.
    seats: dict[int, list[tuple[int, int, str]]] = {}
    for table_id, seat, entrant_id, name, members, member in TableSeat.objects.filter(
        table__in=tables
    ).values_list("table_id", "seat", "entrant_id", "entrant__name", "entrant__members", "member"):
        seats.setdefault(table_id, []).append(
            (seat, entrant_id, members[member] if members else name)
        )
    actor = Actor(user=user, device="director's desk")
    options: dict[int, dict[str, Any]] = {}  # by table size: the same for every table
    prepared: list[PreparedGame] = []
    for table in tables:
        seated = sorted(seats[table.pk])
        names = [name for _, _, name in seated]
        if len(names) not in options:
            options[len(names)] = options_at(event.game, event.options, len(names))
        record = {
            "game": event.game,
            "players": names,
            "options": options[len(names)],
            "first_dealer": _first_dealer([entrant for _, entrant, _ in seated], dealt),
            "rounds": [],
        }
        try:
            prepared.append(game_prepare(record=record))
        except GameChangeError as error:
            raise TournamentError(
                [
                    Problem(
                        N_("table {table}: {problem}"),
                        round_.number,
                        p.field,
                        {"table": table.number, "problem": p},
                    )
                    for p in error.problems
                ]
            ) from None
    # Every game written in a few bulk inserts; the round's publishing tells the pages once.
    games = games_create_prepared(
        prepared=prepared,
        actor=actor,
        confirmation=event.confirmation,
        is_tournament_game=True,
        one_phone=event.one_phone,
        announce=False,
    )
    pairs = []
    for table, game in zip(tables, games, strict=True):
        table.game = game
        pairs.append((table.pk, game.pk))
    set_column(Table, "game_id", pairs)
    return tables


def tournament_round_publish_part(
    *, event: Event, round: TournamentRound, user: ActingUser = None, go_on: bool = False, most: int
) -> tuple[int, int]:
    """Prepare a large draft for publishing, ``most`` tables at a time: their games are
    created while the round stays a draft (players see nothing yet). Returns (tables
    with a game, tables). ``tournament_round_publish`` then publishes the round in one step."""
    with transaction.atomic():
        event = event_locked_open(event)
        round_ = tournament_round_locked(event, round, TournamentRound.Status.DRAFT)
        # Checked before the first part (a draft refused makes no game);
        # ``tournament_round_publish`` checks again when it publishes, so the parts between
        # need not.
        if not round_.tables.filter(game__isnull=False).exists():
            _publish_checks(event, round_, go_on=go_on)
        _create_games(event, round_, user, most=most)
        done = round_.tables.filter(game__isnull=False).count()
        return done, round_.tables.count()


def tournament_round_publish(
    *, event: Event, round: TournamentRound, user: ActingUser = None, go_on: bool = False
) -> TournamentRound:
    """Publish a draft: every table becomes one scoring game, players in seat order.

    Refused while a table of an earlier round still plays, unless ``go_on``; even then a
    draft that seats a player still playing is refused (nobody is seated twice). Tables
    prepared by ``tournament_round_publish_part`` keep their games.
    """
    with transaction.atomic():
        event = event_locked(event)
        refuse_closed(event)
        round_ = tournament_round_locked(event, round, TournamentRound.Status.DRAFT)
        _publish_checks(event, round_, go_on=go_on)
        _create_games(event, round_, user)
        round_.status = TournamentRound.Status.PUBLISHED
        round_.published_at = timezone.now()
        round_.save(update_fields=["status", "published_at"])
        event_log(
            event,
            "round_publish",
            user,
            after={
                "round": round_.number,
                "games": list(round_.tables.order_by("number").values_list("game_id", flat=True)),
            },
        )
        bump(event)
    return round_


def tournament_round_undo(
    *, event: Event, round: TournamentRound, user: ActingUser = None
) -> TournamentRound:
    """Take back the last published round before any result is in: its games go, the
    round is a draft again."""
    with transaction.atomic():
        event = event_locked_open(event)
        round_ = tournament_round_locked(event, round, TournamentRound.Status.PUBLISHED)
        last = event.rounds.order_by("-number").values_list("number", flat=True).first()
        if last != round_.number:
            raise TournamentError.single(
                N_("only the last tournament round (round {last}) can be undone"),
                field="round",
                round_number=round_.number,
                last=last,
            )
        game_ids = list(round_.tables.exclude(game=None).values_list("game_id", flat=True))
        played = (
            Table.objects.filter(round=round_, game__rounds__isnull=False)
            .values_list("number", flat=True)
            .distinct()
        )
        if played:
            raise TournamentError.single(
                N_("results are in at table {tables}: correct them instead"),
                field="round",
                round_number=round_.number,
                tables=", ".join(str(n) for n in sorted(played)),
            )
        round_.tables.update(game=None)
        Game.objects.filter(pk__in=game_ids).delete()
        round_.status = TournamentRound.Status.DRAFT
        round_.published_at = None
        round_.save(update_fields=["status", "published_at"])
        event_log(event, "round_undo", user, before={"round": round_.number, "games": game_ids})
        bump(event)
    return round_
