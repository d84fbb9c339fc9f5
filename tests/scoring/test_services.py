"""Services: every change atomic, checked by the engine, and written to the audit trail."""

from __future__ import annotations

import pytest

from scoring.engines.registry import score_data
from scoring.models import Round, RoundEvent
from scoring.selectors import confirmed_score, game_record_dict, game_score
from scoring.services import (
    Actor,
    GameChangeError,
    IdempotencyKeyReused,
    NotTheNextRound,
    RoundConflict,
    SeatNotSaid,
    game_create,
    game_end,
    game_import,
    game_reopen,
    game_start_again,
    misdeal_record,
    round_confirm,
    round_correct,
    round_record,
    round_save,
    round_undo,
)
from tests.scoring.factories import ROOLZ_FOUR, new_game, roolz_round
from tests.vectors import vector_cases

pytestmark = pytest.mark.django_db

ANN = Actor(seat=0, device="phone-ann")
BEN = Actor(seat=1, device="phone-ben")
CAT = Actor(seat=2, device="phone-cat")


def test_create_stores_seats_teams_and_a_secret_token():
    game = new_game()
    seats = list(game.seats.values_list("number", "name", "team"))
    assert seats == [(0, "Ann", "A"), (1, "Ben", "B"), (2, "Cat", "A"), (3, "Dan", "B")]
    assert len(game.table_token) >= 43  # 256 bits, url-safe
    assert new_game().table_token != game.table_token
    event = game.events.get()
    assert event.action == RoundEvent.Action.CREATE
    assert event.after["players"] == ["Ann", "Ben", "Cat", "Dan"]


def test_create_refuses_an_invalid_record_and_stores_nothing():
    with pytest.raises(GameChangeError) as raised:
        game_create(
            record={**ROOLZ_FOUR, "players": ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]}
        )
    assert raised.value.problems[0].field == "players"
    from scoring.models import Game

    assert not Game.objects.exists()


def test_record_round_scores_and_audits():
    game = new_game()
    result = round_record(game=game, number=1, entry=roolz_round(a=190), actor=ANN)
    assert result.score["totals"] == [-200, 110, -200, 110]
    round_ = game.rounds.get()
    assert (round_.entered_by_seat, round_.entered_by_device) == (0, "phone-ann")
    assert round_.status == Round.Status.CONFIRMED  # casual games: confirmation off
    event = game.events.filter(action=RoundEvent.Action.RECORD).get()
    assert (event.round_number, event.seat, event.after) == (1, 0, roolz_round(a=190))


def test_invalid_round_names_round_and_field_and_loses_nothing():
    game = new_game()
    round_record(game=game, number=1, entry=roolz_round(), actor=ANN)
    with pytest.raises(GameChangeError) as raised:
        round_record(
            game=game,
            number=2,
            entry={"bidder": 1, "bid": 172, "won": {"A": 150, "B": 150}},
            actor=ANN,
        )
    problem = raised.value.problems[0]
    assert (problem.round, problem.field) == (2, "bid")
    assert "172" in problem.message
    assert list(game.rounds.values_list("number", flat=True)) == [1]


def test_round_numbers_must_follow_on():
    game = new_game()
    with pytest.raises(GameChangeError, match="the next deal is deal 1"):
        round_record(game=game, number=3, entry=roolz_round(), actor=ANN)


def test_the_next_round_is_said_in_the_games_word_for_a_round():
    """Rummoli plays hands, Roolz deals: the refusal names the next one so."""
    hands = new_game({"game": "rummoli", "players": ["Ann", "Ben", "Cat"]})
    with pytest.raises(NotTheNextRound) as raised:
        round_save(game=hands, number=2, entry=None, actor=ANN, before=game_score(hands))
    problem = raised.value.problems[0]
    assert (problem.message, problem.field) == ("the next hand is hand 1", "number")


