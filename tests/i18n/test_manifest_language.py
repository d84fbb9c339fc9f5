"""The web app manifest in the language of whoever asks: Accept-Language (a browser fetches
it without cookies unless the page asks for credentials), or the language the switch chose."""

from __future__ import annotations

import pytest
from django.conf import settings

from tests.i18n.test_desk_pages import FRENCH


@pytest.mark.django_db
def test_the_manifest_speaks_the_browsers_language(client):
    english = client.get("/manifest.webmanifest")
    assert english.json()["description"] == "Score pad and tournament desk for table card games."
    assert english.json()["lang"] == "en"
    french = client.get("/manifest.webmanifest", **FRENCH)
    assert french.json()["description"] == (
        "Feuille de pointage et bureau de tournoi pour les jeux de cartes à table."
    )
    assert french.json()["lang"] == "fr-ca"
    assert french.json()["name"] == "Tablescore"
    assert "Accept-Language" in french["Vary"]


@pytest.mark.django_db
def test_the_manifest_follows_the_language_chosen_on_the_switch(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr-ca"
    assert client.get("/manifest.webmanifest").json()["lang"] == "fr-ca"
    page = client.get("/").content.decode()
    assert 'rel="manifest"' in page and 'crossorigin="use-credentials"' in page
