"""What players and spectators read, in French: the event's pages, a player's own page, the
sign-up, the printed sheets (read back from the PDF), and a print job asked for in French
drawn in French by the worker, whatever language the worker runs in. English stays the
default."""

from __future__ import annotations

import html
import re
import subprocess

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from printing.models import PrintJob
from tests.tournaments.helpers import ROOLZ_OPTIONS
from tests.tournaments.signup.conftest import open_signup
from tournaments.events import services
from tournaments.models import Event, Registration
from tournaments.printouts import sources as printouts

pytestmark = pytest.mark.django_db

FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr-CA,fr;q=0.9,en;q=0.5"}
NAMES = ["Ann", "Béa", "Cléo", "Dany", "Élie", "Flo", "Gaby", "Hugo"]
BASE = "http://scores.example.org"

# Words of the English pages and sheets that are no French word: none may be left.
ENGLISH = frozenset(
    {
        "the", "your", "you", "and", "of", "is", "not", "with", "yet", "out", "here", "where",
        "round", "rounds", "seat", "seats", "draw", "standings", "played", "ranked", "finished",
        "bye", "byes", "sign", "find", "check", "drop", "waiting", "scoreboard", "deals",
        "first", "players", "scoresheet", "scoresheets", "tournament", "in", "force", "scan",
        "open", "page's", "event", "signatures:", "winner", "previous", "next", "playing",
    }
)  # fmt: skip


@pytest.fixture
def director():
    return get_user_model().objects.create_user("directrice", password="x", is_staff=True)


@pytest.fixture
def event(director) -> Event:
    event = services.event_create(
        owner=director, name="Vendredi Roolz", game="roolz", options=ROOLZ_OPTIONS
    )
    for name in NAMES:
        services.entrant_add(event=event, name=name, user=director)
    draft = services.tournament_round_generate(event=event, user=director)
    services.tournament_round_publish(event=event, round=draft, user=director)
    event.refresh_from_db()
    return event


