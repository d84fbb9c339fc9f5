"""The tournaments cores' words in the reader's language: the seating report stored with a
round (its sentences kept as templates and values, said again for each reader; an older
report stored in English shown as it was written), the seating's, standings' and
brackets' refusals, and the standings' column headings on the public page."""

from __future__ import annotations

import ast
import html
import re
from collections import Counter
from pathlib import Path
from string import Formatter

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation
from django.utils.formats import number_format
from hypothesis import given, settings
from hypothesis import strategies as st

from common.phrases import Phrase, Words
from scoring.wording import problem_text, said
from tests.i18n.catalogue import ROOT
from tests.tournaments.club.test_flow import night, play_round
from tests.tournaments.helpers import ROOLZ_OPTIONS
from tournaments.brackets.core import BracketUserError, seed_field
from tournaments.brackets.core.state import Seeding
from tournaments.brackets.services.matches import bracket_refusal
from tournaments.club.core.chart import history_svg
from tournaments.events import services
from tournaments.models import Event, TournamentRound
from tournaments.seating.adapter import refusal, report_shown
from tournaments.seating.core import SchedulingError, TablePolicy, TableSplit
from tournaments.seating.core.sizes import (
    LISTED_TABLES,
    split_sentence,
    split_words,
    table_sizes,
    table_split,
)
from tournaments.seating.core.words import METHODS, method_words
from tournaments.standings.adapter import metric_shown
from tournaments.standings.core import StandingsRules, rules_problems

FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr-CA,fr;q=0.9,en;q=0.5"}
NAMES = [f"Joueur {n}" for n in range(1, 15)]

# English words of the report's sentences: none may be left on a French page.
ENGLISH = re.compile(r"\b(players?|tables?\s+of|sizes allowed|sitting out|greedy|swaps|then)\b")


def dd(page: str, name: str) -> str:
    """The report's entry ``name`` as it reads, its muted aside (the seconds taken) left out."""
    found = re.search(rf"<dd data-{name}>(.*?)</dd>", page, re.S)
    assert found, f"no {name} in the report"
    text = re.sub(r'<span class="muted">.*?</span>', "", found.group(1), flags=re.S)
    return html.unescape(re.sub(r"<[^>]*>", "", text)).strip()


@pytest.fixture
def director():
    return get_user_model().objects.create_user("direction", password="x", is_staff=True)


@pytest.fixture
def drafted(director) -> Event:
    """14 players at Roolz tables of 4 or 5: a first round seated as a draft."""
    event = services.event_create(
        owner=director, name="Vendredi", game="roolz", options=ROOLZ_OPTIONS, table_sizes=(4, 5)
    )
    services.entrants_import_csv(event=event, text="\n".join(NAMES), user=director)
    services.tournament_round_generate(event=event, user=director)
    return event


def desk_round(client, event: Event, **headers: str) -> str:
    response = client.get(reverse("tournaments:desk_round", args=[event.pk, 1]), **headers)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
def test_the_draft_report_reads_french_on_the_desk_and_english_by_default(
    client, director, drafted
):
    client.force_login(director)
    english = desk_round(client, drafted)
    assert dd(english, "sizes") == "14 players: tables of 5, 5, 4 (sizes allowed: 4, 5)"
    french = desk_round(client, drafted, **FRENCH)
    assert dd(french, "sizes") == "14 joueurs\N{NO-BREAK SPACE}: des tables de 5, 5, 4 " + (
        "(tailles permises\N{NO-BREAK SPACE}: 4, 5)"
    )
    method = dd(french, "method")
    assert method and not ENGLISH.search(method), method
    assert method != dd(english, "method")


@pytest.mark.django_db
def test_a_swapped_draft_says_so_in_french(client, director, drafted):
    first, second = drafted.entrants.order_by("name")[:2]
    draft = drafted.rounds.get(number=1)
    services.tournament_round_swap(event=drafted, round=draft, first=first, second=second)
    client.force_login(director)
    assert dd(desk_round(client, drafted), "method").endswith(", then swapped by the director")
    assert dd(desk_round(client, drafted, **FRENCH), "method").endswith(
        ", puis échange par la direction"
    )


