"""Ratings in seating: balanced tables spread strength, Swiss round 1 follows ratings."""

from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from hypothesis import given
from hypothesis import strategies as st

from tests.tournaments.helpers import ROOLZ_OPTIONS
from tournaments.club import services as club
from tournaments.club.core.balance import balanced_tables, seed_order
from tournaments.events import services
from tournaments.models import Event, Player, TableSeat


@given(
    st.lists(st.floats(-10, 40, allow_nan=False), min_size=4, max_size=40),
    st.integers(3, 5),
)
def test_each_table_takes_one_player_of_each_tier(strengths, size):
    players = list(range(len(strengths)))
    count = max(1, len(players) // size)
    sizes = [len(players) // count + (1 if i < len(players) % count else 0) for i in range(count)]
    strength = dict(enumerate(strengths))
    result = balanced_tables(players, sizes, strength)
    assert sorted(len(t) for t in result.tables) == sorted(sizes)
    assert sorted(p for t in result.tables for p in t) == players
    order = seed_order(players, strength)
    tier_of = {p: i // count for i, p in enumerate(order)}
    for table in result.tables:
        tiers = Counter(tier_of[p] for p in table)
        assert max(tiers.values()) == 1  # never two players of one tier at a table


def test_balanced_tables_are_closer_than_tables_by_strength():
    strength = {p: float(40 - p) for p in range(16)}
    grouped = [list(range(i, i + 4)) for i in range(0, 16, 4)]
    result = balanced_tables(list(range(16)), [4, 4, 4, 4], strength)
    means = [sum(strength[p] for p in t) / 4 for t in grouped]
    assert result.spread < (max(means) - min(means)) / 4


def test_later_rounds_mix_table_mates():
    strength = {p: float(p) for p in range(16)}
    first = balanced_tables(list(range(16)), [4] * 4, strength)
    met: Counter[frozenset[int]] = Counter()
    for table in first.tables:
        for a in table:
            for b in table:
                if a < b:
                    met[frozenset((a, b))] += 1
    second = balanced_tables(list(range(16)), [4] * 4, strength, met)
    repeats = sum(met[frozenset((a, b))] for t in second.tables for a in t for b in t if a < b)
    assert repeats < 6  # the same deal again would repeat all 24 pairs


@pytest.mark.django_db
@pytest.mark.usefixtures("eager_celery")
def test_a_balanced_club_night_spreads_rated_players_and_reports_table_means():
    director = get_user_model().objects.create_user("director")
    roster = club.roster_for(owner=director)
    names = [f"P{i:02d}" for i in range(16)]
    for i, name in enumerate(names):
        player = club.player_create(roster=roster, name=name)
        Player.objects.filter(pk=player.pk).update(mu=25.0 + 2 * (16 - i), sigma=2.0)
    event = services.event_create(
        owner=director, name="Balanced", game="roolz", options=ROOLZ_OPTIONS
    )
    services.entrants_import_csv(event=event, text="\n".join(names))
    club.club_night_set(event=event, balanced=True)
    round_ = services.tournament_round_generate(event=event)
    assert round_.report["method"] == "balanced tables"
    assert len(round_.report["table_means"]) == 4
    for table in round_.tables.all():
        seated = {s.entrant.name for s in TableSeat.objects.filter(table=table)}
        # One of the four strongest at each table, one of the four weakest.
        assert len(seated & set(names[:4])) == 1
        assert len(seated & set(names[-4:])) == 1


@pytest.mark.django_db
@pytest.mark.usefixtures("eager_celery")
def test_swiss_round_one_is_seeded_by_rating():
    director = get_user_model().objects.create_user("director")
    roster = club.roster_for(owner=director)
    names = [f"P{i:02d}" for i in range(12)]
    # Registered weakest first, so registration order and rating order differ.
    for i, name in enumerate(names):
        player = club.player_create(roster=roster, name=name)
        Player.objects.filter(pk=player.pk).update(mu=10.0 + 2 * i, sigma=1.0)
    event = services.event_create(
        owner=director, name="Swiss", game="roolz", options=ROOLZ_OPTIONS, format=Event.Format.SWISS
    )
    services.entrants_import_csv(event=event, text="\n".join(names))
    club.club_night_set(event=event)
    round_ = services.tournament_round_generate(event=event)
    tables = {
        t.number: {s.entrant.name for s in TableSeat.objects.filter(table=t)}
        for t in round_.tables.all()
    }
    assert tables[1] == set(names[-4:])  # the four strongest meet at table 1


@pytest.mark.django_db
@pytest.mark.usefixtures("eager_celery")
def test_a_bracket_seeded_by_rating_puts_the_strongest_first():
    from tournaments.brackets.services import stage_create

    director = get_user_model().objects.create_user("director")
    roster = club.roster_for(owner=director)
    names = [f"P{i}" for i in range(8)]
    for i, name in enumerate(names):
        player = club.player_create(roster=roster, name=name)
        Player.objects.filter(pk=player.pk).update(mu=10.0 + 3 * i, sigma=1.0)
    event = services.event_create(owner=director, name="Cup", game="roolz", options=ROOLZ_OPTIONS)
    services.entrants_import_csv(event=event, text="\n".join(names))
    club.club_night_set(event=event)
    stage = stage_create(event=event, kind="single", seeding="rating")
    by_id = {str(e.pk): e.name for e in event.entrants.all()}
    assert [by_id[s] for s in stage.seeds] == names[::-1]
