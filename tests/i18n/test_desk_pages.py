"""The director's desk in French: the event's desk, a round's page and a table's page say
no English word under Accept-Language: fr-CA, stay English by default, and a refusal (a
name registered twice, a bad line of a player list) is said in the reader's language."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournaments.club.test_flow import night, play_round
from tournaments.events import services
from tournaments.models import Event

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr-CA,fr;q=0.9,en;q=0.5"}

# Words only English says: any of them on a French page is a word left unmarked.
ENGLISH = frozenset(
    {
        "the",
        "and",
        "of",
        "is",
        "in",
        "to",
        "for",
        "with",
        "from",
        "by",
        "at",
        "this",
        "that",
        "their",
        "them",
        "they",
        "it",
        "its",
        "round",
        "rounds",
        "player",
        "players",
        "seat",
        "seated",
        "seats",
        "swap",
        "publish",
        "published",
        "find",
        "check",
        "checked",
        "drop",
        "dropped",
        "reason",
        "undo",
        "every",
        "nothing",
        "entry",
        "view",
        "link",
        "links",
        "log",
        "standings",
        "bracket",
        "close",
        "event",
        "waiting",
        "add",
        "save",
        "remove",
        "tournament",
        "print",
        "who",
        "deals",
        "deal",
        "first",
        "correct",
        "draft",
        "quality",
        "cost",
        "repeated",
        "how",
        "here",
        "status",
        "name",
        "members",
        "team",
        "keep",
        "apart",
        "review",
        "table's",
        "tables'",
        "previous",
        "next",
        "start",
        "restart",
        "resume",
        "results",
        "state",
        "done",
        "playing",
        "happened",
        "recorded",
        "yet",
        "director's",
        "word",
        "game",
        "over",
        "letter",
    }
)


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="x", is_staff=True)


@pytest.fixture
def played(director, django_capture_on_commit_callbacks) -> Event:
    """An event whose first round is published and played, its second seated as a draft."""
    event = night(director, "Semaine 1")
    play_round(event, director, django_capture_on_commit_callbacks)
    services.tournament_round_generate(event=event, user=director)
    return event


def shown_words(html: str) -> list[str]:
    """The words a person reads on a page: its text and the attributes read out."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    said = re.findall(
        r'\s(?:title|alt|placeholder|aria-label|data-confirm|hx-confirm)="([^"]*)"', html
    )
    text = re.sub(r"<[^>]*>", " ", html)
    return re.findall(r"[^\W\d_][^\W\d_']*(?:'[^\W\d_]+)?", " ".join([text, *said]))


# Said elsewhere, not by the desk's pages: what a game says of its deals and teams (the
# scoring pages' own words, marked with them), and why the public sign-up page is off (the
# sign-up page's own sentence, quoted).
STORED = re.compile(r"<(dd|span|td) data-(?:game-words|signup-reason)>.*?</\1>", re.S)


# A link written out (a player's own, a table's, the event's): its random token may hold
# any letters ("...-IN-..."), no language's words.
OWN_LINK = re.compile(r"[^\s<>\"]*/(?:me|t|v|e)/[-\w]+/?[^\s<>\"]*")


def english_left(html: str) -> list[str]:
    text = OWN_LINK.sub(" ", STORED.sub(" ", html))
    return [word for word in shown_words(text) if word.lower() in ENGLISH]


def desk_pages(event: Event) -> dict[str, str]:
    table = event.rounds.get(number=1).tables.order_by("number").first()
    return {
        "event desk": reverse("tournaments:desk_event", args=[event.pk]),
        "published round": reverse("tournaments:desk_round", args=[event.pk, 1]),
        "draft round": reverse("tournaments:desk_round", args=[event.pk, 2]),
        "table": reverse("tournaments:desk_table", args=[event.pk, table.pk]),
        "correction": reverse("tournaments:result_correct", args=[event.pk, table.pk, 1]),
        "sign-up": reverse("tournaments:desk_signup", args=[event.pk]),
        "announcements": reverse("tournaments:desk_announcements", args=[event.pk]),
        "players' links": reverse("tournaments:desk_links", args=[event.pk]),
    }


