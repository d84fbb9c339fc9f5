"""A seated round written in bulk is the plan the seating core made: every table in
order, every seat in seat order, every bye; publishing it a part at a time tells how far
it got and ends with the same tables and players."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.helpers import ROOLZ_OPTIONS, play_table
from tournaments.events import services
from tournaments.models import Bye, Event, TableSeat, TournamentRound
from tournaments.seating import adapter as seating

pytestmark = pytest.mark.django_db


def event_of(players: int, table_size: int | None, name: str) -> Event:
    owner = get_user_model().objects.create_user(name)
    event = services.event_create(
        owner=owner, name=name, game="roolz", options=ROOLZ_OPTIONS, table_size=table_size
    )
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {n:03d}" for n in range(players)), user=owner
    )
    return event


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(players=st.integers(2, 61), table_size=st.sampled_from([None, 4]))
def test_a_draft_written_in_bulk_is_the_plan_of_the_seating_core(players, table_size):
    event = event_of(players, table_size, f"Hall {Event.objects.count()}")
    draft = services.tournament_round_generate(event=event)
    inputs = seating.seating_inputs(Event.objects.get(pk=event.pk), number=1)
    plan = seating.plan_for(inputs)  # the core again, on the same seed: the same plan
    tables, byes = seating.draft_tables(draft)
    assert tables == [tuple(t) for t in plan.tables]
    assert sorted(seating.unslot(s)[0] for s in byes) == sorted(
        {seating.unslot(s)[0] for s in plan.byes}
    )
    assert list(draft.tables.order_by("number").values_list("number", flat=True)) == list(
        range(1, len(plan.tables) + 1)
    )
    seated = list(TableSeat.objects.filter(table__round=draft).values_list("entrant_id", flat=True))
    in_byes = list(Bye.objects.filter(round=draft).values_list("entrant_id", flat=True))
    assert sorted(seated + in_byes) == sorted(event.entrants.values_list("pk", flat=True))
    assert draft.report == plan.report.as_dict() | {"seconds": draft.report["seconds"]}


def test_a_draft_seated_again_is_written_again_in_place_of_the_first():
    event = event_of(24, 4, "Again")
    first = services.tournament_round_generate(event=event)
    second = services.tournament_round_generate(event=event, effort=2)
    assert not TournamentRound.objects.filter(pk=first.pk).exists()
    assert second.tables.count() == 6
    assert TableSeat.objects.filter(table__round__event=event).count() == 24


def test_publishing_a_part_at_a_time_tells_how_far_it_got_and_keeps_the_seats():
    event = event_of(24, 4, "Parts")
    draft = services.tournament_round_generate(event=event)
    seats = list(
        TableSeat.objects.filter(table__round=draft)
        .order_by("table__number", "seat")
        .values_list("table__number", "seat", "entrant__name")
    )
    told = [
        services.tournament_round_publish_part(event=event, round=draft, most=4) for _ in range(2)
    ]
    assert told == [(4, 6), (6, 6)]
    published = services.tournament_round_publish(event=event, round=draft)
    assert published.status == TournamentRound.Status.PUBLISHED
    for table in published.tables.select_related("game").order_by("number"):
        names = [name for number, _, name in seats if number == table.number]
        assert [s.name for s in table.game.seats.order_by("number")] == names


def test_a_draft_refused_at_its_first_part_makes_no_game():
    """The checks come before the first part: a table of round 1 still playing refuses
    round 2 unless the director goes on, and nothing is made meanwhile."""
    event = event_of(8, 4, "Refused")
    services.tournament_round_publish(
        event=event, round=services.tournament_round_generate(event=event)
    )
    play_table(event.rounds.get(number=1).tables.get(number=1))
    draft = services.tournament_round_generate(
        event=event, go_on=True
    )  # the players still playing: out
    with pytest.raises(services.StillPlayingError):
        services.tournament_round_publish_part(event=event, round=draft, most=4)
    assert not draft.tables.filter(game__isnull=False).exists()
    assert services.tournament_round_publish_part(event=event, round=draft, most=4, go_on=True) == (
        1,
        1,
    )
    with pytest.raises(services.StillPlayingError):
        services.tournament_round_publish(event=event, round=draft)  # checked again when published
    assert (
        services.tournament_round_publish(event=event, round=draft, go_on=True).status
        == "published"
    )
