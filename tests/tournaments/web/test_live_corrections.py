"""While results stream in, the players' pages may show the standings a few seconds
behind, but only while the change is more tables counting: a correction or an undo at a
table the standings shown count shows at the next poll."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import Game
from scoring.services import Actor, round_correct, round_undo
from tests.tournaments.helpers import ROOLZ_OPTIONS, play_table
from tournaments.events import services
from tournaments.models import Event
from tournaments.standings import adapter as results

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
DESK = Actor(desk=True, device="director's desk")
SWAPPED = {"bidder": 0, "bid": 170, "won": {"A": 100, "B": 200}}  # the other side wins


def new_event(owner, name: str = "Big hall") -> Event:
    event = services.event_create(
        owner=owner, name=name, game="roolz", options=ROOLZ_OPTIONS, table_size=4
    )
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {n:02d}" for n in range(1, 25)), user=owner
    )
    services.tournament_round_publish(
        event=event, round=services.tournament_round_generate(event=event), user=owner
    )
    return Event.objects.get(pk=event.pk)


@pytest.fixture
def event(director) -> Event:
    return new_event(director)


def now(event: Event) -> Event:
    return Event.objects.get(pk=event.pk)


def game_at(event: Event, number: int) -> Game:
    return event.rounds.get().tables.select_related("game").get(number=number).game


def fresh(event: Event) -> list[tuple[int, int, tuple]]:
    standings = results.event_standings(event)
    return [
        (row.rank, row.entrant, tuple(row.values.get(m) for m in standings.metrics))
        for row in standings.rows
    ]


def shown(event: Event) -> list[tuple[int, int, tuple]]:
    """What a player's page shows now (the standings as kept, a moment behind allowed)."""
    return [
        (row.rank, row.entrant_id, row.values)
        for row in results.kept_standings(now(event), lag=True).rows
    ]


def streaming(event: Event, django_capture_on_commit_callbacks) -> None:
    """Tables finish a moment apart: the pages now hold the standings a few seconds."""
    for number in (1, 2, 3):
        with django_capture_on_commit_callbacks(execute=True):
            play_table(event.rounds.get().tables.get(number=number))
        results.kept_standings(now(event), lag=True)


def test_while_streaming_a_table_finishing_is_held_a_moment(
    event, django_capture_on_commit_callbacks
):
    streaming(event, django_capture_on_commit_callbacks)
    held = results.kept_standings(now(event), lag=True).version
    with django_capture_on_commit_callbacks(execute=True):
        play_table(event.rounds.get().tables.get(number=4))
    assert results.results_version(now(event)) != held
    assert results.shown_version(now(event)) == held  # more tables counting: held
    assert results.kept_standings(now(event), lag=True).version == held


@pytest.mark.parametrize("change", ["correct", "undo"])
def test_while_streaming_a_correction_or_an_undo_shows_at_once(
    event, change, django_capture_on_commit_callbacks
):
    streaming(event, django_capture_on_commit_callbacks)
    before = shown(event)
    game = game_at(event, 1)  # counted by the standings shown (the first change: at once)
    with django_capture_on_commit_callbacks(execute=True):
        if change == "correct":
            round_correct(game=game, number=2, entry=SWAPPED, actor=DESK)
        else:
            round_undo(game=game, number=2, actor=DESK)
    moved = now(event)
    assert results.shown_version(moved) == results.results_version(moved)
    assert shown(event) == fresh(moved) != before


def test_a_correction_with_a_table_finishing_beside_it_shows_at_once(
    event, django_capture_on_commit_callbacks
):
    streaming(event, django_capture_on_commit_callbacks)
    game = game_at(event, 1)  # counted by the standings shown (the first change: at once)
    with django_capture_on_commit_callbacks(execute=True):
        play_table(event.rounds.get().tables.get(number=4))  # more tables counting...
        round_correct(game=game, number=1, entry=SWAPPED, actor=DESK)  # ... and a correction
    assert shown(event) == fresh(now(event))


