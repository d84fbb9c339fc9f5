"""The marked pages in French: chosen by the browser (Accept-Language: fr-CA) or by the
switch (Django's language cookie, which the phone keeps), English by default; the switch
itself, and Django's JavaScript catalogue."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournaments.club.test_flow import night, play_round
from tournaments.club import services as club
from tournaments.models import ClubNight, Player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr-CA,fr;q=0.9,en;q=0.5"}


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="x", is_staff=True)


@pytest.fixture
def season(director, django_capture_on_commit_callbacks):
    roster = club.roster_for(owner=director)
    season = club.season_create(
        roster=roster,
        name="Jeudis",
        rule={"counting": "best", "best": 1, "place_points": "10 8 6 5 4 3 2 1"},
    )
    event = night(director, "Semaine 1", season=season)
    play_round(event, director, django_capture_on_commit_callbacks)
    return season


def pages(director, season) -> dict[str, str]:
    """Each marked page's address (the desk's are the signed-in director's)."""
    roster = season.roster
    player = Player.objects.filter(roster=roster).order_by("pk").first()
    event = ClubNight.objects.get(season=season).event
    return {
        "home": reverse("home"),
        "not found": "/no/such/page/",
        "club desk": reverse("club:club"),
        "club night": reverse("club:event_night", args=[event.pk]),
        "club player": reverse("club:player_desk", args=[player.pk]),
        "leaderboard": reverse("club:leaderboard", args=[roster.public_token]),
        "player": reverse("club:player", args=[roster.public_token, player.pk]),
        "season": reverse("club:season", args=[season.public_token]),
        "desk": reverse("tournaments:desk"),
        "desk log": reverse("tournaments:desk_log", args=[event.pk]),
        "event import": reverse("tournaments:event_import"),
    }


# A word of each page in each language (the French as the catalogue says it).
SAID = {
    "home": ("Start a game", "Commencer une partie"),
    "not found": ("Not found", "Page introuvable"),
    "club desk": ("Create the season", "Créer la saison"),
    "club night": ("Who is who", "Qui est qui"),
    "club player": ("Rename", "Renommer"),
    "leaderboard": ("Ratings", "Cotes"),
    "player": ("Nights", "Soirées"),
    "season": ("Season table", "Tableau de la saison"),
    "desk": ("Your events", "Vos événements"),
    "desk log": ("Event log", "Journal de l'événement"),
    "event import": ("Name of the new event", "Nom du nouvel événement"),
}


def test_every_marked_page_follows_the_browser_the_switch_and_defaults_to_english(
    client, director, season
):
    client.force_login(director)
    for name, url in pages(director, season).items():
        english, french = SAID[name]
        plain = client.get(url)
        assert plain.status_code in (200, 404), (name, plain.status_code)
        text = plain.content.decode()
        assert english in text and french not in text, name
        assert '<html lang="en">' in text, name
        asked = client.get(url, **FRENCH).content.decode()
        assert french in asked and english not in asked, name
        assert '<html lang="fr-ca">' in asked, name
    # The switch: kept in the language cookie, it wins over the browser's own language.
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr-ca"
    for name, url in pages(director, season).items():
        english, french = SAID[name]
        text = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert french in text and english not in text, name


def test_french_formats_numbers_and_dates_the_canadian_way(client, director, season):
    client.force_login(director)
    event = ClubNight.objects.get(season=season).event
    text = client.get(reverse("tournaments:desk"), **FRENCH).content.decode()
    created = event.created_at
    english = client.get(reverse("tournaments:desk")).content.decode()
    assert f"created {created.day} {created.strftime('%b')} {created.year}" in english
    # The French month in full, as Canadian French writes a date.
    months = ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août")
    month = (*months, "septembre", "octobre", "novembre", "décembre")[created.month - 1]
    assert f"créé le {created.day} {month} {created.year}" in text


def test_the_switch_sets_the_cookie_and_goes_back_to_the_page(client):
    answer = client.get("/language/fr-ca/", {"next": "/desk/"})
    assert answer.status_code == 302 and answer["Location"] == "/desk/"
    cookie = answer.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "fr-ca" and int(cookie["max-age"]) > 300 * 24 * 3600
    assert cookie["samesite"] == "Lax"
    # Never a way off the site, and only the site's languages.
    away = client.get("/language/en/", {"next": "https://elsewhere.example/"})
    assert away["Location"] == "/"
    assert client.get("/language/de/").status_code == 404


def test_every_page_offers_the_other_language(client):
    english = client.get(reverse("home")).content.decode()
    # Each language is offered under its own name.
    assert 'href="/language/fr-ca/?next=/"' in english and ">Français<" in english
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr-ca"
    french = client.get(reverse("home")).content.decode()
    assert 'href="/language/en/?next=/"' in french and ">English<" in french


def test_the_javascript_catalogue_is_a_cacheable_script_of_the_site(client):
    answer = client.get("/jsi18n/fr-ca.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert "max-age=86400" in answer["Cache-Control"] and "public" in answer["Cache-Control"]
    body = answer.content.decode()
    assert "django.gettext" in body or "gettext" in body
    assert client.get("/jsi18n/xx.js").status_code == 404
