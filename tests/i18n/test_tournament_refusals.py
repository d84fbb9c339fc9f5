"""The tournaments' refusals in the reader's language: a sample of each service module's,
asked in French (Accept-Language: fr-CA) through the page or the API that shows it, says
what is wrong in French beside the field it names; English stays the default. What is
stored to be read later (a failed seating's reason) is said in the language of whoever
reads it, and the standings file's header row in the language of whoever downloads it."""

from __future__ import annotations

import html
import json

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.wording import problem_text, problems_text
from tests.i18n.conftest import event_of
from tests.i18n.test_desk_pages import FRENCH
from tournaments.errors import TournamentError, stored_problems
from tournaments.events import selectors, services
from tournaments.events.document import document_problems

pytestmark = pytest.mark.django_db


def text(response) -> str:
    """What a page says, its characters unescaped (an apostrophe is written &#x27;)."""
    return html.unescape(response.content.decode())


def refused_in_french(call) -> TournamentError:
    with pytest.raises(TournamentError) as refused:
        call()
    return refused.value


def said(error: TournamentError, language: str) -> list[tuple[str | None, str]]:
    with translation.override(language):
        return [(p.field, problem_text(p)) for p in error.problems]


# --------------------------------------------------------------------------- through the pages


def test_a_drop_twice_is_refused_in_french_on_the_desk(client, director):
    event = event_of(director, "Ann", "Ben")
    ann = event.entrants.get(name="Ann")
    client.force_login(director)
    url = reverse("tournaments:entrant_drop", args=[event.pk, ann.pk])
    client.post(url)
    french = text(client.post(url, **FRENCH))
    assert "Ann s'est déjà retiré" in french
    assert "already dropped" not in french
    assert "Ann has already dropped" in text(client.post(url))


def test_an_empty_announcement_and_a_bad_cap_are_refused_in_french(client, director):
    event = event_of(director, "Ann", "Ben")
    client.force_login(director)
    page = text(
        client.post(
            reverse("tournaments:desk_announcements", args=[event.pk]), {"text": " "}, **FRENCH
        )
    )
    assert "Écrivez l'annonce." in page
    page = text(
        client.post(
            reverse("tournaments:signup_settings", args=[event.pk]),
            {"open": "on", "cap": "0"},
            **FRENCH,
        )
    )
    assert "La limite est un nombre de joueurs de 1 à" in page
    assert "the cap is" not in page.lower()


def test_an_unknown_staff_account_is_refused_in_french(client, director):
    event = event_of(director, "Ann", "Ben")
    client.force_login(director)
    page = text(
        client.post(
            reverse("tournaments:staff_add", args=[event.pk]),
            {"username": "nobody", "role": "scorer"},
            HTTP_HX_REQUEST="true",
            **FRENCH,
        )
    )
    assert "Aucun compte de la direction ne s'appelle «\u00a0nobody\u00a0»." in page


def test_seating_one_player_is_refused_in_french(client, director):
    event = event_of(director, "Ann")
    client.force_login(director)
    page = client.post(reverse("tournaments:round_generate", args=[event.pk]), **FRENCH)
    assert "Il faut au moins deux joueurs pour placer une ronde." in text(page)


