"""The seating core's refusals said in the reader's language where the desk shows them: the
table sizes an event allows, and a round the core cannot seat; the swap's ending said once."""

from __future__ import annotations

import html
import pathlib

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.wording import problem_text
from tests.i18n.conftest import event_of
from tests.i18n.test_desk_pages import FRENCH
from tournaments.errors import TournamentError
from tournaments.events import services
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def test_a_table_size_the_game_does_not_allow_is_refused_in_french_on_the_desk(client, director):
    event = event_of(director, "Ann", "Ben")
    client.force_login(director)
    url = reverse("tournaments:table_sizes", args=[event.pk])
    asked = client.post(url, {"table_sizes": ["4", "9"]}, **FRENCH)
    french = html.unescape(asked.content.decode())
    assert "La taille de table 9 n'est pas permise pour ce jeu (permises\u00a0: 2, 3" in french
    assert "is not legal" not in french
    english = html.unescape(client.post(url, {"table_sizes": ["4", "9"]}).content.decode())
    assert "Table size 9 is not legal for this game (legal: 2, 3" in english


def test_a_new_events_one_size_outside_the_game_is_refused_in_french(director):
    with pytest.raises(TournamentError) as refused:
        services.event_create(owner=director, name="Jeudi", game="roolz", options={}, table_size=9)
    with translation.override("fr-ca"):
        said = {p.field: problem_text(p) for p in refused.value.problems}
    assert said["table_size"].startswith("la taille de table 9 n'est pas permise pour ce jeu")


def test_a_round_the_core_cannot_seat_is_refused_in_french(director):
    event = event_of(director, "Ann", "Ben", "Cy", "Di")
    Event.objects.filter(pk=event.pk).update(format="no_such_format")  # a row gone stale
    with pytest.raises(TournamentError) as refused:
        services.tournament_round_generate(event=event)
    [problem] = refused.value.problems
    assert (problem.field, problem.round) == ("format", 1)
    with translation.override("fr-ca"):
        assert problem_text(problem).startswith("le format doit être l'un de ")


def test_the_swaps_ending_is_written_once():
    """The desk writes the ending a draft's method gets after a swap, and the seating's
    words read it back: one constant, so that the two cannot drift apart."""
    root = pathlib.Path(__file__).resolve().parents[2] / "tournaments"
    holding = [
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if '", then swapped by the director"' in path.read_text()
    ]
    assert holding == ["seating/core/words.py"]
