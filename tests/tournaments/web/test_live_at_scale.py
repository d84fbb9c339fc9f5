"""Standings kept once per change of the results, for every process and page; the players'
pages poll with what they show; the round clock on them; the desk's list preview paged;
a round's games written in bulk as one game at a time would write them."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from scoring.engines.base import parse_record
from scoring.engines.registry import ENGINES, engine_for
from scoring.models import Game, RoundEvent
from scoring.services import Actor, round_correct, round_undo
from tests.tournaments.helpers import DEALS, ROOLZ_OPTIONS, play_table
from tournaments.events import services
from tournaments.events.services import tournament_round_clock_start
from tournaments.models import Event
from tournaments.standings import adapter as results

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
DESK = Actor(desk=True, device="director's desk")


@pytest.fixture
def event(director, django_capture_on_commit_callbacks) -> Event:
    event = services.event_create(
        owner=director, name="Big hall", game="roolz", options=ROOLZ_OPTIONS, table_size=4
    )
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {n:02d}" for n in range(1, 25)), user=director
    )
    services.tournament_round_publish(
        event=event, round=services.tournament_round_generate(event=event), user=director
    )
    event.refresh_from_db()
    return event


def fresh(event: Event) -> list[tuple[int, int, tuple, int, int]]:
    """The standings computed now from the rows, nothing kept."""
    standings = results.event_standings(event)
    return [
        (row.rank, row.entrant, tuple(row.values.get(m) for m in standings.metrics), row.played,
         row.byes)
        for row in standings.rows
    ]  # fmt: skip


def kept(event: Event, *, lag: bool = False) -> list[tuple[int, int, tuple, int, int]]:
    event.refresh_from_db()
    return [
        (row.rank, row.entrant_id, row.values, row.played, row.byes)
        for row in results.kept_standings(event, lag=lag).rows
    ]


def committed(capture, action) -> None:
    """Run ``action`` and what it queued for after its commit (the event's new revision)."""
    with capture(execute=True):
        action()


def table(event: Event, number: int):
    return event.rounds.get().tables.select_related("game").get(number=number)


@pytest.fixture
def quiet(monkeypatch):
    """Changes seconds apart, as at a quiet event (a test makes them a moment apart), on
    a machine however busy (a computation never slow enough to be held for)."""
    monkeypatch.setattr(results, "STREAM_SECONDS", 0.0)
    monkeypatch.setattr(results, "SLOW_SECONDS", float("inf"))


def test_kept_standings_equal_fresh_ones_after_deals_corrections_and_undos(
    event, quiet, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    assert kept(event) == fresh(event)
    for number in (1, 2, 3):
        committed(capture, lambda n=number: play_table(table(event, n)))
        assert kept(event, lag=True) == fresh(event)  # a quiet event: at once
        assert kept(event) == fresh(event)
    # The desk corrects a finished table's last deal: the other side now wins it.
    game = table(event, 2).game
    before = kept(event)
    swapped = {"bidder": 0, "bid": 170, "won": {"A": 100, "B": 200}}
    committed(capture, lambda: round_correct(game=game, number=2, entry=swapped, actor=DESK))
    assert kept(event) == fresh(event) != before
    # The desk undoes it: the table no longer counts.
    committed(capture, lambda: round_undo(game=game, number=2, actor=DESK))
    assert Game.objects.get(pk=game.pk).status == Game.Status.IN_PROGRESS
    assert kept(event) == fresh(event)
    assert kept(event, lag=True) == fresh(event)


def test_while_results_stream_in_the_pages_show_the_standings_a_moment_behind(
    event, monkeypatch, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    committed(capture, lambda: play_table(table(event, 1)))
    shown = results.kept_standings(Event.objects.get(pk=event.pk), lag=True)
    committed(capture, lambda: play_table(table(event, 2)))
    second = results.kept_standings(Event.objects.get(pk=event.pk), lag=True)
    assert second.version != shown.version  # the first change after a quiet spell: at once
    committed(capture, lambda: play_table(table(event, 3)))
    moved = Event.objects.get(pk=event.pk)
    # Two changes a moment apart: the pages keep the second a few seconds more...
    assert results.kept_standings(moved, lag=True).version == second.version
    assert results.shown_version(moved) == second.version
    # ... the desk and every reader that asks for them now get them now.
    assert kept(moved) == fresh(moved)
    monkeypatch.setattr(results, "REFRESH_SECONDS", 0.0)  # the few seconds gone by
    assert kept(moved, lag=True) == fresh(moved)
    assert results.shown_version(moved) == results.results_version(moved)


def test_a_deal_at_a_table_still_playing_changes_the_revision_not_the_standings(
    event, django_capture_on_commit_callbacks
):
    version = results.results_version(event)
    game = table(event, 4).game
    committed(
        django_capture_on_commit_callbacks,
        lambda: services_record(game, DEALS[4][0]),
    )
    moved = Event.objects.get(pk=event.pk)
    assert moved.revision > event.revision
    assert results.results_version(moved) == version


def services_record(game: Game, entry: dict) -> None:
    from scoring.services import round_record

    round_record(game=game, number=1, entry=entry, actor=Actor(seat=0, device="phone 0"))


def test_one_process_computes_while_the_others_show_the_latest(event):
    first = results.kept_standings(event)
    play_table(table(event, 1))
    # Another process is computing the new standings: a page shows the latest kept meanwhile.
    lock = f"standings-computing:{event.public_token}"
    assert cache.add(lock, "elsewhere", 30)
    try:
        shown = results.kept_standings(event, lag=True)
        assert shown.version == first.version
        assert [r.rank for r in shown.rows] == [r.rank for r in first.rows]
    finally:
        cache.delete(lock)
    # Once it is done (here: the lock gone), the standings of the results now.
    now = results.kept_standings(event)
    assert now.version != first.version
    assert [(r.rank, r.entrant_id) for r in now.rows] == [(r[0], r[1]) for r in fresh(event)]


def live_rev(html: str) -> str:
    found = re.search(r'id="live" hx-get="[^"]*\?rev=([^&"]+)', html)
    assert found, html[:300]
    return found.group(1)


def pages(event: Event) -> dict[str, str]:
    token = event.public_token
    someone = table(event, 1).seats.order_by("seat").first().entrant_id
    return {
        "standings": reverse("tournaments:standings", args=[token]),
        "own page": reverse("tournaments:entrant", args=[token, someone]),
        "projector": reverse("tournaments:projector", args=[token]),
    }


def test_a_poll_is_answered_204_until_its_page_changes(
    client, event, quiet, django_capture_on_commit_callbacks
):
    addresses = pages(event)
    shown = {name: live_rev(client.get(a).content.decode()) for name, a in addresses.items()}
    for name, address in addresses.items():
        assert client.get(address, {"rev": shown[name]}, **HX).status_code == 204, name
    # A table far from the player's plays a deal: the event's revision moves, nothing shown.
    committed(django_capture_on_commit_callbacks, lambda: services_record(table(event, 5).game,
              DEALS[4][0]))  # fmt: skip
    for name, address in addresses.items():
        assert client.get(address, {"rev": shown[name]}, **HX).status_code == 204, name
    # The player's table finishes: every page shows it at its next poll.
    committed(django_capture_on_commit_callbacks, lambda: play_table(table(event, 1)))
    for name, address in addresses.items():
        response = client.get(address, {"rev": shown[name]}, **HX)
        assert response.status_code == 200, name
        html = response.content.decode()
        assert live_rev(html) != shown[name], name
        assert 'id="live"' in html
    standings = client.get(addresses["standings"], {"rev": shown["standings"]}, **HX)
    ranked = results.kept_standings(Event.objects.get(pk=event.pk)).rows
    assert f'id="standing-{ranked[0].entrant_id}"' in standings.content.decode()


def test_a_correction_reaches_the_poll_of_a_page_showing_the_table(
    client, event, quiet, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    committed(capture, lambda: play_table(table(event, 1)))
    addresses = pages(event)
    own = addresses["own page"]
    html = client.get(own).content.decode()
    assert "finished <strong>1st</strong>" in html
    rev = live_rev(html)
    game = table(event, 1).game
    swapped = {"bidder": 0, "bid": 170, "won": {"A": 100, "B": 200}}
    committed(capture, lambda: round_correct(game=game, number=2, entry=swapped, actor=DESK))
    polled = client.get(own, {"rev": rev}, **HX)
    assert polled.status_code == 200
    assert "finished <strong>1st</strong>" not in polled.content.decode()


def test_the_round_clock_is_on_the_standings_and_a_players_page(
    client, event, director, django_capture_on_commit_callbacks
):
    tournament_round_clock_start(event=event, round=event.rounds.get(), minutes=40, user=director)
    for name, address in pages(event).items():
        html = client.get(address).content.decode()
        assert "data-clock" in html and "Time left" in html, name
        # The poll's live part, kept for every phone, carries the clock drawn for each.
        polled = client.get(address, {"rev": "0"}, **HX).content.decode()
        assert "<!--round-clock-->" not in polled, name
        assert re.search(r'data-clock-left="(23\d\d|2400)"', polled), name


@pytest.fixture
def registering(director) -> Event:
    event = services.event_create(owner=director, name="Sign-up", game="roolz")
    services.entrants_import_csv(event=event, text="Player 01", user=director)
    return event


def test_the_desk_previews_a_long_list_a_page_of_it(client, director, registering):
    event = registering
    client.force_login(director)
    names = "\n".join(f"Newcomer {n:04d}" for n in range(300))
    address = reverse("tournaments:entrants_csv", args=[event.pk])
    html = client.post(address, {"text": names}, **HX).content.decode()
    assert "300 players to register, the first 50 shown" in html
    preview = html[html.index('class="small preview-list"') :]
    preview = preview[: preview.index("</ol>")]
    assert preview.count("<li value=") == 50
    assert "… and 250 more players." in html
    assert "Newcomer 0049" in preview and "Newcomer 0050" not in preview
    assert "Register 300 players" in html


def test_the_desk_lists_the_first_problems_of_a_long_list_and_counts_the_rest(
    client, director, registering
):
    event = registering
    client.force_login(director)
    names = "\n".join(["Player 01"] * 120)  # taken already, 120 times
    address = reverse("tournaments:entrants_csv", args=[event.pk])
    html = client.post(address, {"text": names}, **HX).content.decode()
    errors = html[html.index('id="csv-errors"') :]
    assert errors.count("<li>") == 50
    assert "… and 70 more problems further down the list." in errors
    assert event.entrants.filter(name="Player 01").count() == 1


def test_a_rounds_games_written_in_bulk_are_those_one_game_at_a_time_writes(event):
    tables = list(event.rounds.get().tables.select_related("game").order_by("number"))
    tokens = set()
    for one in tables:
        game = one.game
        seated = list(one.seats.order_by("seat").select_related("entrant"))
        names = [s.entrant.name for s in seated]
        assert [s.name for s in game.seats.order_by("number")] == names
        record = {
            "game": "roolz",
            "players": names,
            "options": game.options,
            "first_dealer": game.first_dealer,
        }
        scored = engine_for("roolz").score(parse_record(record, ENGINES))
        assert game.score_cache == scored.standing()
        assert [s.team for s in game.seats.order_by("number")] == [
            next(label for label, members in scored.teams.items() if n in members)
            for n in range(len(names))
        ]
        assert game.is_tournament_game and game.revision == 1 and game.last_round_number == 0
        events = list(RoundEvent.objects.filter(game=game))
        assert [e.action for e in events] == [RoundEvent.Action.CREATE]
        assert events[0].after["players"] == names
        tokens |= {game.table_token, game.view_token}
    assert len(tokens) == 2 * len(tables)  # every link its own