@pytest.mark.django_db
def test_an_old_report_stored_in_english_is_shown_as_it_was_written(client, director, drafted):
    old = "14 players: tables of 5, 5, 4 (sizes allowed: 4, 5)"
    TournamentRound.objects.filter(event=drafted, number=1).update(
        report={"sizes": old, "method": "greedy + swaps", "cost": 3, "repeated_pairs": 0}
    )
    client.force_login(director)
    french = desk_round(client, drafted, **FRENCH)
    assert dd(french, "sizes") == old
    assert dd(french, "method") == "remplissage glouton + échanges"  # a known name, said again


@pytest.mark.django_db
def test_a_report_whose_facts_make_no_sense_shows_its_stored_text(client, director, drafted):
    """An imported document may hold anything: facts that make no sense are never said,
    the stored sentence is shown (and no error page)."""
    round_ = drafted.rounds.get(number=1)
    sound = dict(round_.report)
    for altered in (
        {"split_players": "14"},
        {"split_players": True},
        {"split_players": -1},
        {"split_tables": "2x5 and {x.__class__}"},
        {"split_allowed": ""},
        {"split_fewest": "no"},
    ):
        TournamentRound.objects.filter(pk=round_.pk).update(
            report={**sound, "sizes": "as stored", "method": "a method of its own", **altered}
        )
        client.force_login(director)
        page = desk_round(client, drafted, **FRENCH)
        assert dd(page, "sizes") == "as stored", altered
        assert dd(page, "method") == "a method of its own"


def test_a_report_keeps_the_facts_of_its_split_and_says_them_again():
    policy = TablePolicy(legal_sizes=(4,), preferred=4)
    split = table_split(7, [4], 3, policy)
    words = split_sentence(split)
    assert words == "7 players: a table of 4 and 3 sitting out, as no split into the sizes " + (
        "allowed (4) seats all 7"
    )
    stored = split.as_report()
    assert all(isinstance(value, int | str | bool) for value in stored.values())
    assert TableSplit.from_report(stored) == split
    with translation.override("fr-ca"):
        french = report_shown({"sizes": str(words), **stored})["sizes"]
    assert french == (
        "7 joueurs\N{NO-BREAK SPACE}: une table de 4 et 3 en exemption, car aucune "
        "répartition en tables des tailles permises (4) n'assoit les 7"
    )


# --------------------------------------------------------------------------- every sentence


def places(template: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(template) if name is not None}


