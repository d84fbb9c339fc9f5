"""Availability every round: only the players present are seated, away players score as
the event says, and a round does not start while a table of the round before plays."""

from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.helpers import ROOLZ_OPTIONS, play_table
from tournaments.events import selectors, services
from tournaments.events.availability import availability_for, tables_still_playing
from tournaments.models import Absence, Entrant, Event, TableSeat, TournamentRound

pytestmark = pytest.mark.django_db

CLUB = [f"Player {n:02d}" for n in range(1, 28)]


@pytest.fixture
def director():
    return get_user_model().objects.create_user("director", password="x")


def club_night(director, **extra) -> Event:
    event = services.event_create(
        owner=director,
        name="Club night",
        game="roolz",
        options=ROOLZ_OPTIONS,
        rounds_planned=3,
        table_size=4,
        **extra,
    )
    services.entrants_import_csv(event=event, text="\n".join(CLUB), user=director)
    return event


def seated_in(round_: TournamentRound) -> Counter[int]:
    """How often each entrant is placed in the round: at a table seat, or given a bye."""
    return Counter(
        [
            *TableSeat.objects.filter(table__round=round_).values_list("entrant", flat=True),
            *round_.byes.values_list("entrant", flat=True),
        ]
    )


def by_name(event: Event, name: str) -> Entrant:
    return event.entrants.get(name=name)


def check_in(event: Event, names, director, *, present: bool = True) -> None:
    for name in names:
        services.entrant_check_in(
            event=event, entrant=by_name(event, name), checked_in=present, user=director
        )


def play_round(round_: TournamentRound) -> None:
    for table in round_.tables.select_related("game"):
        play_table(table)


def test_club_night_27_registered_25_then_24(director):
    event = club_night(director)
    absent_all_night, leaves_after_one, arrives_late = CLUB[0], CLUB[1], CLUB[2]
    drops_after_one = CLUB[3]
    present_one = [n for n in CLUB if n not in (absent_all_night, arrives_late)]
    check_in(event, present_one, director)

    first = services.tournament_round_publish(
        event=event,
        round=services.tournament_round_generate(event=event, user=director),
        user=director,
    )
    seats = seated_in(first)
    assert set(seats) == {by_name(event, n).pk for n in present_one}  # 25, nobody absent
    assert set(seats.values()) == {1}  # nobody seated twice
    assert set(first.absences.values_list("entrant__name", flat=True)) == {
        absent_all_night,
        arrives_late,
    }
    play_round(first)

    # One goes home for a round (unticked, not dropped), one drops out for good, one
    # arrives late (ticked): 25 - 2 + 1 = 24.
    check_in(event, [leaves_after_one], director, present=False)
    services.entrant_drop(event=event, entrant=by_name(event, drops_after_one), user=director)
    check_in(event, [arrives_late], director)
    second = services.tournament_round_publish(
        event=event,
        round=services.tournament_round_generate(event=event, user=director),
        user=director,
    )
    seats = seated_in(second)
    present_two = [n for n in present_one if n not in (leaves_after_one, drops_after_one)] + [
        arrives_late
    ]
    assert len(present_two) == 24
    assert set(seats) == {by_name(event, n).pk for n in present_two}
    assert set(seats.values()) == {1}
    assert not by_name(event, leaves_after_one).dropped  # unticking never drops
    assert set(second.absences.values_list("entrant__name", flat=True)) == {
        absent_all_night,
        leaves_after_one,
    }
    play_round(second)

    # Whoever is away scores nothing for that round by default.
    played = {row.name: row for row in selectors.standings_for(event=event).rows}
    assert played[leaves_after_one].played + played[leaves_after_one].byes == 1
    assert played[arrives_late].played + played[arrives_late].byes == 1
    assert played[absent_all_night].played + played[absent_all_night].byes == 0
    assert played[CLUB[5]].played + played[CLUB[5]].byes == 2


