"""The table's pages in French (Accept-Language: fr-CA) for each game, English by default;
the round form's Save bar and the game's word for a deal said in the reader's language; the
scripts' catalogue in French."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from scoring.games import kit_for
from scoring.models import Game
from tests.games import GAMES, expected
from tests.web.test_table_views import make_game, url

pytestmark = pytest.mark.django_db

FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr-CA,fr;q=0.9,en;q=0.5"}


def words(kind: str) -> tuple[str, str]:
    """The game's word for a deal in English (its kit's) and in French (its own test data)."""
    return kit_for(kind).word.lower(), expected(kind).FRENCH_WORD


def table_game(kind: str, **arguments: Any) -> Game:
    return make_game(kind, players=expected(kind).SCREEN_PLAYERS, **arguments)


@pytest.mark.parametrize("kind", GAMES)
def test_a_games_table_page_speaks_the_readers_language(client, kind):
    english, french = words(kind)
    game = table_game(kind, confirmation="other_side")
    said = client.get(url("table", game), **FRENCH).content.decode()
    assert f"Toutes les {french}s" in said
    assert f"Enregistrer la {french} 1" in said
    assert "Qui tient ce téléphone?" in said
    assert f'data-saving="Enregistrement de la {french} 1"' in said
    for english_words in (f"Every {english}s", f"Save {english} 1", "Who is holding this phone"):
        assert english_words not in said
    # English stays the default.
    plain = client.get(url("table", game)).content.decode()
    assert f"Every {english}s" in plain
    assert f"Save {english} 1" in plain


@pytest.mark.parametrize("kind", GAMES)
def test_a_games_history_and_watch_only_pages_speak_the_readers_language(client, kind):
    _, french = words(kind)
    game = table_game(kind)
    history = client.get(url("history", game), **FRENCH).content.decode()
    assert "Journal" in history
    assert f"Toutes les {french}s" in history
    watched = client.get(reverse("scoring:table_view", args=[game.view_token]), **FRENCH)
    assert "Seuls les joueurs de la table" in watched.content.decode()


def test_the_scripts_catalogue_says_the_table_scripts_words_in_french(client):
    said = client.get("/jsi18n/fr-ca.js").content.decode()
    assert "Derni\\u00e8re donne" in said or "Dernière donne" in said
    assert "Attendre" in said