def test_a_players_own_check_in_is_refused_in_french_by_the_api(client, director):
    event = event_of(director, "Ann", "Ben")
    token = event.entrants.get(name="Ann").private_token
    asked = client.post(
        "/api/me/check-in",
        data=json.dumps({"checked_in": True}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
        **FRENCH,
    )
    assert asked.status_code == 400
    [problem] = asked.json()["errors"]
    assert problem["field"] == "checked_in"
    assert problem["message"] == (
        "l'enregistrement des arrivées n'est pas ouvert\u00a0: le bureau l'ouvre"
    )
    english = client.post(
        "/api/me/check-in",
        data=json.dumps({"checked_in": True}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert english.json()["errors"][0]["message"] == "check-in is not open: the desk opens it"


def test_the_new_event_forms_own_checks_in_french(client, director):
    client.force_login(director)
    page = text(
        client.post(
            reverse("tournaments:event_new"),
            {"game": "roolz", "name": "", "rounds_planned": "0", "bye_value": "x"},
            **FRENCH,
        )
    )
    assert "Donnez un nom à l'événement." in page
    assert "Entrez un nombre de rondes de 1 à" in page
    assert "Entrez un nombre entier de" in page


# --------------------------------------------------------------------------- each service


def test_each_service_modules_refusals_name_their_field_in_french(director):
    event = event_of(director, "Ann", "Ben")
    ann, ben = event.entrants.get(name="Ann"), event.entrants.get(name="Ben")
    samples = [
        # entrants
        (
            lambda: services.keep_apart_add(event=event, first=ann, second=ann, user=director),
            "second",
            "choisissez deux joueurs différents",
        ),
        # event
        (
            lambda: services.event_table_sizes_set(event=event, table_sizes=[], user=director),
            "table_sizes",
            "permettez au moins une taille de table (toutes\u00a0: les tailles du jeu)",
        ),
        # clock
        (
            lambda: services.tournament_round_clock_change(
                event=event, round=None, do="dance", user=director
            ),
            "clock",
            "choisissez démarrer, pause, reprendre ou prolonger",
        ),
        # self-service
        (
            lambda: services.event_self_service_set(
                event=event, self_check_in="window", user=director
            ),
            "check_in_opens_at",
            "indiquez quand les arrivées ouvrent",
        ),
        # sign-up
        (
            lambda: services.signup_settings_set(
                event=event, open=True, cap=0, approval=False, closes_at=None, user=director
            ),
            "cap",
            "la limite est un nombre de joueurs de 1 à 10000, ou vide pour aucune",
        ),
    ]
    for call, field, french in samples:
        error = refused_in_french(call)
        fields = dict(said(error, "fr-ca"))
        assert fields.get(field) == french, (field, fields)
        english = dict(said(error, "en"))
        assert english[field] != french
    # A name and a value kept apart: the French says the name where French puts it.
    services.entrant_drop(event=event, entrant=ben, user=director)
    error = refused_in_french(lambda: services.entrant_drop(event=event, entrant=ben))
    assert said(error, "fr-ca") == [("entrant", "Ben s'est déjà retiré")]
    assert said(error, "en") == [("entrant", "Ben has already dropped")]


def test_a_closed_events_refusal_and_a_rounds_changed_in_french(director):
    event = event_of(director, "Ann", "Ben", "Cat", "Dan")
    draft = services.tournament_round_generate(event=event, user=director)
    error = refused_in_french(lambda: services.event_close(event=event, user=director))
    assert said(error, "fr-ca") == [
        ("status", "publiez ou abandonnez le brouillon de ronde avant de clore")
    ]
    error = refused_in_french(
        lambda: services.tournament_round_opened_check(event=event, number=1, draft=None)
    )
    [(field, text)] = said(error, "fr-ca")
    assert field == "round"
    assert text == (
        "La ronde 1 a changé depuis que vous l'avez ouverte\u00a0: un brouillon en a été "
        "placé entre-temps. Revoyez-le d'abord"
    )
    services.tournament_round_publish(event=event, round=draft, user=director)
    error = refused_in_french(
        lambda: services.tournament_round_swap(
            event=event,
            round=draft,
            first=event.entrants.get(name="Ann"),
            second=event.entrants.get(name="Ben"),
            user=director,
        )
    )
    assert said(error, "fr-ca") == [("round", "la ronde 1 est publiée")]


def test_an_imported_documents_problems_name_their_path_in_french():
    _, problems = document_problems(["not", "an", "object"])
    with translation.override("fr-ca"):
        assert problems_text(problems) == "ce n'est pas un document tablescore-event/1"
    _, problems = document_problems({"format": "tablescore-event", "x": "a\x00b"})
    with translation.override("fr-ca"):
        assert [(p.field, problem_text(p)) for p in problems] == [
            ("x", "contient un caractère NUL")
        ]


# --------------------------------------------------------------------------- kept, read later


def test_a_failed_seatings_reason_is_read_in_the_readers_language(director):
    event = event_of(director, "Ann")
    error = refused_in_french(lambda: services.tournament_round_generate(event=event))

    services.tournament_round_generation_mark(event=event, state="queued", round=1)
    services.tournament_round_generation_mark(
        event=event,
        state="failed",
        round=1,
        message=str(error),
        problems=stored_problems(error.problems),
    )
    with translation.override("fr-ca"):
        assert selectors.generation_for(event=event).message == (
            "il faut au moins deux joueurs pour placer une ronde"
        )
    with translation.override("en"):
        assert selectors.generation_for(event=event).message == (
            "at least two players are needed to seat a round"
        )


def test_the_standings_file_header_in_the_readers_language(client, director):
    event = event_of(director, "Ann", "Ben")
    client.force_login(director)
    url = reverse("tournaments:standings_csv", args=[event.pk])
    french = text(client.get(url, **FRENCH)).splitlines()[0]
    english = text(client.get(url)).splitlines()[0]
    assert english.startswith("Rank,Name,") and english.endswith("Tables played,Byes,Dropped")
    assert french.startswith("Rang,Nom,") and french.endswith("Tables jouées,Exemptions,Retiré")


def test_a_player_lists_skipped_lines_in_french(client, director):
    event = event_of(director)
    client.force_login(director)
    url = reverse("tournaments:entrants_csv", args=[event.pk])
    page = text(client.post(url, {"text": "name,members\nAnn\n\n# later\nBen"}, **FRENCH))
    assert "la ligne 1 nomme les colonnes (name, members)" in page
    assert "la ligne 3 est vide" in page
    assert "la ligne 4 est un commentaire" in page