def test_away_players_score_as_a_bye_when_the_event_says_so(director):
    event = club_night(director, bye_scoring=Event.ByeScoring.FIXED, bye_value=3)
    event = services.event_away_scoring_set(
        event=event, away_scoring=Event.AwayScoring.BYE, user=director
    )
    away = CLUB[0]
    check_in(event, CLUB[1:], director)
    first = services.tournament_round_publish(
        event=event,
        round=services.tournament_round_generate(event=event, user=director),
        user=director,
    )
    play_round(first)
    rows = {row.name: row for row in selectors.standings_for(event=event).rows}
    assert rows[away].byes == 1
    assert rows[away].played == 0
    assert rows[away].values[0] == pytest.approx(3)
    with pytest.raises(services.TournamentError) as refused:
        services.event_away_scoring_set(event=event, away_scoring="half", user=director)
    assert refused.value.problems[0].field == "away_scoring"


def test_nobody_checked_in_seats_everyone_every_round(director):
    event = club_night(director)
    first = services.tournament_round_generate(event=event, user=director)
    assert len(seated_in(first)) == 27
    assert not first.absences.exists()


def test_a_round_waits_for_the_tables_still_playing_unless_the_director_goes_on(director):
    event = club_night(director)
    check_in(event, CLUB, director)
    first = services.tournament_round_publish(
        event=event,
        round=services.tournament_round_generate(event=event, user=director),
        user=director,
    )
    tables = list(first.tables.select_related("game"))
    for table in tables[1:]:
        play_table(table)
    slow = set(TableSeat.objects.filter(table=tables[0]).values_list("entrant", flat=True))

    with pytest.raises(services.StillPlayingError) as refused:
        services.tournament_round_generate(event=event, user=director)
    assert [t.table_number for t in refused.value.tables] == [tables[0].number]
    assert set(refused.value.tables[0].entrant_ids) == slow
    assert "go on without them" in str(refused.value)

    draft = services.tournament_round_generate(event=event, user=director, go_on=True)
    assert slow and not slow & set(seated_in(draft))
    assert (
        set(draft.absences.filter(reason=Absence.Reason.PLAYING).values_list("entrant", flat=True))
        == slow
    )
    with pytest.raises(services.StillPlayingError):
        services.tournament_round_publish(event=event, round=draft, user=director)
    published = services.tournament_round_publish(
        event=event, round=draft, user=director, go_on=True
    )
    assert published.status == TournamentRound.Status.PUBLISHED


def test_a_draft_made_before_a_table_reopened_is_not_published_over_it(director):
    event = club_night(director)
    first = services.tournament_round_publish(
        event=event,
        round=services.tournament_round_generate(event=event, user=director),
        user=director,
    )
    play_round(first)
    draft = services.tournament_round_generate(event=event, user=director)
    # The first table is played again (its game reopened): its players are busy.
    table = first.tables.select_related("game").first()
    type(table.game).objects.filter(pk=table.game_id).update(status="in_progress")
    with pytest.raises(services.TournamentError) as refused:
        services.tournament_round_publish(event=event, round=draft, user=director, go_on=True)
    assert "Generate the draft again" in str(refused.value)
    assert refused.value.problems[0].round == 2


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    ticks=st.lists(st.booleans(), min_size=12, max_size=12),
    dropped=st.sets(st.integers(0, 11), max_size=3),
)
def test_the_draft_seats_exactly_the_available_players(director, ticks, dropped):
    """Property: whatever is ticked or dropped, the draft seats each available player once
    and nobody else, and records everyone else due as away."""
    event = services.event_create(owner=director, name="Prop", game="roolz", options=ROOLZ_OPTIONS)
    services.entrants_import_csv(
        event=event, text="\n".join(f"P{n}" for n in range(12)), user=director
    )
    entrants = list(event.entrants.order_by("pk"))
    for entrant, tick in zip(entrants, ticks, strict=True):
        Entrant.objects.filter(pk=entrant.pk).update(checked_in=tick)
    Entrant.objects.filter(pk__in=[entrants[i].pk for i in dropped]).update(dropped=True)
    wanted = availability_for(event, number=1)
    if len(wanted.seated) < 2:
        with pytest.raises(services.TournamentError):
            services.tournament_round_generate(event=event, user=director)
        return
    try:
        draft = services.tournament_round_generate(event=event, user=director)
    except services.TournamentError:
        return  # too few players for a table of this game: refused with a message
    seats = seated_in(draft)
    placed = set(seats)
    assert placed == wanted.seated_ids
    assert set(seats.values()) <= {1}
    away = set(draft.absences.values_list("entrant", flat=True))
    assert away == {e.pk for e in wanted.away}
    assert not away & placed
    assert not tables_still_playing(event)
