"""The outer half of the one mechanism: a core's template and values said in the reader's
language (scoring.wording), the English kept for the cores, commands and logs."""

from __future__ import annotations

from django.utils import translation

from common.phrases import N_, Phrase, Seat, Words
from scoring.engines.base import Problem
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
        for key in ("roolz", "rummoli"):
            summary = ENGINES[key].summary
            assert translation.gettext(summary) != summary, key
