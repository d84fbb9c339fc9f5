"""No silent overwrite, closed event tables, and the other phone's confirmation: the services.

Every correction, undo, reopen and ending names the revision it was made against; a
stale one is refused and nothing changes. An event table whose game is over changes only
through its event's desk. At an event table another phone confirms than the one that
entered, unless the event hands one phone over (and the audit says so).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.models import ChangeRequest, Confirmation, Game, RoundEvent
from scoring.selectors import table_closed
from scoring.services import (
    Actor,
    GameChangeError,
    StaleRevision,
    TableClosed,
    change_request_accept,
    change_request_decline,
    change_request_open,
    desk_request_answer,
    desk_request_open,
    game_create,
    game_end,
    game_reopen,
    round_confirm,
    round_correct,
    round_record,
    round_undo,
)
from tests.scoring.factories import ROOLZ_FOUR, new_game, roolz_round

pytestmark = pytest.mark.django_db

# Seats 0 and 2 are team A, 1 and 3 team B; each on a phone of its own.
ANN, BEN, CAT, DAN = (Actor(seat=seat, device=f"phone-{seat}") for seat in range(4))
DESK = Actor(device="director's desk", desk=True)
SHORT = {**ROOLZ_FOUR, "options": {"target": 300}}  # two deals of 200 end it
WIN = {"bidder": 0, "bid": 170, "won": {"A": 200, "B": 100}}


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def event_table(*, one_phone: bool = False, deals: int = 0) -> Game:
    """An event table's game, ``deals`` played (Ann enters, Ben confirms on his phone)."""
    game = game_create(
        record=SHORT, actor=Actor(device="desk"), is_tournament_game=True, one_phone=one_phone
    ).game
    for number in range(1, deals + 1):
        round_record(game=game, number=number, entry=WIN, actor=ANN)
        round_confirm(game=game, number=number, actor=BEN)
    return fresh(game)


def finished_table() -> Game:
    game = event_table(deals=2)
    assert game.status == Game.Status.FINISHED and table_closed(game)
    return game


def audit(game: Game) -> list[str]:
    return list(game.events.values_list("action", flat=True))


# --------------------------------------------------------------------------- revisions


def test_a_stale_correction_is_refused_and_changes_nothing():
    game = new_game()
    round_record(game=game, number=1, entry=roolz_round(a=190), actor=ANN)
    opened = fresh(game).revision
    round_correct(game=game, number=1, entry=roolz_round(a=200), actor=BEN, revision=opened)
    with pytest.raises(StaleRevision) as refused:
        round_correct(game=game, number=1, entry=roolz_round(a=250), actor=CAT, revision=opened)
    assert "changed since you opened it" in str(refused.value)
    assert refused.value.current == fresh(game).revision != opened
    assert refused.value.problems[0].round == 1 and refused.value.problems[0].field == "revision"
    assert game.rounds.get().entry == roolz_round(a=200)
    assert audit(game).count(RoundEvent.Action.CORRECT) == 1
    # Nothing is lost: made again against what is there now, it is applied.
    round_correct(
        game=game, number=1, entry=roolz_round(a=250), actor=CAT, revision=refused.value.current
    )
    assert game.rounds.get().entry == roolz_round(a=250)


def test_a_stale_undo_reopen_or_ending_is_refused():
    game = game_create(
        record={"format": 1, "game": "roller_derby", "players": ["Ann", "Ben", "Cat", "Dan"]}
    ).game
    for number, entry in enumerate(
        [
            {"dice": [3, 4], "tricks": 6},
            {"dice": [3, 4], "all_or_nothing": True, "made": False},
            {"dice": [2, 2], "tricks": 4},
        ],
        start=1,
    ):
        round_record(game=game, number=number, entry=entry, actor=ANN)
    seen = fresh(game).revision
    with pytest.raises(StaleRevision):
        round_undo(game=game, number=3, actor=BEN, revision=seen - 1)
    assert game.rounds.count() == 3
    with pytest.raises(StaleRevision):
        game_end(game=game, ending={"ended_early": True}, actor=BEN, revision=seen - 1)
    assert fresh(game).ending == {}
    game_end(game=game, ending={"ended_early": True}, actor=BEN, revision=seen)
    ended = fresh(game).revision
    with pytest.raises(StaleRevision):
        game_reopen(game=game, actor=BEN, revision=seen)
    assert fresh(game).ending == {"ended_early": True}
    game_reopen(game=game, actor=BEN, revision=ended)
    assert fresh(game).ending == {}


