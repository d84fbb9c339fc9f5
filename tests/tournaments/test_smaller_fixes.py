"""The smaller fixes of the desk: each with the case that showed it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournaments.helpers import ROOLZ_OPTIONS
from tournaments.brackets import services as brackets
from tournaments.errors import TournamentError
from tournaments.events import selectors, services
from tournaments.models import TableSeat

pytestmark = pytest.mark.django_db

TEAMS = [("Aces", ["Ann", "Ben"]), ("Bears", ["Cat", "Dan"]), ("Cats", ["Eve", "Fay"])]


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="pw", is_staff=True)


def test_seat_search_folds_letters_without_a_decomposed_accent(director, client):
    event = services.event_create(owner=director, name="N", game="roolz", options=ROOLZ_OPTIONS)
    services.entrants_import_csv(event=event, text="Łukasz\nBjørn\nÆsa\nDan", user=director)
    draft = services.tournament_round_generate(event=event, user=director)
    services.tournament_round_publish(event=event, round=draft, user=director)
    for typed, name in (("lukasz", "Łukasz"), ("bjorn", "Bjørn"), ("aesa", "Æsa")):
        found = selectors.seat_find(event=event, query=typed)
        assert [f.name for f in found] == [name], typed
    assert selectors.folded("ŁÓDŹ") == "lodz"


def test_only_the_player_who_deals_first_is_told_so(director, client):
    event = services.event_create(owner=director, name="N", game="roolz", options=ROOLZ_OPTIONS)
    services.entrants_import_csv(event=event, text="Ann A\nAnn B\nAnn C\nAnn D", user=director)
    draft = services.tournament_round_generate(event=event, user=director)
    services.tournament_round_publish(event=event, round=draft, user=director)
    found = selectors.seat_find(event=event, query="ann")
    assert len(found) == 4
    assert sum(f.deals_first for f in found) == 1
    page = client.get(
        reverse("tournaments:seat_search", args=[event.public_token]), {"q": "ann"}
    ).content.decode()
    assert page.count("You deal first.") == 1


def test_a_swap_keeps_the_seatings_own_method_in_the_report(director):
    event = services.event_create(owner=director, name="N", game="roolz", options=ROOLZ_OPTIONS)
    services.entrants_import_csv(
        event=event, text="\n".join(f"P{n}" for n in range(8)), user=director
    )
    draft = services.tournament_round_generate(event=event, user=director)
    method = draft.report["method"]
    seats = list(TableSeat.objects.filter(table__round=draft).order_by("table__number", "seat"))
    first, second = seats[0].entrant, seats[-1].entrant
    swapped = services.tournament_round_swap(event=event, round=draft, first=first, second=second)
    assert swapped.after["method"] == f"{method}, then swapped by the director"
    again = services.tournament_round_swap(event=event, round=draft, first=first, second=second)
    assert again.after["method"] == f"{method}, then swapped by the director"


def test_a_team_draft_names_the_team_beside_its_members(director, client):
    event = services.event_create(owner=director, name="Derby", game="roller_derby")
    for name, members in TEAMS[:2]:
        services.entrant_add(event=event, name=name, members=members, user=director)
    draft = services.tournament_round_generate(event=event, user=director)
    client.force_login(director)
    page = client.get(reverse("tournaments:desk_round", args=[event.pk, draft.number]))
    text = page.content.decode()
    for team, members in TEAMS[:2]:
        for member in members:
            shown = f'<span class="seat-name">{member}</span> '
            assert shown + f'<small class="muted seat-team">{team}</small>' in text


def test_an_override_error_names_players_not_ids(director):
    event = services.event_create(owner=director, name="Derby", game="roller_derby")
    for name, members in TEAMS:
        services.entrant_add(event=event, name=name, members=members, user=director)
    stage = brackets.stage_create(event=event, kind="single", user=director)
    match = next(g for g in stage.games.all())
    seated = sorted(set(match.seats))
    with pytest.raises(TournamentError) as refused:
        brackets.bracket_override(
            event=event, match=match.match, finish=seated[:1], reason="forfeit", user=director
        )
    message = str(refused.value)
    names = sorted(event.entrants.filter(pk__in=seated).values_list("name", flat=True))
    assert message.endswith(": " + ", ".join(names))
    for pk in seated:
        assert str(pk) not in message.split(": ", 1)[1]
