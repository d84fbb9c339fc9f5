"""The outer half of the one mechanism: a core's template and values said in the reader's
language (scoring.wording), the English kept for the cores, commands and logs."""

from __future__ import annotations

import pytest
from django.utils import translation

from common.phrases import N_, Phrase, Seat, Words
from scoring.engines.base import GameRecord, InvalidRecord, Problem
from scoring.engines.registry import ENGINES
from scoring.engines.rummoli import deal_phrase, deal_text
from scoring.wording import problem_dict, problem_text, said
from tournaments.brackets.core.layout import ordinal


def test_a_problem_is_english_for_the_core_and_french_for_a_french_reader():
    problem = Problem(
        N_("seat {seat} is listed twice in partners"), 3, "partners", {"seat": Seat(2)}
    )
    assert problem.message == "seat 2 is listed twice in partners"
    assert str(problem) == "round 3: seat 2 is listed twice in partners"
    with translation.override("fr-ca"):
        # A page counts seats from 1, the API from 0, as its data does.
        assert problem_text(problem, seats_from=1) == (
            "le siège 3 figure deux fois parmi les partenaires"
        )
        assert problem_dict(problem) == {
            "round": 3,
            "field": "partners",
            "message": "le siège 2 figure deux fois parmi les partenaires",
        }
    with translation.override("en"):
        assert problem_text(problem, seats_from=1) == "seat 3 is listed twice in partners"


def test_phrases_inside_a_problem_are_said_in_the_readers_language_too():
    side = Phrase(N_("team {label}"), {"label": "B"})
    problem = Problem(N_("won is missing the points of {who}"), 1, "won", {"who": side})
    assert problem.message == "won is missing the points of team B"
    with translation.override("fr-ca"):
        assert problem_text(problem) == "il manque les points gagnés par l'équipe B"


def test_a_nested_problem_said_of_deals_reads_deal_in_english():
    template, values = N_("the next round is round {expected}"), {"expected": 4}
    inner = Problem(template, 4, "number", values, of_deals=True)
    outer = Problem(
        N_("{what} no longer fits how the game ended: {problem}"),
        2,
        "number",
        {"what": Phrase(N_("this correction")), "problem": inner},
    )
    assert (
        outer.message
        == "this correction no longer fits how the game ended: the next deal is deal 4"
    )
    with translation.override("fr-ca"):
        assert problem_text(outer) == (
            "cette correction ne concorde plus avec la fin de la partie\u00a0: "
            "la prochaine donne est la donne 4"
        )


def test_a_message_not_moved_to_templates_stays_english_with_seats_from_one():
    legacy = Problem("seat 0 cannot bid twice", 1, "bid")
    with translation.override("fr-ca"):
        assert problem_text(legacy, seats_from=1) == "seat 1 cannot bid twice"


def test_words_are_english_text_and_said_in_french():
    title = Words(N_("Round {number}"), {"number": 2})
    assert title == "Round 2" and f"{title}" == "Round 2" and title.upper() == "ROUND 2"
    assert [str(ordinal(n)) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"
    ]  # fmt: skip
    with translation.override("fr-ca"):
        assert said(title) == "Tour 2"
        assert [said(ordinal(n)) for n in (1, 2, 21)] == ["1er", "2e", "21e"]
        assert said("Ann") == "Ann"  # a name is never looked up


def test_rummoli_says_its_deal_in_words_in_both_languages():
    assert deal_text(4) == str(deal_phrase(4))
    english = deal_text(5)
    assert english.startswith(("one ", "two ", "three ", "four ", "five ", "six "))
    with translation.override("fr-ca"):
        french = said(deal_phrase(5))
    assert "main" in french and "hand" not in french


def test_every_moved_engine_summary_is_in_the_catalogue():
    with translation.override("fr-ca"):
        for key in ENGINES:
            summary = ENGINES[key].summary
            assert translation.gettext(summary) != summary, key


SLUFF_PLAYERS = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
DERBY_PLAYERS = ("Ann", "Ben", "Cat", "Dan")


def refused(game: str, players: tuple[str, ...], entry: dict) -> Problem:
    """The one problem the engine finds with ``entry`` as the first deal."""
    record = GameRecord(game=game, players=players, rounds=(entry,))
    with pytest.raises(InvalidRecord) as refusal:
        ENGINES[game].score(record)
    [problem] = refusal.value.problems
    return problem