@settings(max_examples=25, deadline=None)
@given(offsets=st.lists(st.integers(min_value=-3, max_value=3), min_size=1, max_size=6))
def test_a_change_applies_exactly_when_made_against_the_revision_there_now(offsets):
    """Whatever revisions the phones send, a correction is applied iff its revision is the
    game's, every applied one is audited once, and a refused one leaves the round as it was."""
    game = new_game()
    round_record(game=game, number=1, entry=roolz_round(a=100), actor=ANN)
    for index, offset in enumerate(offsets):
        before = fresh(game)
        entry = roolz_round(a=110 + 10 * index)
        kept = before.rounds.get().entry
        try:
            round_correct(
                game=game,
                number=1,
                entry=entry,
                actor=BEN,
                revision=before.revision + offset,
            )
        except StaleRevision:
            assert offset != 0
            assert fresh(game).rounds.get().entry == kept
            assert fresh(game).revision == before.revision
        else:
            assert offset == 0
            assert fresh(game).rounds.get().entry == entry
    applied = sum(1 for offset in offsets if offset == 0)
    assert audit(game).count(RoundEvent.Action.CORRECT) == applied


# --------------------------------------------------------------------------- closed tables


def test_a_casual_game_is_never_closed_and_keeps_its_own_flow():
    game = new_game(record=SHORT)
    for number in (1, 2):
        round_record(game=game, number=number, entry=WIN, actor=ANN)
    game = fresh(game)
    assert game.status == Game.Status.FINISHED and not table_closed(game)
    round_undo(game=game, number=2, actor=BEN, revision=game.revision)
    assert game.rounds.count() == 1


def test_an_event_table_still_playing_is_not_closed():
    game = event_table(deals=1)
    assert not table_closed(game)
    round_correct(game=game, number=1, entry=WIN, actor=BEN, revision=game.revision)


def test_a_finished_event_table_changes_nothing_by_itself():
    game = finished_table()
    revision = game.revision
    with pytest.raises(TableClosed):
        round_correct(game=game, number=1, entry=roolz_round(), actor=ANN, revision=revision)
    with pytest.raises(TableClosed):
        round_undo(game=game, number=2, actor=BEN, revision=revision)
    with pytest.raises(TableClosed):
        change_request_open(game=game, kind="undo", actor=BEN)
    game = fresh(game)
    assert game.revision == revision and game.rounds.count() == 2
    assert game.rounds.get(number=1).entry == WIN


def test_a_table_waiting_for_its_last_confirmation_is_not_closed_yet():
    game = event_table(deals=1)
    round_record(game=game, number=2, entry=WIN, actor=ANN)
    game = fresh(game)
    assert game.status == Game.Status.FINISHED and not table_closed(game)
    round_correct(game=game, number=2, entry=roolz_round(), actor=ANN, revision=game.revision)


def test_a_bracket_match_the_desk_decided_is_closed_while_playing():
    game = event_table(deals=1)
    Game.objects.filter(pk=game.pk).update(closed_by_desk=True)
    with pytest.raises(TableClosed):
        round_undo(game=game, number=1, actor=ANN, revision=fresh(game).revision)


def test_a_closed_table_asks_the_desk_and_a_director_makes_the_change_with_a_reason():
    game = finished_table()
    asked = desk_request_open(
        game=game,
        kind="correct",
        actor=BEN,
        revision=game.revision,
        number=1,
        entry=roolz_round(bidder=1, bid=170, a=100),
    ).request
    assert asked.to_desk and asked.status == ChangeRequest.Status.OPEN
    assert fresh(game).rounds.get(number=1).entry == WIN  # nothing changes yet
    # The table cannot answer it, not even the other side.
    with pytest.raises(GameChangeError, match="desk answers"):
        change_request_accept(game=game, request_id=asked.pk, actor=ANN)
    with pytest.raises(GameChangeError, match="desk answers"):
        change_request_decline(game=game, request_id=asked.pk, actor=ANN)
    # Only the desk, with a reason.
    with pytest.raises(GameChangeError, match="director"):
        desk_request_answer(
            game=game,
            request_id=asked.pk,
            accept=True,
            reason="ok",
            actor=ANN,
            revision=fresh(game).revision,
        )
    with pytest.raises(GameChangeError, match="why"):
        desk_request_answer(
            game=game,
            request_id=asked.pk,
            accept=True,
            reason="   ",
            actor=DESK,
            revision=fresh(game).revision,
        )
    desk_request_answer(
        game=game,
        request_id=asked.pk,
        accept=True,
        reason="both sides agree at the desk",
        actor=DESK,
        revision=fresh(game).revision,
    )
    asked.refresh_from_db()
    assert asked.status == ChangeRequest.Status.ACCEPTED
    assert asked.reason == "both sides agree at the desk"
    deal = fresh(game).rounds.get(number=1)
    assert deal.entry == roolz_round(bidder=1, bid=170, a=100) and deal.status == "confirmed"
    accepted = game.events.filter(action=RoundEvent.Action.ACCEPT).get()
    assert accepted.after["reason"] == "both sides agree at the desk"
    assert game.events.filter(action=RoundEvent.Action.CORRECT).get().device == DESK.device


