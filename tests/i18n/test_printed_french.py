"""The games' sheets, options and rules cards in French (Canada): every blank and filled
scoresheet drawn in French and read back with no English heading left (and every French
heading fitting its column), the new-game page's options in French, the rules cards in
French; and the engines' words a person reads all marked for the catalogue."""

from __future__ import annotations

import importlib
import re
import subprocess

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from printing import worker
from printing.models import PrintJob, stall_after
from printing.render import fit_problems, render_one
from printing.render.paper import PAPER_SIZES
from printing.scoresheets import blank_kinds, blank_sheet, filled_sheet
from scoring.engines.base import Engine, parse_record
from scoring.engines.registry import ENGINES
from scoring.games import KITS
from scoring.games.kit import OPTION, OPTION_WORDS
from tests.games import GAMES, sample_record
from tests.web.test_table_views import make_game, url

FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr-CA,fr;q=0.9,en;q=0.5"}
NAMES = ["Zoë", "Léa", "Ève", "Noé", "Ann", "Ben", "Cat", "Dan", "Eli", "Fay"]


def pdf_text(pdf: bytes) -> str:
    run = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True)
    return re.sub(r"\s+", " ", run.stdout.decode().replace("\xa0", " "))


def headings(sheet) -> list[str]:
    """What a sheet heads its parts with: column headings, group titles (not the players'
    names), the titles of its blocks."""
    said = [line for column in sheet.columns for line in column.heading.split("\n")]
    said += [group.title for group in sheet.groups if group.title]
    said += [sheet.options_title, sheet.reminder_title, sheet.signatures_title]
    # Each option's label ("Target score: 1000", "☐ Win only on a made bid").
    said += [re.split(r"\s*:", item)[0].removeprefix("☐ ") for item in sheet.options]
    return said


def english_left(english: list[str], french: list[str], text: str, game: str) -> list[str]:
    """The English headings (those French says otherwise) found in the French text, the
    game's name aside ("Roller" of "Roller Derby")."""
    text = text.replace(ENGINES[game].title, " ")
    gone = set(english) - set(french)
    return [word for word in gone if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text)]


def engine_words(engine: Engine) -> set[str]:
    """Every word of an engine a person reads on the new-game page or a sheet: its summary,
    each option's label, help and choices, and every printed column at every table size (its
    title is a name, and its summary is marked in the engine itself)."""
    words: set[str] = set()
    variants: list[dict] = [{}]
    for spec in engine.option_specs():
        words |= {spec.label, spec.help}
        words |= {str(choice).replace("_", " ") for choice in spec.choices if choice != ""}
        if spec.kind == "bool":
            variants.append({spec.name: True})
        variants += [{spec.name: choice} for choice in spec.choices]
    for players in range(1, 13):
        for options in variants:
            try:
                resolved = engine.resolve_options(options, players)
            except Exception:  # an option this table size does not take
                continue
            if players not in engine.allowed_player_counts(resolved):
                continue
            words |= {spec.column for spec in engine.round_fields(players, resolved) if spec.column}
    return {word for word in words if not word.isdigit()}


@pytest.mark.parametrize("game", GAMES)
def test_every_word_of_an_engine_a_person_reads_is_marked_in_its_games_words(game):
    words = importlib.import_module(f"scoring.games.{game}.engine_words")
    with translation.override("en"):
        marked = {*words.WORDS, *map(str, words.OPTION_LABELS), *map(str, words.COLUMNS)}
    assert engine_words(ENGINES[game]) - marked == set()
    groups = {spec.group for spec in ENGINES[game].option_specs()}
    assert groups - {"Scoring", *OPTION_WORDS} == set()
    assert OPTION == "a game option"  # as the words, sheets and the new-game page write it


def test_the_words_check_sees_a_word_left_out():
    engine = ENGINES["roolz"]
    assert "Target score" in engine_words(engine)
    assert "two calls" in engine_words(engine)
    assert "Partners" in engine_words(engine)


@pytest.mark.parametrize("kind", blank_kinds(), ids=lambda kind: kind.key)
def test_a_french_blank_sheet_has_french_headings_that_fit(kind):
    with translation.override("en"):
        english = blank_sheet(kind.game, kind.players, kind.options)
    with translation.override("fr-ca"):
        french = blank_sheet(kind.game, kind.players, kind.options)
        text = pdf_text(render_one(french))
        for paper in PAPER_SIZES:
            assert fit_problems(french, paper) == [], paper
    assert "Donn" in text
    assert "Rappel du pointage" in text and "How it scores" not in text
    for heading in headings(french):
        assert heading.replace("\xa0", " ") in text, heading
    assert english_left(headings(english), headings(french), text, kind.game) == []
    assert french.reminder != english.reminder


@pytest.mark.parametrize("game", GAMES)
def test_a_french_filled_sheet_says_its_rounds_in_french(game):
    players = 6 if game == "rook_sluff" else 4
    data = sample_record(game, rounds=6, seed=2, players=players)
    data["players"] = NAMES[:players]
    record = parse_record(data, ENGINES)
    with translation.override("en"):
        english = filled_sheet(record)
    with translation.override("fr-ca"):
        french = filled_sheet(record)
        text = pdf_text(render_one(french))
        for paper in PAPER_SIZES:
            assert fit_problems(french, paper) == [], paper
    assert "Options en vigueur" in text and "Options in force" not in text
    assert english_left(headings(english), headings(french), text, game) == []