@pytest.mark.parametrize("number", [0, -1, 3, 99])
def test_a_round_that_is_not_the_next_is_refused_with_the_next_number(number):
    game = new_game()
    round_record(game=game, number=1, entry=roolz_round(), actor=ANN)
    game.refresh_from_db()
    before = game_score(game)
    with pytest.raises(NotTheNextRound) as raised:
        round_save(game=game, number=number, entry=roolz_round(), actor=ANN, before=before)
    assert raised.value.expected == 2
    assert raised.value.problems[0].message == "the next deal is deal 2"
    # The same refusal when the form could not be read, and for a misdeal.
    with pytest.raises(NotTheNextRound):
        round_save(game=game, number=number, entry=None, actor=ANN, before=before)
    with pytest.raises(NotTheNextRound):
        round_save(game=game, number=number, entry=None, actor=ANN, before=before, misdeal=True)
    assert list(game.rounds.values_list("number", flat=True)) == [1]


def test_with_confirmation_on_a_round_saved_by_no_seat_is_refused():
    game = new_game(confirmation="other_side")
    before = game_score(game)
    nobody = Actor(device="phone")
    for entry in (roolz_round(), None):
        with pytest.raises(SeatNotSaid) as raised:
            round_save(game=game, number=1, entry=entry, actor=nobody, before=before)
        problem = raised.value.problems[0]
        assert problem.field == "seat"
        assert problem.message.endswith("a player of another side confirms what you enter")
    assert not game.rounds.exists()
    saved = round_save(game=game, number=1, entry=roolz_round(), actor=ANN, before=before)
    assert saved is not None and saved.alone
    game.refresh_from_db()
    assert saved.score == game_score(game)


def test_a_form_that_could_not_be_read_saves_nothing():
    game = new_game()
    assert round_save(game=game, number=1, entry=None, actor=ANN, before=game_score(game)) is None
    assert not game.rounds.exists()


def test_the_score_after_a_round_saved_behind_another_is_read_again():
    game = new_game()
    before = game_score(game)
    round_record(game=game, number=1, entry=roolz_round(a=190), actor=BEN)
    saved = round_save(game=game, number=2, entry=roolz_round(bidder=1), actor=ANN, before=before)
    assert saved is not None and not saved.alone
    assert len(saved.score.rounds) == 2
    assert saved.score == game_score(saved.change.game)


def test_a_table_started_again_keeps_its_players_options_and_confirmation():
    game = new_game(confirmation="other_side")
    round_record(game=game, number=1, entry=roolz_round(), actor=ANN)
    game.refresh_from_db()
    revision = game.revision
    again = game_start_again(game=game, actor=BEN).game
    record = game_record_dict(again)
    assert record["players"] == game_record_dict(game)["players"]
    assert (again.kind, again.options, again.confirmation) == (
        game.kind,
        game.options,
        "other_side",
    )
    assert again.first_dealer == (game.first_dealer + 1) % 4
    assert not again.rounds.exists() and again.rematch_of_id is None
    game.refresh_from_db()
    assert game.revision == revision  # the old game is left as it is


def test_second_entry_for_a_number_is_a_conflict_showing_the_first():
    game = new_game()
    round_record(game=game, number=1, entry=roolz_round(a=190), actor=ANN)
    with pytest.raises(RoundConflict) as raised:
        round_record(game=game, number=1, entry=roolz_round(a=250), actor=BEN)
    assert raised.value.recorded.entry == roolz_round(a=190)
    assert game.rounds.count() == 1


def test_retry_with_the_same_key_replays_the_first_answer():
    game = new_game()
    first = round_record(game=game, number=1, entry=roolz_round(), actor=ANN, idempotency_key="k-1")
    again = round_record(game=game, number=1, entry=roolz_round(), actor=ANN, idempotency_key="k-1")
    assert again.replayed and not first.replayed
    assert again.score == first.score
    assert game.rounds.count() == 1
    assert game.events.filter(action=RoundEvent.Action.RECORD).count() == 1
    with pytest.raises(IdempotencyKeyReused):
        round_record(
            game=game, number=2, entry=roolz_round(bidder=1), actor=ANN, idempotency_key="k-1"
        )