def marked_templates(*paths: str) -> set[str]:
    """The literals marked with N_ in these modules."""
    found: set[str] = set()
    for path in paths:
        for node in ast.walk(ast.parse(Path(ROOT / path).read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "N_":
                argument = node.args[0]
                assert isinstance(argument, ast.Constant) and isinstance(argument.value, str)
                found.add(argument.value)
    return found


SIZES_TEMPLATES = marked_templates("tournaments/seating/core/sizes.py")


def phrases_in(words: Phrase | Words) -> list[Phrase | Words]:
    inner = [v for v in words.values.values() if isinstance(v, Phrase | Words)]
    return [words, *(p for value in inner for p in phrases_in(value))]


@settings(max_examples=200, deadline=None)
@given(
    legal=st.sets(st.integers(min_value=2, max_value=10), min_size=1, max_size=4),
    count=st.integers(min_value=0, max_value=120),
    data=st.data(),
)
def test_every_sizes_sentence_is_marked_translated_and_filled(legal, count, data):
    """Whatever the players and the sizes, the report's sentence is built of templates
    marked in the core, each with exactly its places' values, each in the French
    catalogue, and French fills every place with the numbers."""
    preferred = data.draw(st.sampled_from(sorted(legal)))
    policy = TablePolicy(legal_sizes=tuple(sorted(legal)), preferred=preferred)
    sizes, byes = table_sizes(count, policy)
    words = split_words(count, sizes, byes, policy)
    split = table_split(count, sizes, byes, policy)
    assert TableSplit.from_report(split.as_report()) == split
    for phrase in phrases_in(words):
        assert phrase.template in SIZES_TEMPLATES
        assert places(phrase.template) == set(phrase.values)
    with translation.override("fr-ca"):
        for phrase in phrases_in(words):
            french = translation.gettext(phrase.template)
            assert french != phrase.template, f"no French for {phrase.template!r}"
            assert places(french) == places(phrase.template)
        text = said(words)
    assert "{" not in text and "}" not in text
    assert re.match(rf"{count} joueurs?\N{{NO-BREAK SPACE}}: ", text), text
    if byes:
        assert f"{byes} en exemption" in text
    shown = Counter(sizes)
    if 1 < len(sizes) <= LISTED_TABLES:
        assert ", ".join(map(str, sorted(sizes, reverse=True))) in text
    elif len(sizes) > LISTED_TABLES:
        for size, tables in shown.items():
            assert re.search(rf"\b{tables} tables? de {size}\b", text), text


def test_every_method_a_report_names_is_said_in_french():
    names = [*sorted(METHODS), "cyclic GF(7)", "greedy + swaps, then swapped by the director"]
    with translation.override("fr-ca"):
        for name in names:
            words = method_words(name)
            assert isinstance(words, Words), name
            assert said(words) != name, name
    assert method_words("something else") == "something else"


# --------------------------------------------------------------------------- refusals


def test_seating_refusals_are_said_in_the_readers_language():
    policy = TablePolicy(legal_sizes=(2, 3, 4, 5, 6), preferred=4)
    with pytest.raises(SchedulingError) as raised:
        policy.within((7, 8))
    error = raised.value
    assert str(error) == "table sizes 7, 8 are not legal for this game (legal: 2, 3, 4, 5, 6)"
    assert error.field == "table_sizes"
    with translation.override("fr-ca"):
        assert problem_text(refusal(error)) == (
            "les tailles de table 7, 8 ne sont pas permises pour ce jeu "
            "(permises\N{NO-BREAK SPACE}: 2, 3, 4, 5, 6)"
        )


def test_standings_refusals_are_said_in_the_readers_language():
    problems = rules_problems(StandingsRules(metrics=(), scales={4: (7.0, 5.0)}))
    assert [p.message for p in problems] == [
        "choose at least one metric",
        "placement scale for 4: needs 4 values, one per place, not 2",
    ]
    with translation.override("fr-ca"):
        assert [problem_text(p) for p in problems] == [
            "choisissez au moins un critère",
            "barème de classement pour 4\N{NO-BREAK SPACE}: il faut 4 valeurs, une par place, "
            "pas 2",
        ]


def test_a_bracket_refusal_names_the_players_in_the_readers_language():
    with pytest.raises(BracketUserError) as raised:
        seed_field(["1", "2", "3"], Seeding.MANUAL, order=["1", "2"])
    refusal = bracket_refusal(raised.value, {"1": "Ann", "2": "Béa", "3": "Cléo"})
    (problem,) = refusal.problems
    assert problem.message == "the seed order must name every entrant once: missing Cléo"
    with translation.override("fr-ca"):
        assert problem_text(problem) == (
            "l'ordre des têtes de série doit nommer chaque participant une fois"
            "\N{NO-BREAK SPACE}: il manque Cléo"
        )


# --------------------------------------------------------------------------- standings


@pytest.mark.django_db
@pytest.mark.usefixtures("eager_celery")
def test_the_public_standings_headings_are_french(
    client, director, django_capture_on_commit_callbacks
):
    event = night(director, "Semaine 1")
    play_round(event, director, django_capture_on_commit_callbacks)
    url = reverse("tournaments:standings", args=[event.public_token])
    headings = re.findall(r'<th scope="col"[^>]*>([^<]*)</th>', client.get(url).content.decode())
    assert "Placement points" in headings
    french = re.findall(
        r'<th scope="col"[^>]*>([^<]*)</th>', client.get(url, **FRENCH).content.decode()
    )
    assert "Points de classement" in french and "Part des points de la table" in french
    assert not {"Placement points", "Share of table points", "Name", "Played"} & set(french)


def test_a_standings_value_is_written_as_the_reader_writes_numbers():
    assert metric_shown(70.625) == "70.63"
    assert metric_shown(None) == "\N{EN DASH}"
    with translation.override("fr-ca"):
        assert metric_shown(70.625) == "70,63"
        assert metric_shown(12.0) == "12"


# --------------------------------------------------------------------------- the rating chart


def test_the_rating_chart_is_drawn_in_the_readers_language():
    assert "No rated games yet" in history_svg([])
    assert 'aria-label="Rating history: from 20.0 to 22.5"' in history_svg([20.0, 22.5])
    with translation.override("fr-ca"):
        empty = history_svg([], say=said)
        drawn = history_svg([20.0, 22.5], say=said, number=lambda v: number_format(v, 1))
    assert "Aucune partie cotée pour l&#x27;instant" in empty
    assert 'aria-label="Historique de la cote\N{NO-BREAK SPACE}: de 20,0 à 22,5"' in drawn
    assert ">22,5</text>" in drawn and ">20,0</text>" in drawn