@pytest.mark.django_db
def test_the_new_game_pages_options_in_french(client):
    page = client.get(reverse("scoring:game_new"), {"game": "roolz", "players": "6"}, **FRENCH)
    said = page.content.decode()
    for french in (
        "Pointage cible",
        "Partie à six",
        "Deux appels",
        "Trois paires",
        "règles de jeu",
    ):
        assert french in said, french
    assert "La partie se termine après la donne où quelqu" in said
    assert re.search(r"Par défaut\s: équipes\.", said)
    assert re.search(r"Par défaut\s: désactivé\.", said)
    for english in ("Target score", "Six-player game", "Two calls", "Play only", "No sloughing"):
        assert english not in said, english
    plain = client.get(reverse("scoring:game_new"), {"game": "roolz", "players": "6"})
    assert "Target score" in plain.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_the_rules_card_in_french(client, game):
    players = NAMES[:6] if game == "rook_sluff" else NAMES[:4]
    made = make_game(game, players=players)
    said = client.get(url("table_rules", made), **FRENCH).content.decode()
    card = KITS[game].rules
    with translation.override("en"):
        english = [str(card.summary), *(str(s.heading) for s in card.sections)]
        english += [str(line) for s in card.sections for line in s.lines]
    with translation.override("fr-ca"):
        french = [str(card.summary), *(str(s.heading) for s in card.sections)]
        french += [str(line) for s in card.sections for line in s.lines]
    shown = said.replace("&#x27;", "'").replace("&quot;", '"')
    for line in french:
        assert line in shown, line
    for line in set(english) - set(french):
        assert line not in shown, line
    assert sum(a != b for a, b in zip(english, french, strict=True)) == len(english)


@pytest.mark.django_db
def test_the_rules_cards_table_lines_say_the_options_in_french(client):
    """ "At this table": each option's label and chosen value in the options' own words."""
    made = make_game("roolz", players=NAMES[:6], options={"target": 500, "six_player": "two_calls"})
    said = client.get(url("table_rules", made), **FRENCH).content.decode()
    assert "Pointage cible\xa0: 500 (choisi pour cette table)" in said
    assert "Partie à six\xa0: deux appels (choisi pour cette table)" in said
    for english in ("Target score", "Six-player game", "two calls"):
        assert english not in said, english
    plain = client.get(url("table_rules", made)).content.decode()
    assert "Target score: 500 (chosen for this table)" in plain
    assert "Six-player game: two calls (chosen for this table)" in plain


@pytest.mark.django_db
def test_the_blank_sheets_page_in_french(client):
    said = client.get(reverse("printing:blank_sheets"), **FRENCH).content.decode()
    for french in ("Feuilles de pointage vierges", "Jeu et joueurs", "Lettre US", "Imprimer les"):
        assert french in said, french
    for english in ("Blank scoresheets", "Game and players", "Paper", "US Letter"):
        assert english not in said, english


@pytest.mark.django_db
def test_a_stack_asked_for_in_french_is_printed_and_described_in_french(
    client, eager_celery, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            reverse("printing:blank_sheets"),
            {"sheet": "roolz:6:six_player=two_calls", "copies": "2", "paper": "LETTER"},
            **FRENCH,
        )
    job = PrintJob.objects.get()
    assert job.what["language"] == "fr-ca" and job.status == PrintJob.Status.DONE, job.error
    page = client.get(answer["Location"], **FRENCH).content.decode()
    assert "2 feuilles vierges de Roolz pour 6 joueurs, Lettre US" in page
    assert "Imprimer une autre pile" in page
    text = pdf_text(bytes(job.pdf))
    assert text.count("Feuille de pointage — Roolz") == 2
    assert "Deux appels : 6 joueurs" in text and "Lettre US · page 1 sur 1" in text
    for english in ("scoresheet", "Two calls", "How it scores", "US Letter", "Dealer"):
        assert english not in text, english
    # The same stack asked in English is another job, drawn in English.
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("printing:blank_sheets"),
            {"sheet": "roolz:6:six_player=two_calls", "copies": "2", "paper": "LETTER"},
        )
    english = PrintJob.objects.exclude(pk=job.pk).get()
    assert "Roolz scoresheet" in pdf_text(bytes(english.pdf))


@pytest.mark.django_db
def test_a_french_stacks_failure_is_said_in_french(settings):
    """The print service gave up on a stack asked in French: the job page's message is
    French, whoever runs the worker (its own language English)."""
    what = {"kind": "blank", "game": "roolz", "players": 4, "copies": 3, "language": "fr-ca"}
    job = PrintJob.objects.create(
        request_key="french",
        what=what,
        status=PrintJob.Status.RUNNING,
        attempts=1,
        run_id="first-run",
        task_id="first-message",
        restarts=settings.PRINT_RESTARTS,
    )
    PrintJob.objects.filter(pk=job.pk).update(updated_at=timezone.now() - 2 * stall_after())
    with translation.override("en"):
        assert worker.printjob_run(job_id=job.pk, task_id="first-message") == "failed"
    job.refresh_from_db()
    times = settings.PRINT_RESTARTS + 1
    assert job.error.startswith(f"Le service d'impression s'est arrêté {times} fois")