def test_a_replay_survives_later_rounds():
    game = new_game()
    first = round_record(game=game, number=1, entry=roolz_round(), actor=ANN, idempotency_key="k-1")
    round_record(game=game, number=2, entry=roolz_round(bidder=1), actor=BEN, idempotency_key="k-2")
    again = round_record(game=game, number=1, entry=roolz_round(), actor=ANN, idempotency_key="k-1")
    assert again.score == first.score
    assert game.rounds.count() == 2


def test_a_retry_of_the_round_that_ended_the_game_replays_it():
    """The game has ended since the first answer: the retry is answered as before, not
    refused for the game being over."""
    game = new_game({**ROOLZ_FOUR, "options": {"target": 300}})
    round_record(game=game, number=1, entry=roolz_round(a=250), actor=ANN)
    first = round_record(
        game=game, number=2, entry=roolz_round(a=250), actor=ANN, idempotency_key="k-2"
    )
    game.refresh_from_db()
    assert game.status == game.Status.FINISHED
    again = round_record(
        game=game, number=2, entry=roolz_round(a=250), actor=ANN, idempotency_key="k-2"
    )
    assert again.replayed and again.score == first.score
    with pytest.raises(GameChangeError, match="already ended"):
        round_record(game=game, number=3, entry=roolz_round(), actor=ANN, idempotency_key="k-3")
    assert game.rounds.count() == 2


@pytest.mark.parametrize(
    ("confirmation", "confirmer", "allowed"),
    [
        ("any_other_seat", ANN, False),
        ("any_other_seat", CAT, True),
        ("other_side", CAT, False),  # Cat is Ann's partner
        ("other_side", BEN, True),
    ],
)
def test_confirmation_rules(confirmation, confirmer, allowed):
    game = new_game(confirmation=confirmation)
    round_record(game=game, number=1, entry=roolz_round(), actor=ANN)
    assert game.rounds.get().status == Round.Status.PENDING
    if allowed:
        round_confirm(game=game, number=1, actor=confirmer)
        round_ = game.rounds.get()
        assert (round_.status, round_.confirmed_by_seat) == (Round.Status.CONFIRMED, confirmer.seat)
        assert game.events.filter(action=RoundEvent.Action.CONFIRM, seat=confirmer.seat).exists()
    else:
        with pytest.raises(GameChangeError) as raised:
            round_confirm(game=game, number=1, actor=confirmer)
        assert raised.value.problems[0].field == "seat"
        assert game.rounds.get().status == Round.Status.PENDING


def test_tournament_games_default_to_confirmation_by_the_other_side():
    game = new_game(is_tournament_game=True)
    assert game.confirmation == "other_side"
    assert new_game().confirmation == "off"


def test_pending_rounds_count_at_the_table_but_not_in_confirmed_standings():
    game = new_game(confirmation="other_side")
    round_record(game=game, number=1, entry=roolz_round(a=190), actor=ANN)
    round_confirm(game=game, number=1, actor=BEN)
    round_record(game=game, number=2, entry=roolz_round(bidder=1, bid=185, a=65), actor=BEN)
    game.refresh_from_db()
    assert game_score(game).totals == [-135, 345, -135, 345]
    assert confirmed_score(game).totals == [-200, 110, -200, 110]


def test_correction_rescores_and_keeps_before_and_after():
    game = new_game()
    round_record(game=game, number=1, entry=roolz_round(a=190), actor=ANN)
    round_record(game=game, number=2, entry=roolz_round(bidder=1, bid=185, a=65), actor=BEN)
    result = round_correct(game=game, number=1, entry=roolz_round(a=210), actor=BEN)
    assert result.score["totals"] == [210 + 65, 90 + 235, 210 + 65, 90 + 235]
    assert game.rounds.get(number=1).corrected
    event = game.events.get(action=RoundEvent.Action.CORRECT)
    assert (event.before, event.after, event.seat) == (roolz_round(a=190), roolz_round(a=210), 1)


