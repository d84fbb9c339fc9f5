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
from tournaments.events import me_selectors, selectors, services
from tournaments.models import ClubNight, Entrant, EntrantPlayer, Event, Player, Roster
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
def director_of():
    return lambda event: event.owner


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


def test_a_players_own_page_is_followed_by_its_token():
    assert live.followed_page("/me/AbC-_9/") == ("me", "AbC-_9", None)
    assert live.followed_page(reverse("tournaments:me", args=["Tok3n"])) == ("me", "Tok3n", None)
    for other in ("/me/", "/me/a/b/", "/me/AbC/check-in/", "/me/" + "x" * 33 + "/"):
        assert live.followed_page(other) is None
    said = live.logged_path("/me/Secret_Token-1/?rev=~ and /me/Other/?rev=1")
    assert "Secret" not in said and "Other" not in said and said.count("/me/…/") == 2


def test_own_links_lead_where_the_page_finds_them(event, director_of):
    owner = director_of(event)
    players = list(event.entrants.order_by("pk"))
    roster = Roster.objects.create(owner=owner)
    zoe, yan, xia = (
        Player.objects.create(roster=roster, name=name, folded=name.lower())
        for name in ("Zoe", "Yan", "Xia")
    )
    elsewhere = Roster.objects.create(owner=get_user_model().objects.create_user("another"))
    lone = Player.objects.create(roster=elsewhere, name="W", folded="w")
    ClubNight.objects.create(event=event, roster=roster)
    EntrantPlayer.objects.create(entrant=players[0], player=zoe)
    EntrantPlayer.objects.create(entrant=players[1], player=yan)
    tokens = [p.private_token for p in players] + [
        zoe.private_token, yan.private_token, xia.private_token, lone.private_token, "nobodys"
    ]  # fmt: skip
    led = live.own_pages(tokens)
    for token in tokens:
        own = me_selectors.own_link(token=token)
        if own is None:
            assert token not in led
            continue
        event_token = own.event.public_token if own.event else ""
        entrant = own.entrant.pk if own.entrant else None
        assert led[token] == live.OwnPage(event_token, entrant), own.name
    assert led[xia.private_token] == live.OwnPage(event.public_token, None)  # not tonight
    assert led[lone.private_token] == live.OwnPage("", None)  # no night at all
    assert "nobodys" not in led
    old = players[2].private_token
    services.entrant_link_reissue(event=event, entrant=players[2], user=owner)
    assert old not in live.own_pages([old])  # reissued: it leads nowhere


def test_the_facts_are_what_an_own_pages_poll_compares(event, client):
    players = list(event.entrants.order_by("pk"))
    facts = live.followed_event(event.public_token, entrants=[p.pk for p in players], own=True)
    for player in players:
        address = reverse("tournaments:me", args=[player.private_token])
        page = client.get(address).content
        rev = live.expected_rev("me", facts, player.pk)
        assert live.part_rev(page) == rev and live.part_path(page) == address
        assert client.get(address, {"rev": rev}, **HX).status_code == 204
    # Without the event's row (no own page followed yet) the rev is not known here.
    assert live.expected_rev("me", live.followed_event(event.public_token), players[0].pk) is None


def test_a_check_in_window_opens_in_the_rev_with_nothing_written(event, director_of):
    opens = timezone.now() + timedelta(minutes=10)
    services.event_self_service_set(
        event=event,
        self_check_in="window",
        opens_at=opens,
        closes_at=opens + timedelta(minutes=30),
        user=director_of(event),
    )
    player = event.entrants.order_by("pk").first()
    facts = live.followed_event(event.public_token, entrants=[player.pk], own=True)
    before = live.expected_rev("me", facts, player.pk, opens.timestamp() - 1)
    during = live.expected_rev("me", facts, player.pk, opens.timestamp() + 1)
    assert before != during
    assert live.part_key("me", before) != live.part_key("me", during)  # drawn anew
    assert during.endswith("." + me_selectors.check_in_state(facts.event, now=opens).key)


def test_a_page_ahead_of_the_facts_is_not_sent_back():
    assert live.facts_behind("12.0.0.0.1.5.0.0", "11.0.0.0.1.5.0.0")
    assert not live.facts_behind("11.0.0.0.1.5.0.0", "12.0.0.0.1.5.0.0")
    assert not live.facts_behind("~", "12.0.0.0.1.5.0.0")
    assert not live.facts_behind("9" * 40, "12.0.0.0.1.5.0.0")