def summary(game: str, players: tuple[str, ...], entry: dict) -> str:
    engine = ENGINES[game]
    return engine.round_summary(engine.table_for(GameRecord(game=game, players=players)), entry)


def test_a_rook_sluff_problem_names_its_field_deal_and_player_in_french():
    entry = {"bids": [0, 2, 2, 2, 2, 2], "team_tricks": {"A": 7, "B": 7}, "failed_sluffs": [1]}
    problem = refused("rook_sluff", SLUFF_PLAYERS, entry)
    assert (problem.round, problem.field) == (1, "failed_sluffs")
    assert problem.message == "failed_sluffs: Ben (seat 1) bid 2, not a Sluff (0)"
    with translation.override("fr-ca"):
        # The seat inside the player's phrase is counted as each reader counts.
        assert problem_text(problem, seats_from=1) == (
            "failed_sluffs\u00a0: Ben (siège 2) a misé 2, pas un Sluff (0)"
        )
        assert problem_dict(problem) == {
            "round": 1,
            "field": "failed_sluffs",
            "message": "failed_sluffs\u00a0: Ben (siège 1) a misé 2, pas un Sluff (0)",
        }
    short = refused("rook_sluff", SLUFF_PLAYERS, {"bids": [2] * 6, "team_tricks": {"A": 7, "B": 6}})
    assert short.message == "team tricks add up to 13, not the 14 tricks of a deal of 6 players"
    with translation.override("fr-ca"):
        assert problem_text(short) == (
            "les levées des équipes font 13 en tout, pas les 14 levées d'une donne à 6 joueurs"
        )


def test_a_roller_derby_problem_names_its_field_deal_and_die_in_french():
    problem = refused("roller_derby", DERBY_PLAYERS, {"dice": [3, 7], "tricks": 6})
    assert (problem.round, problem.field) == (1, "dice")
    assert problem.message == "dice: die 2 shows 7; a d6 has 1 to 6"
    with translation.override("fr-ca"):
        assert problem_dict(problem) == {
            "round": 1,
            "field": "dice",
            "message": "dés\u00a0: le dé 2 montre 7; un dé à 6 faces va de 1 à 6",
        }
    unsaid = refused("roller_derby", DERBY_PLAYERS, {"all_or_nothing": True})
    assert (unsaid.round, unsaid.field) == (1, "made")
    with translation.override("fr-ca"):
        assert problem_text(unsaid) == (
            "il manque l'issue (made)\u00a0: le tout ou rien a-t-il réussi?"
        )


def test_the_deal_summaries_of_rook_sluff_and_roller_derby_in_both_languages():
    sluff = summary(
        "rook_sluff",
        SLUFF_PLAYERS,
        {
            "bids": [3, 2, 0, 3, 2, 2],
            "tricks": [3, 3, 2, 2, 2, 2],
            "penalties": [{"player": 1, "points": 20}],
        },
    )
    assert sluff == (
        "A bid 5, took 7 (made); B bid 7, took 7 (made); Cat's Sluff failed (2 tricks); "
        "Ben penalised 20"
    )
    derby = summary("roller_derby", DERBY_PLAYERS, {"dice": [3, 4], "tricks": 1, "jokers": 2})
    assert derby == "Rolled 3+4 = 7, bought 2 jokers, the Roller's team took 1 trick: 22 points"
    called = summary("roller_derby", DERBY_PLAYERS, {"all_or_nothing": True, "made": False})
    assert called == "All or nothing, failed: 0 points"
    with translation.override("fr-ca"):
        assert said(sluff) == (
            "Équipe A\u00a0: mise 5, prises 7 (réussie); Équipe B\u00a0: mise 7, prises 7 "
            "(réussie); Sluff de Cat raté (2 levées); Ben pénalisé de 20"
        )
        assert said(derby) == (
            "Dés\u00a0: 3+4 = 7, 2 jokers achetés, l'équipe du lanceur a pris 1 levée\u00a0: "
            "22 points"
        )
        assert said(called) == "Tout ou rien, raté\u00a0: 0 points"
