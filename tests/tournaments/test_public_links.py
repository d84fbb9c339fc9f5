"""What a stranger with only an event's public code can reach, and what they can change.

The crawler starts from the demo event's public pages, follows every link anonymously
(hrefs, sources, form actions, htmx polls), and fails on any entry link or table token in
any attribute or text, and on any player's own link (``/me/...``) or private token, an
entrant's or a roster player's. Then every token it found is tried against every
state-changing endpoint, the table pages' and the API's: nothing changes.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from scoring.models import ChangeRequest, Game, Round, RoundEvent
from tests.tournaments.brackets.test_flow import TEAMS
from tournaments.club import services as club
from tournaments.events import services
from tournaments.models import Entrant, Event, Player

pytestmark = pytest.mark.django_db

URL_ATTRIBUTES = {"href", "src", "action", "hx-get", "hx-post", "data-share", "value", "content"}
TOKEN = re.compile(r"[-\w]{16,64}")
SKIPPED = ("/static/", "/admin/", "/accounts/", "/desk/", "/events/")


class Links(HTMLParser):
    """Every attribute value and text of a page, and the same-site URLs among them."""

    def __init__(self) -> None:
        super().__init__()
        self.values: list[str] = []
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            self.values.append(value)
            if name in URL_ATTRIBUTES and value.startswith(("/", "http://testserver")):
                self.urls.append(value)

    def handle_data(self, data: str) -> None:
        self.values.append(data)


def crawl(client: Client, start: list[str]) -> tuple[dict[str, str], set[str]]:
    """Every page reachable from ``start`` (GET, anonymously, htmx polls too): {url: html},
    and every token-like path segment of every URL met."""
    pages: dict[str, str] = {}
    tokens: set[str] = set()
    queue = list(start)
    while queue:
        url = queue.pop()
        path = urlsplit(url).path
        if url in pages or path.startswith(SKIPPED) or len(pages) > 400:
            continue
        tokens.update(segment for segment in path.split("/") if TOKEN.fullmatch(segment))
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            response = client.get(url, **headers)
            assert response.status_code in (200, 204, 302, 404, 405), (url, response.status_code)
            if response.status_code == 302:
                queue.append(urljoin(url, response["Location"]))
                continue
            if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
                continue
            html = response.content.decode()
            pages[url if not headers else url + " (htmx)"] = html
            parser = Links()
            parser.feed(html)
            for found in parser.urls:
                found = found.removeprefix("http://testserver")
                queue.append(urljoin(url, found.split("#")[0]))
        pages.setdefault(url, "")
    return pages, tokens


def assert_no_entry_link(pages: dict[str, str]) -> None:
    secrets = set(Game.objects.values_list("table_token", flat=True))
    assert secrets
    for url, html in pages.items():
        parser = Links()
        parser.feed(html)
        for value in parser.values:
            assert not re.search(r"/t/[-\w]{16,}", value), f"{url} links an entry page: {value}"
            leaked = [secret for secret in secrets if secret in value]
            assert not leaked, f"{url} carries a table token in {value[:120]!r}"
        assert not any(secret in html for secret in secrets), f"{url} carries a table token"


def assert_no_private_link(pages: dict[str, str]) -> None:
    """No page carries a player's own link, nor anyone's private token, anywhere."""
    secrets = set(Entrant.objects.values_list("private_token", flat=True))
    secrets |= set(Player.objects.values_list("private_token", flat=True))
    assert secrets
    for url, html in pages.items():
        assert not re.search(r"/me/[^\s\"'<>]+", html), f"{url} links a player's own page"
        leaked = [secret for secret in secrets if secret in html]
        assert not leaked, f"{url} carries a player's private token"


def state() -> tuple:
    """Everything a change would touch, to compare before and after."""
    return (
        RoundEvent.objects.count(),
        ChangeRequest.objects.count(),
        sorted(Round.objects.values_list("game_id", "number", "status", "entry")),
        sorted(Game.objects.values_list("pk", "revision", "status", "ending", "closed_by_desk")),
    )


def table_changes(token: str) -> list[tuple[str, dict]]:
    """Every state-changing request of the table pages, made with ``token``."""
    deal = {"number": "1", "bidder": "0", "bid": "170", "won-A": "200", "revision": "0"}
    return [
        (f"/t/{token}/entry/", {**deal, "number": "3", "action": "save"}),
        (f"/t/{token}/entry/", {"number": "3", "action": "misdeal"}),
        (f"/t/{token}/seat/", {"seat": "1"}),
        (f"/t/{token}/end/", {"how": "reopen", "revision": "0"}),
        (f"/t/{token}/end/", {"how": "early", "revision": "0"}),
        (f"/t/{token}/undo/", {"number": "2", "revision": "0"}),
        (f"/t/{token}/rematch/", {}),
        (f"/t/{token}/requests/1/", {"answer": "accept", "seat": "1"}),
        (f"/t/{token}/rounds/1/confirm/", {"seat": "1"}),
        (f"/t/{token}/rounds/2/confirm/", {"seat": "1"}),
        (f"/t/{token}/rounds/1/correct/", deal),
        (f"/v/{token}/", {}),
        (f"/v/{token}/live/", {}),
    ]


def try_every_change(client: Client, tokens: set[str]) -> None:
    """Post every change with every token, to the table pages and the API: none may succeed."""
    games = list(Game.objects.values_list("pk", flat=True))
    for token in tokens:
        for url, data in table_changes(token):
            response = client.post(url, data)
            assert response.status_code in (404, 405), (url, response.status_code)
        bearer = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
        for game_id in games:
            base = f"/api/games/{game_id}/"
            body = {"number": 3, "round": {"bidder": 0, "bid": 170, "won": {"A": 200, "B": 100}}}
            calls = [
                ("post", base + "rounds/", {**body, "seat": 0}),
                ("put", base + "rounds/1/", {"round": body["round"], "seat": 1, "revision": 0}),
                ("delete", base + "rounds/2/", {"seat": 1, "revision": 0}),
                ("post", base + "rounds/1/confirm/", {"seat": 1}),
                ("post", base + "end/", {"ended_early": True, "seat": 1}),
            ]
            for method, url, data in calls:
                response = getattr(client, method)(
                    url, json.dumps(data), content_type="application/json", **bearer
                )
                assert response.status_code == 404, (method, url, response.status_code)
            assert client.get(base, **bearer).status_code == 404


@pytest.fixture
def demo_event() -> Event:
    get_user_model().objects.create_user("director", is_staff=True)
    call_command("demoevent")
    return Event.objects.get()


def public_start(event: Event) -> list[str]:
    token = event.public_token
    return [f"/e/{token}/", f"/e/{token}/standings/", f"/e/{token}/projector/"]


def test_the_crawler_finds_no_entry_link_and_its_tokens_change_nothing(demo_event):
    client = Client()
    pages, tokens = crawl(client, public_start(demo_event))
    assert_no_entry_link(pages)
    assert_no_private_link(pages)
    # It did reach the players' pages and every table's view link.
    assert any("/players/" in url for url in pages)
    views = set(Game.objects.filter(event_table__isnull=False).values_list("view_token", flat=True))
    assert views <= tokens
    before = state()
    try_every_change(client, tokens | {demo_event.public_token})
    assert state() == before


def test_a_bracket_page_carries_view_links_only(client):
    director = get_user_model().objects.create_user("cup", password="x", is_staff=True)
    event = services.event_create(owner=director, name="Derby Cup", game="roller_derby")
    for name, members in TEAMS[:8]:
        services.entrant_add(event=event, name=name, members=members, user=director)
    client.force_login(director)
    created = client.post(
        f"/desk/{event.pk}/bracket/",
        {"action": "create", "kind": "single", "seeding": "standings", "draw_rule": "replay"},
    )
    assert created.status_code == 302
    stranger = Client()
    pages, tokens = crawl(stranger, [f"/e/{event.public_token}/bracket/", *public_start(event)])
    games = Game.objects.filter(bracket_game__stage__event=event)
    assert games.exists()
    assert set(games.values_list("view_token", flat=True)) <= tokens
    assert_no_entry_link(pages)
    assert_no_private_link(pages)
    before = state()
    try_every_change(stranger, tokens)
    assert state() == before


def test_the_club_and_season_pages_carry_no_players_own_link(demo_event):
    """The demo night in a season of its roster: the season's pages, the leaderboard and
    every player's public page, crawled with the event's, carry no private link."""
    director = demo_event.owner
    roster = club.roster_for(owner=director)
    season = club.season_create(
        roster=roster,
        name="Autumn",
        rule={"counting": "best", "best": 1, "place_points": "10 8 6 5 4 3 2 1"},
        user=director,
    )
    club.club_night_set(event=demo_event, season=season, user=director)
    assert Player.objects.filter(roster=roster).count() == demo_event.entrants.count()
    start = [
        f"/s/{season.public_token}/",
        f"/s/{season.public_token}/projector/",
        f"/r/{roster.public_token}/",
        *public_start(demo_event),
    ]
    pages, _ = crawl(Client(), start)
    assert any(url.startswith(f"/r/{roster.public_token}/players/") for url in pages)
    assert any(url.startswith(f"/s/{season.public_token}/") for url in pages)
    assert_no_private_link(pages)
    # The seeded check itself can fail: a page showing a link is caught.
    entrant = demo_event.entrants.first()
    with pytest.raises(AssertionError, match="own page"):
        assert_no_private_link({"/e/x/": f'<a href="https://x.org/me/{entrant.private_token}/">'})
    with pytest.raises(AssertionError, match="private token"):
        assert_no_private_link({"/e/x/": f"<p>{roster.players.first().private_token}</p>"})


def test_a_stranger_with_the_public_code_changes_nothing(demo_event):
    """From the view link of a finished table and of one still playing: no form, no way in;
    posting to its view link or guessing with it at the entry pages or the API is refused."""
    stranger = Client()
    page = stranger.get(f"/e/{demo_event.public_token}/").content.decode()
    assert "/t/" not in page
    finished = Game.objects.filter(event_table__isnull=False, status="finished").first()
    playing = Game.objects.filter(event_table__isnull=False, status="in_progress").first()
    assert finished is not None and playing is not None
    before = state()
    for game in (finished, playing):
        view = stranger.get(f"/v/{game.view_token}/")
        assert view.status_code == 200
        html = view.content.decode()
        assert "<form" not in html and "hx-post" not in html
        assert game.table_token not in html
        assert stranger.post(f"/v/{game.view_token}/", {"how": "reopen"}).status_code == 405
    try_every_change(stranger, {finished.view_token, playing.view_token})
    assert state() == before


def test_the_desk_shows_both_links(demo_event):
    desk = Client()
    desk.force_login(demo_event.owner)
    page = desk.get(f"/desk/{demo_event.pk}/rounds/1/").content.decode()
    for table in demo_event.rounds.get().tables.select_related("game"):
        assert f"/t/{table.game.table_token}/" in page
        assert f"/v/{table.game.view_token}/" in page
