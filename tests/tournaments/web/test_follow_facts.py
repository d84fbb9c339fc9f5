"""What the follow process answers from (``tournaments.web.live``): the pages it follows,
an event's facts read in bulk equal to what each page's own poll compares, and the parts
it puts right (a player's rank and rev, the round clock) as the pages draw them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.helpers import DEALS, ROOLZ_OPTIONS, enter_and_confirm, play_table
from tournaments.events import selectors, services
from tournaments.models import Entrant, Event
from tournaments.web import live

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def new_event(owner, name: str) -> Event:
    event = services.event_create(
        owner=owner, name=name, game="roolz", options=ROOLZ_OPTIONS, table_size=4
    )
    services.entrants_import_csv(
        event=event, text="\n".join(f"Player {n:02d}" for n in range(1, 13)), user=owner
    )
    services.tournament_round_publish(
        event=event, round=services.tournament_round_generate(event=event), user=owner
    )
    return Event.objects.get(pk=event.pk)


@pytest.fixture
def event(django_capture_on_commit_callbacks) -> Event:
    owner = get_user_model().objects.create_user("director", password="pw")
    event = new_event(owner, "Followed")
    tables = list(event.rounds.get().tables.select_related("game").order_by("number"))
    with django_capture_on_commit_callbacks(execute=True):
        play_table(tables[0])
        enter_and_confirm(tables[1].game, 1, DEALS[4][0])
    new_event(owner, "Another")  # its players are not this event's
    return Event.objects.get(pk=event.pk)


def test_the_pages_it_follows():
    assert live.followed_page("/e/AbC-_9/standings/") == ("standings", "AbC-_9", None)
    assert live.followed_page("/e/AbC/projector/") == ("projector", "AbC", None)
    assert live.followed_page("/e/AbC/players/42/") == ("entrant", "AbC", 42)
    for other in ("/e/AbC/", "/e/AbC/players/x/", "/e/a/b/standings/", "/t/AbC/", "/e//standings/"):
        assert live.followed_page(other) is None
    token = "AbC"
    assert live.followed_page(reverse("tournaments:standings", args=[token]))
    assert live.followed_page(reverse("tournaments:projector", args=[token]))
    assert live.followed_page(reverse("tournaments:entrant", args=[token, 7]))


def test_the_tables_keys_in_bulk_are_each_players_own(event):
    everyone = list(Entrant.objects.all())
    keys = selectors.entrants_tables_keys(event=event, entrant_ids=[e.pk for e in everyone])
    mine = [e for e in everyone if e.event_id == event.pk]
    assert keys == {e.pk: selectors.entrant_tables_key(event=event, entrant=e) for e in mine}
    assert len(set(keys.values())) > 1  # a table finished, one playing, one not begun


def test_the_facts_are_what_each_pages_poll_compares(event, client):
    players = list(event.entrants.order_by("pk"))
    facts = live.followed_event(event.public_token, entrants=[p.pk for p in players] + [0])
    assert not facts.missing and facts.unknown == frozenset({0})
    standings = reverse("tournaments:standings", args=[event.public_token])
    polled = client.get(standings, {"rev": live.expected_rev("standings", facts, None)}, **HX)
    assert polled.status_code == 204
    projector = reverse("tournaments:projector", args=[event.public_token])
    polled = client.get(projector, {"rev": live.expected_rev("projector", facts, None)}, **HX)
    assert polled.status_code == 204
    for player in players:
        address = reverse("tournaments:entrant", args=[event.public_token, player.pk])
        rev = live.expected_rev("entrant", facts, player.pk)
        assert client.get(address, {"rev": rev}, **HX).status_code == 204
    assert live.followed_event("no-such-event").missing


def test_a_players_part_put_right_is_the_part_drawn(event, client):
    """A player's part drawn at an older version, its rev and rank put right from the
    facts, is the part the page draws now."""
    player = event.rounds.get().tables.get(number=1).seats.get(seat=1).entrant
    address = reverse("tournaments:entrant", args=[event.public_token, player.pk])
    drawn = client.get(address, {"rev": "~"}, **HX).content
    facts = live.followed_event(event.public_token, entrants=[player.pk])
    expected = live.expected_rev("entrant", facts, player.pk)
    assert live.part_rev(drawn) == expected
    assert b"<strong data-rank>" in drawn
    old = live.with_rank(live.with_rev(drawn, "0.0.0.0.0.0.1.1"), 99)
    assert b"<strong data-rank>99</strong>" in old
    assert live.entrant_part_key(expected)[2] == facts.tables[player.pk]
    assert facts.ranks is not None
    put_right = live.with_rank(live.with_rev(old, expected), facts.ranks[player.pk])
    assert put_right == drawn


@pytest.mark.parametrize("state", ["running", "paused", "up", "off"])
def test_the_clock_as_the_pages_draw_it(state):
    now = timezone.now()
    if state == "running":
        clock = selectors.Clock("running", now + timedelta(seconds=125.5), None)
    elif state == "up":
        clock = selectors.Clock("running", now - timedelta(seconds=3), None)
    elif state == "paused":
        clock = selectors.Clock("paused", None, 61)
    else:
        clock = selectors.Clock("off", None, None)
    drawn = live.clock_html(clock, now.timestamp()).decode()
    left = (
        max(0, int((clock.ends_at - now).total_seconds())) if clock.ends_at else clock.seconds_left
    )
    page = render_to_string(
        "scoring/_clock.html", {"clock": selectors.Clock(clock.state, clock.ends_at, left)}
    )
    assert drawn == page
    assert (state == "off") == (drawn.strip() == "")