# The correction page holds the scoring pages' own correction form (marked with them): only
# the desk's words around it are checked here.
SCORING_FORM = {"correction"}

# A word of each page in each language (the French as the catalogue says it).
SAID = {
    "event desk": ("Tournament rounds", "Rondes du tournoi"),
    "published round": ("Seating quality", "Qualité du placement"),
    "draft round": ("Swap two players", "Échanger deux joueurs"),
    "table": ("The director's word", "La décision du directeur"),
    "correction": ("Your correction stands at once", "Votre correction s'applique tout de suite"),
    "sign-up": ("When and where", "Quand et où"),
    "announcements": ("No announcements yet.", "Aucune annonce pour l'instant."),
    "players' links": ("Pass cards", "Cartes d'accès"),
}


def test_the_desk_pages_say_no_english_word_in_french_and_stay_english_by_default(
    client, director, played
):
    client.force_login(director)
    for name, url in desk_pages(played).items():
        english, french = SAID[name]
        plain = client.get(url)
        assert plain.status_code == 200, name
        assert english in plain.content.decode(), name
        asked = client.get(url, **FRENCH)
        text = asked.content.decode()
        assert '<html lang="fr-ca">' in text and french in text, name
        if name not in SCORING_FORM:
            assert english_left(text) == [], name


def test_the_check_sees_an_english_word_left():
    assert english_left('<p>Ronde 2</p><button title="Swap them">Échanger</button>') == [
        "Swap",
        "them",
    ]
    assert english_left("<p>La ronde du tournoi</p>") == []


def test_a_name_registered_twice_is_refused_in_french(client, director):
    event = services.event_create(
        owner=director, name="Jeudi", game="roolz", options={}, rounds_planned=2
    )
    services.entrant_add(event=event, name="Ann", user=director)
    client.force_login(director)
    url = reverse("tournaments:entrant_add", args=[event.pk])
    said = client.post(url, {"name": "ann"}, **FRENCH).content.decode()
    assert "Ann est déjà inscrit." in said
    assert "already registered" not in said
    # English by default: the same refusal as before.
    assert "Ann is already registered." in client.post(url, {"name": "ann"}).content.decode()


def test_a_bad_line_of_a_player_list_is_refused_in_french(client, director):
    event = services.event_create(
        owner=director, name="Jeudi", game="roolz", options={}, rounds_planned=2
    )
    services.entrant_add(event=event, name="Ann", user=director)
    client.force_login(director)
    url = reverse("tournaments:entrants_csv", args=[event.pk])
    said = client.post(url, {"text": "Ben\nAnn\nCat,Dan"}, **FRENCH).content.decode()
    assert "Personne n'a été inscrit\u00a0:" in said
    assert "Ligne 2\u00a0: Ann est déjà inscrit" in said
    assert "Ligne 3\u00a0: une équipe a au moins deux membres" in said
    english = client.post(url, {"text": "Ben\nAnn"}).content.decode()
    assert "Line 2: Ann is already registered" in english


def test_the_new_event_page_says_its_confirmation_choices_in_french(client, director):
    client.force_login(director)
    url = reverse("tournaments:event_new")
    said = client.get(url, {"game": "roolz"}, **FRENCH).content.decode()
    for french in (
        "Désactivée\u00a0: une donne compte dès qu&#x27;elle est entrée",
        "Un autre joueur confirme",
        "Un joueur d&#x27;un autre camp confirme",
    ):
        assert f"<span>{french}</span>" in said, french
    assert "Another player confirms" not in said
    plain = client.get(url, {"game": "roolz"}).content.decode()
    assert "<span>Another player confirms</span>" in plain