def test_correction_that_breaks_a_later_round_is_refused_naming_it():
    record = {**ROOLZ_FOUR, "options": {"target": 300}}
    game = new_game(record)
    round_record(game=game, number=1, entry=roolz_round(a=190), actor=ANN)
    round_record(game=game, number=2, entry=roolz_round(bidder=1, bid=185, a=65), actor=BEN)
    # Made this big, round 1 would end the game at 300 and round 2 could not have been played.
    with pytest.raises(GameChangeError) as raised:
        round_correct(
            game=game,
            number=1,
            entry={"bidder": 0, "bid": 300, "won": {"A": 300, "B": 0}, "all_tricks": "A"},
            actor=ANN,
        )
    assert "deal 2" in raised.value.problems[0].message
    assert game.rounds.get(number=1).entry == roolz_round(a=190)


def test_correction_makes_a_confirmed_round_pending_again():
    game = new_game(confirmation="other_side")
    round_record(game=game, number=1, entry=roolz_round(), actor=ANN)
    round_confirm(game=game, number=1, actor=BEN)
    round_correct(game=game, number=1, entry=roolz_round(a=250), actor=ANN)
    assert game.rounds.get().status == Round.Status.PENDING


def test_undo_removes_only_the_last_round():
    game = new_game()
    round_record(game=game, number=1, entry=roolz_round(), actor=ANN)
    round_record(game=game, number=2, entry=roolz_round(bidder=1), actor=ANN)
    with pytest.raises(GameChangeError, match="only the last round"):
        round_undo(game=game, number=1, actor=ANN)
    result = round_undo(game=game, number=2, actor=ANN)
    assert result.score["totals"] == [-200, 110, -200, 110]
    assert list(game.rounds.values_list("number", flat=True)) == [1]
    assert game.events.get(action=RoundEvent.Action.UNDO).before == roolz_round(bidder=1)


def test_misdeal_keeps_the_dealer():
    game = new_game()
    result = misdeal_record(game=game, number=1, actor=ANN)
    assert result.round is not None and result.round["deltas"] == [0, 0, 0, 0]
    assert result.score["next"]["dealer"] == 0
    derby = new_game(
        dict(vector_cases("roller_derby"))["roller_derby: seed targets and tricks"]["record"]
        | {"rounds": []}
    )
    with pytest.raises(GameChangeError, match="no misdeals"):
        misdeal_record(game=derby, number=1, actor=ANN)


def test_roller_derby_early_finish_and_rummoli_leftovers():
    derby_case = dict(vector_cases("roller_derby"))[
        "roller_derby: all or nothing and an early finish"
    ]
    record = {k: v for k, v in derby_case["record"].items() if k != "ended_early"}
    game = game_import(record=record).game
    assert game_score(game).extras["can_end_early"] is True
    result = game_end(game=game, ending={"ended_early": True}, actor=BEN)
    assert result.score["finished"] and result.score["winners"] == derby_case["output"]["winners"]
    with pytest.raises(GameChangeError):
        round_record(
            game=game,
            number=len(record["rounds"]) + 1,
            entry={"dice": [3, 4], "tricks": 7},
            actor=ANN,
        )

    rummoli_case = dict(vector_cases("rummoli"))["rummoli: two hands and leftovers"]
    record = {k: v for k, v in rummoli_case["record"].items() if k != "end"}
    game = game_import(record=record).game
    with pytest.raises(GameChangeError):
        game_end(game=game, ending={"end": {"leftovers_to": 9}}, actor=ANN)
    result = game_end(game=game, ending={"end": {"leftovers_to": 3}}, actor=ANN)
    assert result.score["totals"] == rummoli_case["output"]["totals"]
    assert game.events.get(action=RoundEvent.Action.END).after == {"end": {"leftovers_to": 3}}