def test_the_standings_poll_brings_a_correction_at_the_next_poll_while_streaming(
    client, event, django_capture_on_commit_callbacks
):
    streaming(event, django_capture_on_commit_callbacks)
    address = reverse("tournaments:standings", args=[event.public_token])
    rev = f"s{results.shown_version(now(event))}"
    assert client.get(address, {"rev": rev}, **HX).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        round_correct(game=game_at(event, 1), number=2, entry=SWAPPED, actor=DESK)
    polled = client.get(address, {"rev": rev}, **HX)
    assert polled.status_code == 200
    first = fresh(now(event))[0][1]
    assert f'id="standing-{first}"' in polled.content.decode()
    assert f"rev=s{results.results_version(now(event))}" in polled.content.decode()


STEPS = st.lists(
    st.tuples(st.sampled_from(["finish", "correct", "undo"]), st.integers(0, 5)),
    min_size=1,
    max_size=6,
)


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=STEPS)
def test_a_page_shows_the_results_now_or_behind_by_tables_finishing_alone(
    steps, django_capture_on_commit_callbacks
):
    """Whatever happens at the tables, a page shows the standings of the results now, or
    (while streaming) those of results from which only more tables have finished."""
    owner = get_user_model().objects.create_user(f"director {Event.objects.count()}")
    event = new_event(owner, name=f"Hall {owner.pk}")
    tables = list(event.rounds.get().tables.order_by("number"))
    state = ["new"] * len(tables)  # new, finished, changed (corrected or undone)
    results.kept_standings(now(event), lag=True)
    counted: set[int] = set()  # the tables the standings kept last counted
    for step, index in steps:
        table = tables[index]
        with django_capture_on_commit_callbacks(execute=True):
            if step == "finish" and state[index] == "new":
                play_table(table)
                state[index] = "finished"
            elif step in ("correct", "undo") and state[index] == "finished":
                game = Game.objects.get(pk=table.game_id)
                if step == "correct":
                    round_correct(game=game, number=2, entry=SWAPPED, actor=DESK)
                else:
                    round_undo(game=game, number=2, actor=DESK)
                state[index] = "changed"
            else:
                continue
        kept = results.kept_standings(now(event), lag=True)
        current = results.results_version(now(event))
        if kept.version == current:
            assert [(r.rank, r.entrant_id, r.values) for r in kept.rows] == fresh(now(event))
            counted = {number for number, stage in enumerate(state) if stage != "new"}
        else:  # held: what changed since is tables finishing, nothing else (a table
            # corrected before the standings shown counted it is one more finishing)
            assert step == "finish" or index not in counted
            assert results.only_more_counted(now(event), kept.version, current)


def test_while_deals_stream_in_the_version_is_found_a_few_times_a_second_for_everyone(
    event, monkeypatch, django_capture_on_commit_callbacks
):
    """A new revision every few milliseconds: the results' version (a query over the
    event's games) is found at most every VERSION_EVERY seconds, for every process."""
    monkeypatch.setattr(results, "VERSION_EVERY", 3600.0)
    first = results.results_version(now(event))
    with django_capture_on_commit_callbacks(execute=True):
        play_table(event.rounds.get().tables.get(number=1))
    moved = now(event)
    assert moved.revision > event.revision
    assert results.results_version(moved) == first  # found a moment ago: answered as is
    assert results.results_version(moved, cached=False) != first  # the desk: found anew
    assert results.results_version(moved) != first  # and kept for everyone
    # Past VERSION_EVERY, the next revision's version is found anew.
    with django_capture_on_commit_callbacks(execute=True):
        play_table(event.rounds.get().tables.get(number=2))
    later = now(event)
    kept = results.results_version(later)
    monkeypatch.setattr(results, "VERSION_EVERY", 0.0)
    assert results.results_version(later) != kept
    assert results.results_version(later) == results.results_version(later, cached=False)
