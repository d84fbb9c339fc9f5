"""Entry in taps, server side: every limit a button offers comes from the engine's field
description, the pads fill their boxes in the order play goes, a penalty with nobody is
refused naming its field, people read seats from 1, and each game has its rules card."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engines.base import parse_record
from scoring.engines.registry import ENGINES
from scoring.entry.fields import SeatInfo, seats_from_one
from scoring.games import KITS, kit_for
from scoring.games.roolz import POINT_OFFSETS, quick_bids
from tests.web.test_table_views import HX, make_game, url

NAMES4 = ["Ann", "Ben", "Cat", "Dan"]
NAMES6 = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


def form(game: str, names: list[str], options=None, context=None, data=None):
    """The round form of a fresh game, seated as the engine seats it."""
    record = parse_record({"game": game, "players": names, "options": options or {}}, ENGINES)
    engine = ENGINES[game]
    table = engine.table_for(record)
    return kit_for(game).entry_form(
        engine=engine,
        seats=[SeatInfo(n, name, table.team_of(n) or "") for n, name in enumerate(names)],
        options=table.options,
        context=context,
        data=data,
    )


# --------------------------------------------------------------------------- Roolz


@pytest.mark.parametrize(
    ("players", "options"),
    [(4, {}), (5, {}), (6, {"six_player": "three_pairs"}), (2, {}), (3, {})],
)
def test_the_bid_ladder_is_every_bid_the_engine_allows(players, options):
    spec = next(s for s in ENGINES["roolz"].round_fields(players, options) if s.name == "bid")
    ladder = quick_bids(spec)
    assert ladder[0] == spec.minimum
    assert ladder[-1] == spec.maximum
    assert all(b - a == spec.step for a, b in itertools.pairwise(ladder))


@pytest.mark.django_db
def test_the_page_offers_the_ladder_and_the_points_buttons(client):
    html = client.get(url("table", make_game())).content.decode()
    bids = [int(v) for v in re.findall(r'data-set="bid" data-value="(\d+)"', html)]
    assert bids == list(range(170, 301, 5))
    offsets = [int(v) for v in re.findall(r'data-points-offset="(-?\d+)"', html)]
    assert offsets == [0, *POINT_OFFSETS]
    assert 'data-total="300"' in html
    assert 'data-points-step="5"' in html
    # A negative offset is written with a true minus sign, as every number on the page.
    assert not re.search(r">-\d", html)


# --------------------------------------------------------------------------- Rook Sluff


@given(dealer=st.integers(min_value=0, max_value=9), count=st.sampled_from([6, 8, 10]))
def test_sluff_bids_are_filled_from_the_dealers_left_then_the_team_tricks(dealer, count):
    dealer %= count
    names = [f"P{n}" for n in range(count)]
    entry_form = form("rook_sluff", names, context={"dealer": dealer})
    rows = sorted(entry_form.rows, key=lambda row: row.bid_order)
    assert [row.seat.number for row in rows] == [(dealer + 1 + i) % count for i in range(count)]
    assert sorted(r.bid_order for r in entry_form.rows) == list(range(count))
    # then team A's tricks (team B's are the rest, filled by the page)
    assert [(c.team, c.order) for c in entry_form.team_cells] == [("A", count), ("B", count + 1)]
    tricks = next(s for s in ENGINES["rook_sluff"].round_fields(count, {}) if s.name == "tricks")
    assert entry_form.pad_values == list(range(0, tricks.maximum + 1))


# --------------------------------------------------------------------------- Rummoli


@pytest.mark.django_db
def test_the_pay_grid_has_a_button_per_player_and_section(client):
    game = make_game("rummoli")
    html = client.get(url("table", game)).content.decode()
    cells = re.findall(r'<input type="radio" name="pay_cards\.(\w+)" value="(\d)"', html)
    sections = ENGINES["rummoli"].round_fields(4, game.options)
    pay = next(s for s in sections if s.name == "pay_cards")
    assert sorted(cells) == sorted((p.name, str(n)) for p in pay.parts for n in range(4))
    assert "<select" not in html.split('data-field="pay_cards"')[1].split("</table>")[0]


@pytest.mark.django_db
def test_a_pay_card_posted_from_the_grid_is_read(client):
    game = make_game("rummoli")
    data = {
        "number": "1",
        "key": "k1",
        "pay_cards.ten_spades": "3",
        "went_out": "1",
        "cards_left-0": "3",
        "cards_left-1": "0",
        "cards_left-2": "5",
        "cards_left-3": "2",
        "action": "save",
    }
    client.post(url("table_entry", game), data, headers=HX)
    entry = game.rounds.get(number=1).entry
    assert entry["pay_cards"] == {"ten_spades": 3}


@pytest.mark.django_db
def test_the_poker_help_names_no_missing_button(client):
    html = client.get(url("table", make_game("rummoli"))).content.decode()
    assert "Nobody: the pot carries over" not in html
    assert "the pot carries over" in html


# --------------------------------------------------------------------------- mistakes


@pytest.mark.parametrize("points", ["5000", "1"])
def test_a_penalty_with_nobody_is_refused_naming_the_field(points):
    data = {
        "bidder": "0",
        "bid": "200",
        "won-A": "200",
        "won-B": "100",
        "penalties-0-player": "",
        "penalties-0-points": points,
    }
    entry_form = form("roolz", NAMES4, data=data)
    assert entry_form.clean() is None
    assert entry_form.messages == ["Penalty 1: choose the player who is penalised."]


def test_a_default_penalty_size_alone_is_no_penalty():
    """Roller Derby fills 50 in every penalty row: an untouched row is not a penalty."""
    data = {"dice-0": "3", "dice-1": "4", "tricks": "6", "penalties-0-points": "50"}
    entry_form = form("roller_derby", NAMES4, data=data)
    assert entry_form.clean() == {"dice": [3, 4], "tricks": 6}


@pytest.mark.parametrize(
    ("message", "shown"),
    [
        ("bids of seat 3 must be a whole number", "bids of seat 4 must be a whole number"),
        ("Ann (seat 0) sluffed", "Ann (seat 1) sluffed"),
        ("seat 0 is listed twice in partners", "seat 1 is listed twice in partners"),
        ("no seat here; seats 2", "no seat here; seats 2"),
    ],
)
def test_people_read_seats_from_one(message, shown):
    assert seats_from_one(message) == shown


@pytest.mark.django_db
def test_the_first_problem_is_said_in_the_save_bar(client):
    game = make_game()
    data = {"number": "1", "key": "k", "bidder": "0", "bid": "200", "won-A": "193"}
    html = client.post(url("table_entry", game), data, headers=HX).content.decode()
    bar = html.split('class="actions"')[1]
    assert "data-first-problem" in bar
    assert "not a multiple of 5" in bar
    assert "The scores show here before you save." not in bar


# --------------------------------------------------------------------------- rules


@pytest.mark.django_db
@pytest.mark.parametrize("game", sorted(KITS))
def test_each_game_has_a_rules_card_one_tap_from_the_table(client, game):
    players = NAMES6 if game == "rook_sluff" else NAMES4
    made = make_game(game, players=players)
    table = client.get(url("table", made)).content.decode()
    rules_url = url("table_rules", made)
    assert f'href="{rules_url}" data-rules' in table
    page = client.get(rules_url)
    assert page.status_code == 200
    html = page.content.decode()
    card = KITS[game].rules
    assert card.sections
    for section in card.sections:
        assert str(section.heading) in html
    assert "<html" in html
    partial = client.get(rules_url, headers=HX).content.decode()
    assert "<html" not in partial
    assert "rules-card" in partial


@pytest.mark.django_db
def test_the_rules_card_says_what_this_table_chose(client):
    made = make_game("roolz", options={"target": 500})
    html = client.get(url("table_rules", made)).content.decode()
    assert "500 (chosen for this table)" in html
