"""The event desk's word on a table's result: a deal removed (the last one undone), the game
ended at the totals standing, a correction that changes how the game ended made with the
later deals removed. Each with a reason, audited, made against a revision."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engines.base import AT_TOTALS, GameRecord, through_deal, without_deal
from scoring.engines.registry import ENGINES
from scoring.models import ChangeRequest, Round, RoundEvent
from scoring.selectors import game_record, game_score
from scoring.services import (
    Actor,
    GameChangeError,
    LaterDealsBreak,
    StaleRevision,
    desk_request_open,
    game_create,
    game_end_at_totals,
    round_correct,
    round_record,
    round_remove,
)
from tests.scoring.factories import ROOLZ_FOUR, new_game, roolz_round

pytestmark = pytest.mark.django_db

DESK = Actor(device="director's desk", desk=True)
ANN = Actor(seat=0, device="phone-ann")
NORMAL = {"dice": [3, 4], "tricks": 7}
B_ALL_OR_NOTHING = {"dice": [3, 4], "all_or_nothing": True, "made": False}
A_ALL_OR_NOTHING = {"dice": [3, 4], "all_or_nothing": True, "made": True}


def derby(rounds: list[dict]) -> object:
    """Roller Derby: 4 deals; all or nothing once per team (team B rolls deals 1 and 3...)."""
    game = game_create(
        record={"game": "roller_derby", "players": ["Ann", "Ben", "Cat", "Dan"]}
    ).game
    for number, entry in enumerate(rounds, start=1):
        round_record(game=game, number=number, entry=entry, actor=Actor(seat=0))
    game.refresh_from_db()
    return game


def roolz(rounds: list[dict], target: int | None = None) -> object:
    record = {**ROOLZ_FOUR, "options": {"target": target}} if target else ROOLZ_FOUR
    game = new_game(record)
    for number, entry in enumerate(rounds, start=1):
        round_record(game=game, number=number, entry=entry, actor=ANN)
    game.refresh_from_db()
    return game


def rescored(game) -> dict:
    """The game scored from its rounds as stored, by the engine alone."""
    return ENGINES[game.kind].score(game_record(game)).standing()


# --------------------------------------------------------------------------- removing


def test_undo_the_last_deal_with_a_reason_audited():
    game = roolz([roolz_round(a=190), roolz_round(a=250), roolz_round(bidder=1, a=100)])
    result = round_remove(
        game=game, number=3, actor=DESK, reason="  entered twice  ", revision=game.revision
    )
    assert [r.number for r in game.rounds.order_by("number")] == [1, 2]
    game.refresh_from_db()
    assert game.score_cache == rescored(game)
    assert result.score["totals"] == game.score_cache["totals"]
    event = game.events.get(action=RoundEvent.Action.UNDO)
    assert event.reason == "entered twice" and event.round_number == 3
    assert event.before["entry"] == roolz_round(bidder=1, a=100)


def test_remove_any_deal_moves_the_later_ones_up_and_rescores():
    deals = [roolz_round(a=190), roolz_round(a=250), roolz_round(bidder=1, a=100)]
    game = roolz(deals)
    round_remove(game=game, number=1, actor=DESK, reason="not played", revision=game.revision)
    rows = list(game.rounds.order_by("number"))
    assert [(r.number, r.entry) for r in rows] == [(1, deals[1]), (2, deals[2])]
    game.refresh_from_db()
    assert game.last_round_number == 2
    assert game.score_cache == rescored(game)
    assert [r.result["totals"] for r in rows] == [
        r["totals"] for r in ENGINES["roolz"].score(game_record(game)).as_dict()["rounds"]
    ]
    event = game.events.get(action=RoundEvent.Action.REMOVE)
    assert (event.round_number, event.reason) == (1, "not played")
    assert event.after["removed"] == [1]


def test_removing_a_deal_of_a_finished_game_lets_it_go_on():
    game = roolz([roolz_round(a=190), roolz_round(bidder=1, bid=185, a=65)], target=300)
    assert game_score(game).finished
    round_remove(game=game, number=2, actor=DESK, reason="wrong table", revision=game.revision)
    game.refresh_from_db()
    assert game.status == "in_progress" and not game.ending


def test_a_removal_that_breaks_a_later_deal_offers_its_choices():
    # Teams take turns to roll: B, A, B, A. Deal 2 gone, deal 4's all or nothing falls to
    # team B, who played theirs in deal 1.
    game = derby([B_ALL_OR_NOTHING, NORMAL, NORMAL, B_ALL_OR_NOTHING])
    with pytest.raises(LaterDealsBreak) as raised:
        round_remove(game=game, number=2, actor=DESK, reason="x", revision=game.revision)
    broken = raised.value
    assert broken.removing and (broken.kept, broken.later, broken.ends) == (1, 4, False)
    assert "deal 4 invalid" in broken.problems[0].message
    assert "round" not in broken.problems[0].message
    assert game.rounds.count() == 4  # nothing done
    round_remove(game=game, number=2, actor=DESK, reason="x", revision=game.revision, later="undo")
    game.refresh_from_db()
    assert [r.number for r in game.rounds.all()] == [1] and game.status == "in_progress"
    event = game.events.get(action=RoundEvent.Action.REMOVE)
    assert event.after["removed"] == [2, 3, 4]


def test_only_the_desk_removes_and_says_why():
    game = roolz([roolz_round()])
    with pytest.raises(GameChangeError) as raised:
        round_remove(game=game, number=1, actor=ANN, reason="x", revision=game.revision)
    assert raised.value.problems[0].field == "table"
    with pytest.raises(GameChangeError) as raised:
        round_remove(game=game, number=1, actor=DESK, reason="   ", revision=game.revision)
    assert raised.value.problems[0].field == "reason"
    with pytest.raises(GameChangeError) as raised:
        round_remove(game=game, number=1, actor=DESK, reason="x" * 501, revision=game.revision)
    assert raised.value.problems[0].field == "reason"
    with pytest.raises(GameChangeError) as raised:
        round_remove(game=game, number=4, actor=DESK, reason="x", revision=game.revision)
    assert raised.value.problems[0].field == "number"
    assert "deal 4" in raised.value.problems[0].message
    assert game.rounds.count() == 1


def test_a_stale_removal_is_refused_never_applied():
    game = roolz([roolz_round(), roolz_round(a=250)])
    opened = game.revision
    round_record(game=game, number=3, entry=roolz_round(a=200), actor=ANN)
    with pytest.raises(StaleRevision):
        round_remove(game=game, number=3, actor=DESK, reason="x", revision=opened)
    assert game.rounds.count() == 3
    assert not game.events.filter(action__in=["undo", "remove"]).exists()


# --------------------------------------------------------------------------- ending


def test_end_at_the_totals_standing_the_best_total_wins():
    game = roolz([roolz_round(a=190), roolz_round(bidder=1, a=100)])
    result = game_end_at_totals(game=game, actor=DESK, reason="time called", revision=game.revision)
    game.refresh_from_db()
    assert game.status == "finished" and game.ending == {AT_TOTALS: True}
    assert result.score["finished"] is True
    totals = result.score["totals"]
    assert result.score["winners"] == [s for s, t in enumerate(totals) if t == max(totals)]
    event = game.events.get(action=RoundEvent.Action.END)
    assert event.reason == "time called" and event.after == {AT_TOTALS: True}
    # The record says so, and reads back the same.
    record = game_record(game)
    assert record.extras == {AT_TOTALS: True}
    assert ENGINES["roolz"].score(record).finished


def test_end_at_totals_confirms_waiting_deals_and_refuses_a_game_over():
    game = new_game(confirmation="other_side")
    round_record(game=game, number=1, entry=roolz_round(), actor=ANN)
    assert game.rounds.get().status == Round.Status.PENDING
    game.refresh_from_db()
    game_end_at_totals(game=game, actor=DESK, reason="table left", revision=game.revision)
    assert game.rounds.get().status == Round.Status.CONFIRMED
    game.refresh_from_db()
    with pytest.raises(GameChangeError) as raised:
        game_end_at_totals(game=game, actor=DESK, reason="again", revision=game.revision)
    assert raised.value.problems[0].field == "end"
    with pytest.raises(GameChangeError) as raised:
        game_end_at_totals(game=new_game(), actor=DESK, reason="", revision=None)
    assert raised.value.problems[0].field == "reason"


def test_a_stale_ending_is_refused():
    game = roolz([roolz_round()])
    with pytest.raises(StaleRevision):
        game_end_at_totals(game=game, actor=DESK, reason="x", revision=game.revision - 1)
    game.refresh_from_db()
    assert not game.ending


def test_undoing_the_last_deal_of_a_game_ended_at_the_totals_lets_it_go_on():
    game = roolz([roolz_round(a=190), roolz_round(a=250)])
    game_end_at_totals(game=game, actor=DESK, reason="time", revision=game.revision)
    game.refresh_from_db()
    round_remove(
        game=game, number=2, actor=DESK, reason="deal 2 never ended", revision=game.revision
    )
    game.refresh_from_db()
    assert not game.ending and game.status == "in_progress"


# --------------------------------------------------------------------------- corrections


def test_a_correction_that_ends_the_game_earlier_offers_to_end_there():
    game = roolz([roolz_round(a=190), roolz_round(bidder=1, bid=185, a=65)], target=300)
    all_300 = {"bidder": 0, "bid": 300, "won": {"A": 300, "B": 0}, "all_tricks": "A"}
    with pytest.raises(LaterDealsBreak) as raised:
        round_correct(game=game, number=1, entry=all_300, actor=DESK, revision=game.revision)
    broken = raised.value
    assert (broken.kept, broken.later, broken.ends) == (1, 2, True)
    message = broken.problems[0].message
    assert "deal 2 invalid" in message and "round" not in message
    assert game.rounds.count() == 2
    round_correct(
        game=game,
        number=1,
        entry=all_300,
        actor=DESK,
        revision=game.revision,
        later="end",
        reason="all tricks to A",
    )
    game.refresh_from_db()
    assert game.rounds.count() == 1 and game.status == "finished"
    assert game.ending == {}  # it ends there by itself
    event = game.events.get(action=RoundEvent.Action.CORRECT)
    assert event.reason == "all tricks to A" and event.after == all_300
    removal = game.events.get(action=RoundEvent.Action.REMOVE)
    assert removal.reason == "all tricks to A" and removal.after["removed"] == [2]


def test_a_correction_that_breaks_a_later_deal_may_end_there_at_the_totals():
    game = derby([NORMAL, NORMAL, B_ALL_OR_NOTHING])
    with pytest.raises(LaterDealsBreak) as raised:
        round_correct(
            game=game, number=1, entry=A_ALL_OR_NOTHING, actor=DESK, revision=game.revision
        )
    assert (raised.value.kept, raised.value.later, raised.value.ends) == (1, 3, False)
    round_correct(
        game=game,
        number=1,
        entry=A_ALL_OR_NOTHING,
        actor=DESK,
        revision=game.revision,
        later="end",
        reason="the scoresheet",
    )
    game.refresh_from_db()
    assert [r.number for r in game.rounds.all()] == [1]
    assert game.ending == {AT_TOTALS: True} and game.status == "finished"
    assert game.score_cache == rescored(game)


def test_a_correction_that_breaks_a_later_deal_may_undo_the_later_deals():
    game = derby([NORMAL, NORMAL, B_ALL_OR_NOTHING])
    round_correct(
        game=game,
        number=1,
        entry=A_ALL_OR_NOTHING,
        actor=DESK,
        revision=game.revision,
        later="undo",
        reason="the scoresheet",
    )
    game.refresh_from_db()
    assert [r.number for r in game.rounds.all()] == [1]
    assert game.ending == {} and game.status == "in_progress"
    # The table plays on from deal 2.
    round_record(game=game, number=2, entry=NORMAL, actor=Actor(seat=0))


def test_only_the_desk_chooses_what_becomes_of_the_later_deals():
    game = derby([NORMAL, NORMAL, B_ALL_OR_NOTHING])
    with pytest.raises(GameChangeError):
        round_correct(game=game, number=1, entry=A_ALL_OR_NOTHING, actor=ANN, later="undo")
    assert game.rounds.count() == 3


# --------------------------------------------------------------------------- a table's why


def test_a_request_to_the_desk_keeps_its_optional_why():
    game = roolz([roolz_round(a=190), roolz_round(bidder=1, bid=185, a=65)], target=300)
    game.is_tournament_game = True
    game.save()
    asked = desk_request_open(
        game=game,
        kind="undo",
        actor=Actor(seat=1, device="phone"),
        revision=game.revision,
        why="  we entered   it twice ",
    ).request
    assert ChangeRequest.objects.get(pk=asked.pk).why == "we entered it twice"
    assert game.events.get(action=RoundEvent.Action.REQUEST).reason == "we entered it twice"
    with pytest.raises(GameChangeError) as raised:
        desk_request_open(
            game=game, kind="reopen", actor=Actor(seat=1), revision=None, why="x" * 501
        )
    assert raised.value.problems[0].field == "why"


# --------------------------------------------------------------------------- invariants

DEALS = st.lists(
    st.builds(
        roolz_round,
        bidder=st.integers(0, 3),
        bid=st.sampled_from([170, 200, 250]),
        a=st.integers(0, 30).map(lambda n: n * 10),
    ),
    min_size=1,
    max_size=6,
)


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(deals=DEALS, data=st.data())
def test_after_removing_any_deal_the_totals_are_the_rescore_of_the_rest(deals, data):
    game = roolz(deals, target=100_000)
    number = data.draw(st.integers(1, len(deals)))
    round_remove(game=game, number=number, actor=DESK, reason="r", revision=game.revision)
    game.refresh_from_db()
    rest = deals[: number - 1] + deals[number:]
    assert [r.entry for r in game.rounds.order_by("number")] == rest
    expected = ENGINES["roolz"].score(
        GameRecord(
            game="roolz",
            players=("Ann", "Ben", "Cat", "Dan"),
            options={"target": 100_000},
            rounds=tuple(rest),
            first_dealer=0,
        )
    )
    assert game.score_cache["totals"] == expected.totals
    assert game_score(game).totals == expected.totals
    assert game.last_round_number == len(rest)


@given(deals=DEALS, data=st.data())
def test_without_and_through_a_deal_keep_the_others_in_order(deals, data):
    record = GameRecord(
        game="roolz",
        players=("A", "B", "C", "D"),
        options={"target": 100_000},
        rounds=tuple(deals),
        extras={AT_TOTALS: True},
    )
    number = data.draw(st.integers(1, len(deals)))
    assert list(without_deal(record, number).rounds) == deals[: number - 1] + deals[number:]
    assert list(through_deal(record, number).rounds) == deals[:number]
    assert without_deal(record, number).extras == {} == through_deal(record, number).extras
    # Ended at the totals: finished, and the best total wins.
    scored = ENGINES["roolz"].score(record.with_extras({AT_TOTALS: True}))
    assert scored.finished
    assert all(scored.totals[s] == max(scored.totals) for s in scored.winners)
