"""Changes asked of the other side (undo, end early, reopen) and the rematch: one service each."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.models import ChangeRequest, Confirmation, Game, Round, RoundEvent
from scoring.selectors import (
    change_needs_agreement,
    correction_before,
    latest_table_news,
    open_change_request,
    recent_tables,
)
from scoring.services import (
    Actor,
    GameChangeError,
    change_request_accept,
    change_request_decline,
    change_request_open,
    game_create,
    game_end,
    game_rematch,
    round_confirm,
    round_correct,
    round_record,
    round_undo,
)
from tests.scoring.factories import ROOLZ_FOUR, new_game, roolz_round

pytestmark = pytest.mark.django_db

ANN, BEN, CAT, DAN = (Actor(seat=seat, device=f"phone-{seat}") for seat in range(4))
DERBY = {"format": 1, "game": "roller_derby", "players": ["Ann", "Ben", "Cat", "Dan"]}
DERBY_ROUNDS = [
    {"dice": [3, 4], "tricks": 6},
    {"dice": [3, 4], "all_or_nothing": True, "made": False},
    {"dice": [2, 2], "tricks": 4},
]


def confirmed_roolz(rounds: int = 2) -> Game:
    """Ann's team (A: Ann, Cat) enters, Ben's team (B) confirms."""
    game = new_game(confirmation=Confirmation.OTHER_SIDE)
    for number in range(1, rounds + 1):
        round_record(game=game, number=number, entry=roolz_round(), actor=ANN)
        round_confirm(game=game, number=number, actor=BEN)
    return game


def derby(confirmation: str = Confirmation.OTHER_SIDE) -> Game:
    game = game_create(record=DERBY, confirmation=confirmation).game
    for number, entry in enumerate(DERBY_ROUNDS, start=1):
        round_record(game=game, number=number, entry=entry, actor=ANN)
        if confirmation != Confirmation.OFF:
            round_confirm(game=game, number=number, actor=BEN)
    return game


def actions(game: Game) -> list[str]:
    return list(game.events.values_list("action", flat=True))


# --------------------------------------------------------------------------- undo


def test_undoing_a_confirmed_round_waits_for_the_other_side():
    game = confirmed_roolz()
    assert change_needs_agreement(game, ChangeRequest.Kind.UNDO)
    asked = change_request_open(game=game, kind="undo", actor=ANN)
    assert asked.request.round_number == 2
    assert game.rounds.count() == 2  # nothing changes yet
    with pytest.raises(GameChangeError, match="another side"):
        change_request_accept(game=game, request_id=asked.request.pk, actor=CAT)  # Ann's partner
    result = change_request_accept(game=game, request_id=asked.request.pk, actor=BEN)
    assert result.round_number == 2
    assert list(game.rounds.values_list("number", flat=True)) == [1]
    asked.request.refresh_from_db()
    assert (asked.request.status, asked.request.answered_by_seat) == ("accepted", 1)
    assert actions(game)[-3:] == ["request", "accept", "undo"]
    undo = game.events.get(action=RoundEvent.Action.UNDO)
    assert (undo.seat, undo.before) == (0, roolz_round())  # in the asker's name, with the round
    assert latest_table_news(game) == undo


def test_a_round_still_waiting_for_confirmation_is_undone_without_asking():
    game = new_game(confirmation=Confirmation.OTHER_SIDE)
    round_record(game=game, number=1, entry=roolz_round(), actor=ANN)
    assert not change_needs_agreement(game, ChangeRequest.Kind.UNDO)
    assert not change_needs_agreement(new_game(), ChangeRequest.Kind.UNDO)  # confirmation off


def test_a_declined_request_changes_nothing_and_the_asker_may_take_it_back():
    game = confirmed_roolz()
    asked = change_request_open(game=game, kind="undo", actor=ANN)
    change_request_decline(game=game, request_id=asked.request.pk, actor=DAN)
    asked.request.refresh_from_db()
    assert asked.request.status == ChangeRequest.Status.DECLINED
    assert game.rounds.count() == 2
    news = latest_table_news(game)
    assert news is not None and news.after["status"] == "declined"
    again = change_request_open(game=game, kind="undo", actor=ANN)
    change_request_decline(game=game, request_id=again.request.pk, actor=ANN)
    again.request.refresh_from_db()
    assert again.request.status == ChangeRequest.Status.WITHDRAWN
    assert open_change_request(game) is None
    with pytest.raises(GameChangeError, match="answered already"):
        change_request_accept(game=game, request_id=again.request.pk, actor=BEN)


def test_one_request_at_a_time_and_the_same_one_asked_twice_is_the_same():
    game = confirmed_roolz()
    first = change_request_open(game=game, kind="undo", actor=ANN)
    second = change_request_open(game=game, kind="undo", actor=ANN, number=2)
    assert second.replayed and second.request.pk == first.request.pk
    assert ChangeRequest.objects.filter(game=game).count() == 1
    table = derby()
    change_request_open(game=table, kind="undo", actor=ANN)
    with pytest.raises(GameChangeError, match="already asked to undo the last round"):
        change_request_open(game=table, kind="end", actor=BEN, ending={"ended_early": True})
    assert ChangeRequest.objects.filter(game=table).count() == 1


@pytest.mark.parametrize(
    ("kind", "number", "actor", "message"),
    [
        ("undo", 1, ANN, "only the last round"),
        ("undo", None, Actor(seat=None), "say which player"),
        ("undo", None, Actor(seat=7), "not at this table"),
        ("reopen", None, ANN, "not ended"),
        ("end", None, ANN, "say how the game ends"),
        ("shuffle", None, ANN, "undo, end or reopen"),
    ],
)
def test_a_request_that_could_not_be_granted_is_refused_at_once(kind, number, actor, message):
    game = confirmed_roolz()
    with pytest.raises(GameChangeError, match=message):
        change_request_open(game=game, kind=kind, actor=actor, number=number)
    assert not ChangeRequest.objects.filter(game=game).exists()


def test_a_table_without_confirmation_is_not_asked():
    game = new_game()
    round_record(game=game, number=1, entry=roolz_round(), actor=ANN)
    with pytest.raises(GameChangeError, match="make the change directly"):
        change_request_open(game=game, kind="undo", actor=ANN)
    round_undo(game=game, number=1, actor=ANN)  # the direct undo, as before
    assert latest_table_news(game).action == RoundEvent.Action.UNDO


@pytest.mark.parametrize("kind", ["undo", "end", "reopen", "correct"])
def test_a_casual_table_without_confirmation_never_holds_a_request(kind):
    """Neither the other side nor a desk can be asked at a casual table without
    confirmation, so its page reads no request (``may_hold_change_requests``)."""
    from scoring.selectors import may_hold_change_requests
    from scoring.services import desk_request_open

    game = new_game()
    round_record(game=game, number=1, entry=roolz_round(), actor=ANN)
    assert not may_hold_change_requests(game)
    with pytest.raises(GameChangeError):
        change_request_open(game=game, kind=kind, actor=ANN, number=1)
    with pytest.raises(GameChangeError):
        desk_request_open(game=game, kind=kind, actor=ANN, revision=game.revision, number=1)
    assert not ChangeRequest.objects.filter(game=game).exists()
    for confirmation, in_event in ((Confirmation.OTHER_SIDE, False), (Confirmation.OFF, True)):
        other = new_game(confirmation=confirmation, is_tournament_game=in_event)
        assert may_hold_change_requests(other)


def test_a_request_the_game_moved_past_lapses_and_says_so():
    game = confirmed_roolz()
    asked = change_request_open(game=game, kind="undo", actor=ANN, number=2)
    round_record(game=game, number=3, entry=roolz_round(), actor=BEN)
    with pytest.raises(GameChangeError, match=r"nothing was done.*only the last round"):
        change_request_accept(game=game, request_id=asked.request.pk, actor=BEN)
    asked.request.refresh_from_db()
    assert asked.request.status == ChangeRequest.Status.LAPSED
    assert game.rounds.count() == 3
    assert open_change_request(game) is None


def test_any_other_seat_may_agree_except_the_asker():
    game = new_game(confirmation=Confirmation.ANY_OTHER_SEAT)
    round_record(game=game, number=1, entry=roolz_round(), actor=ANN)
    round_confirm(game=game, number=1, actor=CAT)
    asked = change_request_open(game=game, kind="undo", actor=ANN)
    with pytest.raises(GameChangeError, match="not the one who asked"):
        change_request_accept(game=game, request_id=asked.request.pk, actor=ANN)
    change_request_accept(game=game, request_id=asked.request.pk, actor=CAT)
    assert not game.rounds.exists()


# --------------------------------------------------------------------------- end and reopen


def test_ending_early_and_reopening_wait_for_the_other_side():
    game = derby()
    asked = change_request_open(
        game=game, kind="end", actor=ANN, ending={"ended_early": True}
    ).request
    game.refresh_from_db()
    assert game.ending == {}
    change_request_accept(game=game, request_id=asked.pk, actor=BEN)
    game.refresh_from_db()
    assert game.ending == {"ended_early": True} and game.status == Game.Status.FINISHED
    end = game.events.get(action=RoundEvent.Action.END)
    assert end.seat == 0

    reopen = change_request_open(game=game, kind="reopen", actor=BEN).request
    with pytest.raises(GameChangeError, match="another side"):
        change_request_accept(game=game, request_id=reopen.pk, actor=DAN)
    change_request_accept(game=game, request_id=reopen.pk, actor=CAT)
    game.refresh_from_db()
    assert game.ending == {}
    assert latest_table_news(game).action == RoundEvent.Action.REOPEN


def test_every_request_bumps_the_revision_so_the_table_sees_it():
    game = derby()
    revisions = [game.revision]
    asked = change_request_open(game=game, kind="end", actor=ANN, ending={"ended_early": True})
    game.refresh_from_db()
    revisions.append(game.revision)
    change_request_decline(game=game, request_id=asked.request.pk, actor=BEN)
    game.refresh_from_db()
    revisions.append(game.revision)
    assert revisions == sorted(set(revisions))


# --------------------------------------------------------------------------- was / now


def test_a_correction_keeps_what_the_round_was():
    game = confirmed_roolz(1)
    assert correction_before(game, 1) is None
    round_correct(game=game, number=1, entry=roolz_round(a=220), actor=ANN)
    assert correction_before(game, 1) == roolz_round()
    round_correct(game=game, number=1, entry=roolz_round(a=250), actor=ANN)
    assert correction_before(game, 1) == roolz_round(a=220)  # the latest correction's "was"


# --------------------------------------------------------------------------- rematch


def finished_derby(confirmation: str = Confirmation.OFF) -> Game:
    game = derby(confirmation)
    game_end(game=game, ending={"ended_early": True}, actor=ANN)
    game.refresh_from_db()
    return game


def test_a_rematch_is_the_same_table_with_the_next_dealer():
    old = finished_derby(Confirmation.OTHER_SIDE)
    result = game_rematch(game=old, actor=BEN)
    new = result.game
    assert new.pk != old.pk and new.rematch_of_id == old.pk
    assert list(new.seats.values_list("name", "team")) == list(
        old.seats.values_list("name", "team")
    )
    assert (new.kind, new.options, new.confirmation) == (old.kind, old.options, old.confirmation)
    assert new.first_dealer == (old.first_dealer + 1) % 4
    assert not new.rounds.exists() and new.status == Game.Status.IN_PROGRESS
    assert actions(old)[-1] == RoundEvent.Action.REMATCH


def test_two_phones_asking_for_a_rematch_land_in_one_game():
    old = finished_derby()
    first = game_rematch(game=old, actor=ANN)
    second = game_rematch(game=old, actor=BEN)
    assert second.replayed and second.game.pk == first.game.pk
    assert Game.objects.filter(rematch_of=old).count() == 1


def test_a_rematch_waits_for_the_end_and_is_not_for_tournament_games():
    game = new_game()
    with pytest.raises(GameChangeError, match="not over yet"):
        game_rematch(game=game, actor=ANN)
    event = game_create(record=DERBY, is_tournament_game=True).game
    with pytest.raises(GameChangeError, match="tournament"):
        game_rematch(game=event, actor=ANN)


@settings(max_examples=15, deadline=None)
@given(first_dealer=st.integers(min_value=0, max_value=3), times=st.integers(1, 4))
def test_rematches_pass_the_first_deal_round_the_table(first_dealer, times):
    game = game_create(record={**DERBY, "first_dealer": first_dealer}).game
    for _ in range(times):
        for number, entry in enumerate(DERBY_ROUNDS, start=1):
            round_record(game=game, number=number, entry=entry, actor=ANN)
        game_end(game=game, ending={"ended_early": True}, actor=ANN)
        game = game_rematch(game=game, actor=ANN).game
    assert game.first_dealer == (first_dealer + times) % 4


def test_recent_tables_are_distinct_and_newest_first():
    a = new_game()
    b = game_create(record=DERBY).game
    c = new_game()  # the same table as a
    d = new_game({**ROOLZ_FOUR, "players": ["Eve", "Fay", "Gus", "Hal"]})
    tables = recent_tables([c.table_token, b.table_token, a.table_token, d.table_token, "gone"])
    assert [(t.kind, t.players[0]) for t in tables] == [
        ("roolz", "Ann"),
        ("roller_derby", "Ann"),
        ("roolz", "Eve"),
    ]
    assert not Round.objects.exists()


def test_the_history_says_what_each_request_was_and_how_it_ended():
    from scoring.web.presenters import audit_rows, seat_infos

    game = confirmed_roolz()
    declined = change_request_open(game=game, kind="undo", actor=ANN)
    change_request_decline(game=game, request_id=declined.request.pk, actor=DAN)
    withdrawn = change_request_open(game=game, kind="undo", actor=ANN)
    change_request_decline(game=game, request_id=withdrawn.request.pk, actor=ANN)
    rows = [
        (row.action, row.who, row.text)
        for row in audit_rows(game, seat_infos(game))
        if row.action.startswith("Change")
    ]
    assert rows == [
        ("Change asked for", "Ann", "undoing a round"),
        ("Change declined", "Dan", "undoing a round"),
        ("Change asked for", "Ann", "undoing a round"),
        ("Change declined", "Ann", "undoing a round: taken back"),
    ]