@pytest.mark.parametrize(
    ("case_id", "case"),
    [c for c in vector_cases() if not c[1].get("invalid")],
    ids=lambda c: c if isinstance(c, str) else "",
)
def test_import_export_round_trip_scores_identically(case_id, case):
    game = game_import(record=case["record"]).game
    game.refresh_from_db()
    exported = game_record_dict(game)
    assert score_data(exported).as_dict() == score_data(case["record"]).as_dict()
    assert game_score(game).as_dict() == score_data(case["record"]).as_dict()


def test_audit_trail_is_append_only():
    game = new_game()
    event = game.events.get()
    event.action = "undo"
    with pytest.raises(ValueError, match="append-only"):
        event.save()
    with pytest.raises(ValueError, match="append-only"):
        event.delete()


def test_an_ending_can_be_taken_back_and_the_game_goes_on():
    case = dict(vector_cases("roller_derby"))["roller_derby: all or nothing and an early finish"]
    record = {k: v for k, v in case["record"].items() if k != "ended_early"}
    game = game_import(record=record).game
    game_end(game=game, ending={"ended_early": True}, actor=BEN)
    with pytest.raises(GameChangeError):
        round_record(game=game, number=4, entry={"dice": [3, 4], "tricks": 7}, actor=ANN)
    reopened = game_reopen(game=game, actor=BEN)
    assert reopened.score["finished"] is False
    assert reopened.game.ending == {}
    round_record(game=game, number=4, entry={"dice": [3, 4], "tricks": 7}, actor=ANN)
    event = game.events.get(action=RoundEvent.Action.REOPEN)
    assert (event.before, event.seat) == ({"ended_early": True}, 1)
    with pytest.raises(GameChangeError, match="not ended early"):
        game_reopen(game=game, actor=BEN)


FIVE = {"format": 1, "game": "roolz", "players": ["Ann", "Ben", "Cat", "Dan", "Eve"]}


@pytest.mark.parametrize(
    ("partners", "confirmer", "allowed"),
    [
        ([3], 3, False),  # Dan is Ann's called partner this round
        ([3], 1, True),
        ([], 1, True),  # a twofer: everyone else is on the other side
        ([2], 3, True),
    ],
)
def test_other_side_follows_each_rounds_sides_when_scores_are_individual(
    partners, confirmer, allowed
):
    game = new_game(FIVE, confirmation="other_side")
    entry = {
        "bidder": 0,
        "bid": 180,
        "partners": partners,
        "won": {"bidder": 200, "opponents": 100},
    }
    round_record(game=game, number=1, entry=entry, actor=ANN)
    if allowed:
        round_confirm(game=game, number=1, actor=Actor(seat=confirmer))
        assert game.rounds.get().status == Round.Status.CONFIRMED
    else:
        with pytest.raises(GameChangeError, match="another side"):
            round_confirm(game=game, number=1, actor=Actor(seat=confirmer))


def test_a_game_holds_at_most_500_rounds_so_its_export_imports_again():
    from scoring.engines.base import MAX_ROUNDS

    record = {**ROOLZ_FOUR, "rounds": [{"misdeal": True}] * MAX_ROUNDS}
    game = game_import(record=record).game
    with pytest.raises(GameChangeError, match="at most 500 rounds"):
        misdeal_record(game=game, number=MAX_ROUNDS + 1, actor=ANN)


def test_a_correction_records_who_made_it(django_user_model):
    user = django_user_model.objects.create(username="dir")
    game = new_game()
    round_record(game=game, number=1, entry=roolz_round(), actor=ANN)
    round_correct(game=game, number=1, entry=roolz_round(a=250), actor=Actor(seat=1, user=user))
    assert game.rounds.get().entered_by_user == user
