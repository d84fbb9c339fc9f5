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


HX = {"HTTP_HX_REQUEST": "true"}


def refused_in_french(client, game, data: dict[str, str]) -> str:
    """The round form sent back with the engine's refusal, to a French-speaking phone."""
    response = client.post(
        url("table_entry", game), {"number": "1", "action": "save", **data}, **HX, **FRENCH
    )
    assert response.status_code == 200
    return response.content.decode()


def test_a_refused_rook_sluff_deal_says_why_in_french_beside_its_field(client):
    game = make_game("rook_sluff", players=["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"])
    data = {f"bids-{seat}": "2" for seat in range(6)} | {"team_tricks-A": "7", "team_tricks-B": "6"}
    said = refused_in_french(client, game, data)
    errors = said.split('id="e-team_tricks"')[1].split("</div>")[0]
    assert "Les levées des équipes font 13 en tout, pas les 14 levées" in errors
    assert "donne à 6 joueurs" in errors
    assert "Enregistrer la donne 1" in said
    assert "add up to" not in said and "Team A" not in said


def test_a_refused_roller_derby_deal_says_why_in_french_beside_its_field(client):
    game = make_game("roller_derby", players=["Ann", "Ben", "Cat", "Dan"])
    said = refused_in_french(client, game, {"dice-0": "3", "dice-1": "7", "tricks": "6"})
    errors = said.split('id="e-dice"')[1].split("</div>")[0]
    assert "Dés\u00a0: le dé 2 montre 7; un dé à 6 faces va de 1 à 6" in errors
    assert "Enregistrer la donne 1" in said
    assert "shows 7" not in said and "Die 1" not in said and "rolls for team" not in said


def test_the_roolz_history_says_the_individual_games_sides_in_the_readers_language(client):
    """Five players play Roolz without fixed teams: the points won are the bidder's side's
    and the opponents', said so, never by the record's keys."""
    deal = {"bidder": 0, "bid": 200, "partners": [1], "won": {"bidder": 190, "opponents": 110}}
    game = make_game("roolz", players=["Ann", "Ben", "Cy", "Di", "Ed"], rounds=[deal])
    french = client.get(url("history", game), **FRENCH).content.decode()
    assert "<dd>Camp du preneur 190, Adversaires 110</dd>" in french
    english = client.get(url("history", game)).content.decode()
    assert "<dd>Bidder&#x27;s side 190, Opponents 110</dd>" in english
    for said in (french, english):
        assert "bidder 190" not in said and "opponents 110" not in said


def test_my_games_print_form_names_the_papers_in_the_readers_language(client):
    game = table_game("roolz")
    client.get(url("table", game))
    french = client.get(reverse("scoring:my_games"), **FRENCH).content.decode()
    assert "<span>Lettre US</span>" in french and "US Letter" not in french
    assert "<span>US Letter</span>" in client.get(reverse("scoring:my_games")).content.decode()


def test_the_new_game_page_says_player_counts_and_confirmation_in_french(client):
    page = reverse("scoring:game_new")
    said = client.get(page, {"game": "roolz", "players": "4"}, **FRENCH).content.decode()
    for french in ("2 à 6 joueurs", "4, 6, 8 ou 10 joueurs", "Un autre joueur confirme"):
        assert french in said, french
    assert "Désactivée\u00a0: une donne compte dès qu&#x27;elle est entrée" in said
    for english in ("2-6 players", "10 players", "Another player confirms", "Off: a round"):
        assert english not in said, english
    plain = client.get(page, {"game": "roolz", "players": "4"}).content.decode()
    assert "2-6 players" in plain and "Another player confirms" in plain


def test_the_phones_save_refusals_are_the_services_said_in_the_readers_language(client):
    """A round that is not the next, and a save by nobody while another player confirms:
    the form says the service's own refusal, in the game's word for a round."""
    game = make_game("rummoli", players=["Ann", "Ben", "Cat"], confirmation="any_other_seat")
    posted = {"number": "3", "key": "k"}
    entry = url("table_entry", game)
    said = client.post(entry, posted, headers={"HX-Request": "true"}, **FRENCH).content.decode()
    assert "Dites qui tient ce téléphone avant d&#x27;enregistrer" in said
    assert "une autre personne confirme ce que vous entrez" in said
    # The page's own line above the seats says the same: another player, not another side.
    page = client.get(url("table", game), **FRENCH).content.decode()
    assert "Une autre personne confirme ce que vous entrez." in page
    assert "Un autre camp confirme" not in page
    client.post(url("table_seat", game), {"seat": "0"}, headers={"HX-Request": "true"})
    said = client.post(entry, posted, headers={"HX-Request": "true"}, **FRENCH).content.decode()
    assert "La prochaine main est la main 1" in said
    plain = client.post(entry, posted, headers={"HX-Request": "true"}).content.decode()
    assert "The next hand is hand 1" in plain