def test_the_desk_declines_and_nothing_changes():
    game = finished_table()
    asked = desk_request_open(
        game=game, kind="undo", actor=ANN, revision=game.revision, number=2
    ).request
    desk_request_answer(
        game=game,
        request_id=asked.pk,
        accept=False,
        reason="the deal was played",
        actor=DESK,
        revision=fresh(game).revision,
    )
    asked.refresh_from_db()
    assert asked.status == ChangeRequest.Status.DECLINED
    assert fresh(game).rounds.count() == 2


def test_a_desk_answer_made_against_an_old_revision_is_refused():
    game = finished_table()
    asked = desk_request_open(
        game=game, kind="undo", actor=ANN, revision=game.revision, number=2
    ).request
    shown = fresh(game).revision
    # Another desk tab corrects deal 1 meanwhile: this desk page is out of date.
    round_correct(game=game, number=1, entry=roolz_round(a=250), actor=DESK, revision=shown)
    with pytest.raises(StaleRevision):
        desk_request_answer(
            game=game, request_id=asked.pk, accept=True, reason="ok", actor=DESK, revision=shown
        )
    assert fresh(game).rounds.count() == 2
    asked.refresh_from_db()
    assert asked.status == ChangeRequest.Status.OPEN  # still waiting, to answer again


def test_a_stale_request_to_the_desk_is_refused_and_one_at_a_time():
    game = finished_table()
    with pytest.raises(StaleRevision):
        desk_request_open(game=game, kind="undo", actor=ANN, revision=game.revision - 1)
    first = desk_request_open(game=game, kind="undo", actor=ANN, revision=game.revision)
    again = desk_request_open(game=game, kind="undo", actor=ANN, revision=fresh(game).revision)
    assert again.replayed and again.request.pk == first.request.pk
    with pytest.raises(GameChangeError, match="already asked"):
        desk_request_open(
            game=game,
            kind="correct",
            actor=BEN,
            revision=fresh(game).revision,
            number=1,
            entry=WIN,
        )


def test_a_correction_the_engine_refuses_is_not_sent_to_the_desk():
    game = finished_table()
    with pytest.raises(GameChangeError) as refused:
        desk_request_open(
            game=game,
            kind="correct",
            actor=ANN,
            revision=game.revision,
            number=1,
            entry={"bidder": 0, "bid": 172, "won": {"A": 200, "B": 100}},
        )
    assert refused.value.problems[0].field == "bid"
    assert not game.change_requests.exists()


# --------------------------------------------------------------------------- confirmation


def test_at_an_event_table_the_entering_phone_cannot_confirm_for_the_other_side():
    game = event_table()
    round_record(game=game, number=1, entry=WIN, actor=ANN)
    same_phone_as_ben = Actor(seat=1, device=ANN.device)
    with pytest.raises(GameChangeError, match="phone of the other side"):
        round_confirm(game=game, number=1, actor=same_phone_as_ben)
    assert fresh(game).rounds.get().status == "pending"
    round_confirm(game=game, number=1, actor=BEN)
    confirmed = game.events.filter(action=RoundEvent.Action.CONFIRM).get()
    assert confirmed.device == BEN.device and "one_device" not in confirmed.after


def test_one_phone_handed_over_confirms_and_the_audit_says_so():
    game = event_table(one_phone=True)
    round_record(game=game, number=1, entry=WIN, actor=ANN)
    round_confirm(game=game, number=1, actor=Actor(seat=1, device=ANN.device))
    confirmed = game.events.filter(action=RoundEvent.Action.CONFIRM).get()
    assert confirmed.after == {"status": "confirmed", "one_device": True}


def test_casual_games_keep_handing_the_phone_over():
    game = new_game(confirmation=Confirmation.OTHER_SIDE)
    round_record(game=game, number=1, entry=roolz_round(), actor=ANN)
    round_confirm(game=game, number=1, actor=Actor(seat=1, device=ANN.device))
    confirmed = game.events.filter(action=RoundEvent.Action.CONFIRM).get()
    assert confirmed.after == {"status": "confirmed"}


def test_at_an_event_table_the_asking_phone_cannot_agree_to_its_own_request():
    game = event_table(deals=1)
    asked = change_request_open(game=game, kind="undo", actor=ANN).request
    with pytest.raises(GameChangeError, match="phone of the other side"):
        change_request_accept(
            game=game, request_id=asked.pk, actor=Actor(seat=1, device=ANN.device)
        )
    change_request_accept(game=game, request_id=asked.pk, actor=BEN)
    assert fresh(game).rounds.count() == 0
