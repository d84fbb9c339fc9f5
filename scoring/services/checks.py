"""The refusals any change may make: who makes it, against which revision, at which table."""

from __future__ import annotations

from scoring.engines.base import N_
from scoring.models import Confirmation, Game
from scoring.selectors import another_phone_confirms, seat_count, seat_holder, table_closed
from scoring.services.change import (
    Actor,
    GameChangeError,
    SeatNotSaid,
    StaleRevision,
    TableClosed,
)

REASON_LONGEST = 500


def checked_reason(reason: str, *, required: bool = True, field: str = "reason") -> str:
    """A reason as kept (its spaces tidied), or the refusal naming ``field``: required for
    a director's change of a result, at most ``REASON_LONGEST`` characters."""
    tidy = " ".join(str(reason or "").split())
    if required and not tidy:
        raise GameChangeError.single(N_("say why (the audit keeps it)"), field=field)
    if len(tidy) > REASON_LONGEST:
        raise GameChangeError.single(
            N_("the reason must be at most {longest} characters"),
            field=field,
            longest=REASON_LONGEST,
        )
    return tidy


def check_desk(actor: Actor) -> None:
    if not actor.desk:
        raise GameChangeError.single(
            N_("only a director of the event makes this change"), field="table"
        )


def check_actor_seat(game: Game, actor: Actor) -> None:
    if actor.seat is not None and not 0 <= actor.seat < seat_count(game):
        raise GameChangeError.single(N_("that seat is not at this table"), field="seat")
    check_seat_held(game, actor)


def check_seat_held(game: Game, actor: Actor) -> None:
    """At an event table, a seat its player opened from their own link is theirs: no
    other phone enters or confirms for it (the desk may), and the holding phone only while
    its link proves it (a reissued link proves nothing)."""
    if actor.seat is None or actor.desk or not game.is_tournament_game:
        return
    holder = seat_holder(game, actor.seat)
    if holder is None:
        return
    if holder[0] != actor.device[:64]:
        raise GameChangeError.single(
            N_(
                "{player} holds this seat from their own link: "
                "they enter and confirm on their own phone"
            ),
            field="seat",
            player=holder[1],
        )
    if not actor.person:  # the holding phone, whose link was reissued since
        raise GameChangeError.single(
            N_(
                "the link this phone holds {player}'s seat by is no longer valid: "
                "open the table again from your own link"
            ),
            field="seat",
            player=holder[1],
        )


def check_entering_seat(game: Game, actor: Actor, number: int) -> None:
    """With confirmation on, who entered a round decides who may confirm it: say who."""
    check_actor_seat(game, actor)
    if game.confirmation != Confirmation.OFF and actor.seat is None:
        raise SeatNotSaid.single(
            N_(
                "say who is holding this phone before saving: a player of another side "
                "confirms what you enter"
            )
            if game.confirmation == Confirmation.OTHER_SIDE
            else N_(
                "say who is holding this phone before saving: another player confirms what "
                "you enter"
            ),
            round_number=number,
            field="seat",
        )


def check_revision(game: Game, revision: int | None, number: int | None = None) -> None:
    """Refuse a change made against another revision than the game's (None: not checked,
    for a caller that checked it itself)."""
    if revision is not None and revision != game.revision:
        now = game.rounds.filter(number=number).first() if number is not None else None
        raise StaleRevision(game, made_against=revision, round_number=number, now=now)


def check_open(game: Game, actor: Actor, number: int | None = None) -> None:
    """A closed event table is changed by its event's desk alone."""
    if not actor.desk and table_closed(game):
        raise TableClosed(number, by_desk=game.closed_by_desk)


def same_phone(game: Game, actor: Actor, device: str, number: int | None) -> bool:
    """At an event table another phone confirms (or agrees) than the one that entered (or
    asked), unless the event hands one phone over: then True, for the audit to say so."""
    if actor.desk or not game.is_tournament_game or not device or actor.device != device:
        return False
    if not another_phone_confirms(game, actor.device, device):
        return True
    raise GameChangeError.single(
        N_("confirm on a phone of the other side, not the phone that entered it"),
        round_number=number,
        field="seat",
    )
