"""The table's pages in French (Accept-Language: fr-CA) for each game, English by default;
the round form's Save bar and the game's word for a deal said in the reader's language; the
scripts' catalogue in French."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.web.test_table_views import make_game, url

pytestmark = pytest.mark.django_db

FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr-CA,fr;q=0.9,en;q=0.5"}

OPTIONS = {"rook_sluff": {"single_deck": True}}

# Each game, its word for a round in each language.
WORDS = {
    "roolz": ("deal", "donne"),
    "roller_derby": ("deal", "donne"),
    "rook_sluff": ("deal", "donne"),
    "rummoli": ("hand", "main"),
}


@pytest.mark.parametrize("kind", sorted(WORDS))
def test_a_games_table_page_speaks_the_readers_language(client, kind):
    english, french = WORDS[kind]
    game = make_game(kind, options=OPTIONS.get(kind), confirmation="other_side")
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


@pytest.mark.parametrize("kind", sorted(WORDS))
def test_a_games_history_and_watch_only_pages_speak_the_readers_language(client, kind):
    _, french = WORDS[kind]
    game = make_game(kind, options=OPTIONS.get(kind))
    history = client.get(url("history", game), **FRENCH).content.decode()
    assert "Journal" in history
    assert f"Toutes les {french}s" in history
    watched = client.get(reverse("scoring:table_view", args=[game.view_token]), **FRENCH)
    assert "Seuls les joueurs de la table" in watched.content.decode()


def test_the_scripts_catalogue_says_the_table_scripts_words_in_french(client):
    said = client.get("/jsi18n/fr-ca.js").content.decode()
    assert "Derni\\u00e8re donne" in said or "Dernière donne" in said
    assert "Attendre" in said