def shown_text(page: str) -> str:
    """What a person reads of a page: its text and the attributes read out or shown."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<!--.*?-->", " ", page, flags=re.S)
    said = re.findall(r'\s(?:title|alt|placeholder|aria-label)="([^"]*)"', page)
    text = re.sub(r"<[^>]*>", " ", page)
    return html.unescape(" ".join([text, *said]))


def english_words(text: str) -> list[str]:
    return [word for word in re.findall(r"[^\W\d_][\w':]*", text) if word.lower() in ENGLISH]


def public_pages(event: Event) -> dict[str, str]:
    token = event.public_token
    ann = event.entrants.get(name="Ann")
    return {
        "draw": reverse("tournaments:draw", args=[token]),
        "seat search": reverse("tournaments:seat_search", args=[token]) + "?q=ann",
        "standings": reverse("tournaments:standings", args=[token]),
        "entrant": reverse("tournaments:entrant", args=[token, ann.pk]),
        "projector": reverse("tournaments:projector", args=[token]),
        "own page": reverse("tournaments:me", args=[ann.private_token]),
        "unknown link": reverse("tournaments:me", args=["x" * 32]),
    }


def test_the_players_pages_in_french_leave_no_english_word(client, event):
    for name, address in public_pages(event).items():
        page = client.get(address, **FRENCH).content.decode()
        assert english_words(shown_text(page)) == [], name
    draw = client.get(public_pages(event)["draw"], **FRENCH).content.decode()
    assert "Où suis-je assis?" in draw
    assert "Ronde 1" in draw
    own = client.get(public_pages(event)["own page"], **FRENCH).content.decode()
    assert "votre siège" in own and "Ouvrir ma table" in own


def test_the_players_pages_stay_english_by_default(client, event):
    draw = client.get(public_pages(event)["draw"]).content.decode()
    assert "Where do I sit?" in draw and "Round 1" in draw
    own = client.get(public_pages(event)["own page"]).content.decode()
    assert "your seat" in own and "Open my table" in own


def test_the_sign_up_and_its_status_in_french(client, event, director):
    page = client.get(reverse("tournaments:signup", args=[event.public_token]), **FRENCH)
    closed = page.content.decode()
    assert "Les inscriptions à cet événement ne sont pas ouvertes." in closed
    assert english_words(shown_text(closed)) == []
    open_signup(event, director)
    form = client.get(reverse("tournaments:signup", args=[event.public_token]), **FRENCH)
    assert english_words(shown_text(form.content.decode())) == []
    answer = client.post(
        reverse("tournaments:signup", args=[event.public_token]), {"name": "Inès"}, **FRENCH
    )
    status = client.get(answer["Location"], **FRENCH).content.decode()
    assert Registration.objects.filter(name="Inès").exists()
    assert "Vous êtes inscrit à l'événement." in status
    assert english_words(shown_text(status)) == []


def pdf_text(pdf: bytes) -> str:
    run = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True)
    return run.stdout.decode()


def printed(event: Event, kind: str, capture, *, language: str | None) -> tuple[PrintJob, str]:
    """The sheets of ``kind`` asked for in ``language``; the worker runs after the asking,
    in English (the task runs once the transaction commits, outside the request)."""
    with capture(execute=True), translation.override(language):
        job = printouts.printout_create(event=event, kind=kind, base_url=BASE)
    job = PrintJob.objects.get(pk=job.pk)
    assert job.status == PrintJob.Status.DONE, job.error
    return job, pdf_text(bytes(job.pdf))


@pytest.mark.usefixtures("eager_celery")
@pytest.mark.parametrize(
    ("kind", "french", "english"),
    [
        (
            printouts.TABLE_CARDS,
            [
                *("Table 1", "Ronde 1 sur", "donne en premier", "Options en vigueur"),
                *("Lisez le code", "Pointage cible"),
            ],
            ["Tournament round", "deals first", "Options in force", "Scan the code", "Target"],
        ),
        (
            printouts.ROUND_SCORESHEETS,
            ["Feuille de pointage", "4 joueurs en 2 équipes", "Ronde du tournoi", "page 1 sur"],
            ["scoresheet", "Players:", "Tournament round", "page 1 of", "deals first"],
        ),
        (
            printouts.SEATING_LIST,
            ["Où s'asseoir", "Siège", "les sièges se comptent à partir de 1"],
            ["Where to sit", "Seat", "seats are counted"],
        ),
        (
            printouts.STANDINGS,
            ["Classement", "Rang", "Jouées", "classé par"],
            ["Standings", "Rank", "Played", "ranked by"],
        ),
    ],
)
def test_a_sheet_asked_for_in_french_is_printed_in_french(
    event, django_capture_on_commit_callbacks, kind, french, english
):
    job, text = printed(event, kind, django_capture_on_commit_callbacks, language="fr-ca")
    assert job.what["language"] == "fr-ca"
    squeezed = re.sub(r"\s+", " ", text)
    for words in french:
        assert words in squeezed, words
    for words in english:
        assert words not in squeezed, words


@pytest.mark.usefixtures("eager_celery")
def test_the_same_sheets_in_two_languages_are_two_jobs_and_english_is_unchanged(
    event, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    english, english_text = printed(event, printouts.TABLE_CARDS, capture, language="en")
    french, french_text = printed(event, printouts.TABLE_CARDS, capture, language="fr-ca")
    assert english.pk != french.pk
    assert "language" not in english.what
    assert "Tournament round 1 of" in english_text and "deals first" in english_text
    assert "Ronde 1 sur" in french_text


def test_the_apis_own_link_refusals_in_french(client):
    french = {**FRENCH, "HTTP_AUTHORIZATION": "Bearer nope"}
    answer = client.get("/api/me", **french)
    assert answer.status_code == 404
    assert answer.json()["errors"][0]["message"] == "aucun joueur pour ce jeton"
    missing = client.get("/api/me", **FRENCH)
    assert missing.status_code == 401
    assert missing.json()["errors"][0]["message"].startswith("envoyez le jeton")
