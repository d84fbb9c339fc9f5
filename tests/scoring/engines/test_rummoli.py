"""Rummoli: the chip ledger of rules.md section 4."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engines.base import GameRecord, InvalidRecord, RoundProblems, parse_record
from scoring.engines.rummoli import Rummoli, most_cards_held
from scoring.engines.samples.rummoli import sample_record
from tests.scoring.engines.strategies.rummoli import BOARD, ledger_for, valid_records
from tests.vectors import (
    RUMMOLI_RULES_EXAMPLE,
    assert_matches,
    vector_cases,
    vector_record,
)

ENGINE = Rummoli()
ENGINES = {"rummoli": ENGINE}
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def record(players: int = 3, rounds: list[Any] | None = None, **extra: Any) -> dict[str, Any]:
    options = extra.pop("options", {})
    data = {
        "format": 1,
        "game": "rummoli",
        "players": NAMES[:players],
        "options": options,
        "rounds": rounds or [],
    }
    data.update(extra)
    return data


def score(data: dict[str, Any]) -> dict[str, Any]:
    return ENGINE.score(parse_record(data, ENGINES)).as_dict()


def problems(data: dict[str, Any]) -> list[tuple[int | None, str | None, str]]:
    with pytest.raises(InvalidRecord) as raised:
        score(data)
    return [(p.round, p.field, p.message) for p in raised.value.problems]


def board(**sections: int) -> dict[str, int]:
    return {section: sections.get(section, 0) for section in BOARD}


def quiet(players: int, went_out: int | None = None, **entry: Any) -> dict[str, Any]:
    """A plain hand: by default a deadlock; everyone still holding cards holds one."""
    cards = [0 if seat == went_out else 1 for seat in range(players)]
    hand = {"went_out": went_out, "cards_left": cards}
    hand.update(entry)
    return hand


# --------------------------------------------------------------------------- vectors


@pytest.mark.parametrize(
    ("case_id", "case"), vector_cases("rummoli"), ids=[c[0] for c in vector_cases("rummoli")]
)
def test_vector(case_id: str, case: dict[str, Any]) -> None:
    if case.get("invalid"):
        with pytest.raises(InvalidRecord) as raised:
            score(case["record"])
        assert raised.value.problems, case_id
    else:
        assert_matches(case["output"], score(case["record"]))


RULES_HAND_1, RULES_HAND_2 = vector_record(RUMMOLI_RULES_EXAMPLE)["rounds"]


@pytest.mark.parametrize(
    ("rounds", "end", "dealers", "totals", "final", "board_after"),
    [
        # rules.md: hand 1, balances 44, 63, 38, 47; queen_clubs 4, seven_eight_nine 4 remain.
        (
            [RULES_HAND_1],
            None,
            [0],
            [44, 63, 38, 47],
            [44, 63, 38, 47],
            board(queen_clubs=4, seven_eight_nine=4),
        ),
        # hand 2: balances 47, 50, 33, 40; board 30 with rummoli 14.
        (
            [RULES_HAND_1, RULES_HAND_2],
            None,
            [0, 1],
            [47, 50, 33, 40],
            [47, 50, 33, 40],
            board(rummoli=14, jack_diamonds=4, king_hearts=4, ace_spades=4, ace_king_diamonds=4),
        ),
        # the end, leftovers to seat 3: 47, 50, 33, 70.
        ([RULES_HAND_1, RULES_HAND_2], 3, [0, 1], [47, 50, 33, 40], [47, 50, 33, 70], board()),
    ],
)
def test_rules_walkthrough(rounds, end, dealers, totals, final, board_after) -> None:
    extra = {"end": {"leftovers_to": end}} if end is not None else {}
    out = score(record(4, rounds, options={"poker": "betting"}, **extra))
    assert [r["dealer"] for r in out["rounds"]] == dealers
    assert out["rounds"][-1]["totals"] == totals
    assert out["totals"] == final
    assert out["board"] == board_after
    assert sum(out["totals"]) + sum(out["board"].values()) == 200
    assert out["finished"] is (end is not None)
    assert out["winners"] == ([3] if end is not None else [])


def test_rules_walkthrough_deltas_and_round_boards() -> None:
    out = score(record(4, [RULES_HAND_1, RULES_HAND_2], options={"poker": "betting"}))
    first, second = out["rounds"]
    assert first["deltas"] == [44 - 50, 63 - 50, 38 - 50, 47 - 50]
    assert second["deltas"] == [47 - 44, 50 - 63, 33 - 38, 40 - 47]
    assert list(first["board"]) == list(BOARD)
    assert first["board"] == board(queen_clubs=4, seven_eight_nine=4)
    assert sum(second["board"].values()) == 30
    assert first["out"] == [] and second["out"] == []


# --------------------------------------------------------------------------- options


def test_option_defaults_and_descriptions() -> None:
    specs = {spec.name: spec for spec in ENGINE.option_specs()}
    assert {name: spec.default for name, spec in specs.items()} == {
        "starting_chips": 50,
        "ante": 1,
        "poker": "showdown",
        "short_stack": "pay_what_you_can",
    }
    assert (specs["starting_chips"].minimum, specs["starting_chips"].maximum) == (1, 10_000)
    assert (specs["ante"].minimum, specs["ante"].maximum) == (1, 100)
    assert specs["poker"].choices == ("showdown", "betting")
    assert specs["short_stack"].choices == ("pay_what_you_can", "debt")
    assert all(spec.label and spec.help and not spec.play_only for spec in specs.values())
    assert ENGINE.player_counts == (2, 3, 4, 5, 6, 7, 8)
    assert ENGINE.key == "rummoli" and ENGINE.title == "Rummoli"
    out = score(record(3))
    assert out["options"] == {
        "starting_chips": 50,
        "ante": 1,
        "poker": "showdown",
        "short_stack": "pay_what_you_can",
    }
    assert out["totals"] == [50, 50, 50] and out["teams"] == {}


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"starting_chips": 0}, "options.starting_chips"),
        ({"starting_chips": 10_001}, "options.starting_chips"),
        ({"starting_chips": "50"}, "options.starting_chips"),
        ({"ante": 0}, "options.ante"),
        ({"ante": 101}, "options.ante"),
        ({"ante": 1.5}, "options.ante"),
        ({"poker": "draw"}, "options.poker"),
        ({"short_stack": "loan"}, "options.short_stack"),
        ({"target": 100}, "options.target"),
    ],
)
def test_bad_options(options: dict[str, Any], field: str) -> None:
    assert [p[1] for p in problems(record(3, options=options))] == [field]


@pytest.mark.parametrize("players", [1, 9])
def test_player_counts(players: int) -> None:
    names = [f"P{i}" for i in range(players)]
    data = record(3)
    data["players"] = names
    assert [p[1] for p in problems(data)] == ["players"]


def test_starting_chips_and_ante() -> None:
    # 2 players, 20 chips, ante 2: 18 chips each on the board, every section 4.
    out = score(record(2, [quiet(2, went_out=None)], options={"starting_chips": 20, "ante": 2}))
    # the deadlock: one card each, one chip each into the rummoli
    assert out["totals"] == [1, 1]
    assert out["board"] == {section: 6 if section == "rummoli" else 4 for section in BOARD}


def test_showdown_poker_takes_the_pot() -> None:
    out = score(record(3, [quiet(3, poker={"winners": [2]})]))
    assert out["totals"] == [40, 40, 43]  # 50 - 9 - 1, seat 2 takes the 3-chip pot


def test_betting_poker_bets_go_in_before_the_winner_takes_it() -> None:
    hand = quiet(3, poker={"winners": [1], "bets": [5, 2, 0]})
    out = score(record(3, [hand], options={"poker": "betting"}))
    assert out["totals"] == [35, 38 + 3 + 7, 40]
    assert out["board"]["poker"] == 0


def test_betting_poker_without_bets_is_a_showdown() -> None:
    out = score(
        record(3, [quiet(3, poker={"winners": [0], "bets": None})], options={"poker": "betting"})
    )
    assert out["totals"] == [43, 40, 40]


def test_split_pot_leaves_odd_chips_on_the_section() -> None:
    hand = quiet(4, poker={"winners": [0, 2, 3], "bets": [1, 0, 0, 0]})
    out = score(record(4, [hand], options={"poker": "betting"}))
    # pot 4 + 1 = 5: 1 each, 2 stay
    assert out["totals"] == [40 - 1 + 1, 40, 41, 41]
    assert out["board"]["poker"] == 2


def test_showdown_rejects_bets() -> None:
    hand = quiet(3, poker={"winners": [0], "bets": [0, 0, 0]})
    assert problems(record(3, [hand])) == [
        (1, "poker.bets", "bets are recorded only under the betting poker method")
    ]


def test_pay_what_you_can_ante_goes_in_board_order() -> None:
    # 3 chips each with ante 1: rummoli, poker and ten of spades get them, nothing else.
    out = score(record(2, [quiet(2, went_out=None)], options={"starting_chips": 3}))
    assert out["rounds"][0]["board"] == board(rummoli=2, poker=2, ten_spades=2)
    assert out["totals"] == [0, 0]


def test_pay_what_you_can_ante_fills_each_section_before_the_next() -> None:
    # ante 2, 5 chips: rummoli 2, poker 2, ten of spades 1.
    opts = {"starting_chips": 5, "ante": 2}
    out = score(record(2, [quiet(2, went_out=None)], options=opts))
    assert out["rounds"][0]["board"] == board(rummoli=4, poker=4, ten_spades=2)


def test_debt_lets_balances_go_negative() -> None:
    hand = quiet(2, went_out=0, cards_left=[0, 4])
    out = score(record(2, [hand], options={"starting_chips": 5, "short_stack": "debt"}))
    # both ante 9 (-4 each); seat 0 takes the rummoli (2) and 4 chips from seat 1
    assert out["totals"] == [-4 + 2 + 4, -8]
    assert out["rounds"][0]["out"] == [] and out["next"]["out"] == []
    assert out["finished"] is False


def test_pay_what_you_can_card_payment_stops_at_zero() -> None:
    # 10 chips: 1 left after the ante; seat 1 owes 4 cards but pays its last chip.
    hand = quiet(2, went_out=0, cards_left=[0, 4])
    out = score(record(2, [hand], options={"starting_chips": 10}))
    # seat 1 at 0 is out: seat 0 is the last with chips and sweeps the board.
    assert out["totals"] == [20, 0]
    assert out["finished"] is True and out["winners"] == [0]
    assert out["board"] == board()
    assert out["rounds"][0]["out"] == [1]
    assert out["rounds"][0]["deltas"] == [10, -10]


def test_deadlock_payments_under_pay_what_you_can() -> None:
    hand = quiet(3, went_out=None, cards_left=[5, 1, 2])
    out = score(record(3, [hand], options={"starting_chips": 12}))
    # after the ante 3, 3, 3; seat 0 pays 3 of 5, seat 1 pays 1, seat 2 pays 2
    assert out["rounds"][0]["totals"] == [0, 2, 1]
    assert out["rounds"][0]["board"]["rummoli"] == 3 + 6
    assert out["rounds"][0]["out"] == [0]


# --------------------------------------------------------------------------- players out


OUT_OPTIONS = {"starting_chips": 20}


def out_game() -> list[dict[str, Any]]:
    """3 players with 20 chips: 11 each after the ante; Ann pays Cat her last 11 chips.

    After hand 1: Ann 0 (out), Ben 10, Cat 11 + 3 + 12 = 26; 24 chips on the board.
    """
    return [quiet(3, went_out=2, cards_left=[11, 1, 0])]


def ben_out(**entry: Any) -> dict[str, Any]:
    """A hand after ``out_game``: Ann is out (no cards), Ben goes out, Cat holds one card."""
    return quiet(3, went_out=1, cards_left=[0, 0, 1], **entry)


def test_players_out_do_not_ante_and_the_deal_skips_them() -> None:
    rounds = [*out_game(), ben_out(), ben_out()]
    out = score(record(3, rounds, options=OUT_OPTIONS, first_dealer=2))
    assert [r["totals"] for r in out["rounds"]] == [[0, 10, 26], [0, 4, 16], [0, 3, 6]]
    assert [r["out"] for r in out["rounds"]] == [[0], [0], [0]]
    assert [r["dealer"] for r in out["rounds"]] == [2, 1, 2]
    # hand 2: Ben and Cat ante, Ben takes the rummoli (2) and Cat's card; Ann pays nothing.
    assert out["rounds"][1]["deltas"][0] == 0
    assert out["next"]["dealer"] == 1
    assert out["next"]["out"] == [0]
    assert out["next"]["chips"] == out["totals"]
    assert out["next"]["board"] == out["board"]


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        (ben_out(widow={"buyer": 0, "price": 1}), "widow.buyer"),
        (ben_out(poker={"winners": [0]}), "poker.winners"),
        (ben_out(pay_cards={"queen_clubs": 0}), "pay_cards.queen_clubs"),
        (quiet(3, went_out=0), "went_out"),
        (quiet(3, went_out=1, cards_left=[1, 0, 0]), "cards_left"),
    ],
)
def test_players_out_cannot_take_part(entry: dict[str, Any], field: str) -> None:
    found = problems(record(3, [*out_game(), entry], options=OUT_OPTIONS))
    assert [(p[0], p[1]) for p in found] == [(2, field)]
    assert "Ann is out of the game" in found[0][2]


def test_players_out_cannot_bet() -> None:
    entry = ben_out(poker={"winners": [1], "bets": [1, 0, 0]})
    opts = {**OUT_OPTIONS, "poker": "betting"}
    found = problems(record(3, [*out_game(), entry], options=opts))
    assert [(p[0], p[1]) for p in found] == [(2, "poker.bets")]


def test_game_ends_by_itself_and_no_hand_may_follow() -> None:
    rounds = [quiet(2, went_out=0, cards_left=[0, 4])]
    data = record(2, [*rounds, quiet(2)], options={"starting_chips": 10})
    assert problems(data) == [
        (2, "round", "the game has already ended; no more rounds can be recorded")
    ]


def test_no_leftovers_after_the_game_ended_by_itself() -> None:
    rounds = [quiet(2, went_out=0, cards_left=[0, 4])]
    data = record(2, rounds, options={"starting_chips": 10}, end={"leftovers_to": 0})
    assert [p[1] for p in problems(data)] == ["end"]


def test_deadlock_leaving_nobody_with_chips_waits_for_the_leftovers() -> None:
    # 2 chips each, ante 1: both at 0 after the ante, so nobody holds a chip.
    rounds = [quiet(2, went_out=None)]
    out = score(record(2, rounds, options={"starting_chips": 2}))
    assert out["finished"] is False and out["winners"] == []
    assert out["out"] == [0, 1]
    assert problems(record(2, [*rounds, quiet(2, went_out=None)], options={"starting_chips": 2}))
    ended = score(record(2, rounds, options={"starting_chips": 2}, end={"leftovers_to": 1}))
    assert ended["totals"] == [0, 4] and ended["finished"] is True and ended["winners"] == [1]
    assert ended["out"] == [0]


# --------------------------------------------------------------------------- the end


def test_leftovers_to_a_player() -> None:
    out = score(record(3, [quiet(3, went_out=2)], end={"leftovers_to": 0}))
    # after the hand: 40, 40, 41 + 3 + 2 (one card each); the board holds 24 more
    assert out["rounds"][0]["totals"] == [40, 40, 46]
    assert out["totals"] == [64, 40, 46]
    assert out["winners"] == [0] and out["finished"] is True
    assert out["board"] == board() and out["next"]["board"] == board()


def test_leftovers_draw_names_every_top_seat() -> None:
    out = score(record(2, [], end={"leftovers_to": 0}))
    assert out["finished"] is True and out["winners"] == [0, 1]


@pytest.mark.parametrize(
    "end",
    [
        None,
        [],
        {},
        {"leftovers_to": 3},
        {"leftovers_to": -1},
        {"leftovers_to": "0"},
        {"leftovers_to": True},
        {"leftovers_to": 0, "why": "cut"},
        {"winner": 0},
    ],
)
def test_bad_end(end: Any) -> None:
    found = problems(record(3, [quiet(3, went_out=2)], end=end))
    assert [(p[0], p[1]) for p in found] == [(None, "end")]


def test_leftovers_not_to_a_player_who_is_out() -> None:
    data = record(3, out_game(), options=OUT_OPTIONS, end={"leftovers_to": 0})
    found = problems(data)
    assert found == [(None, "end", "Ann is out of the game and cannot take the leftovers")]


# --------------------------------------------------------------------------- checks


GOOD = {
    "widow": {"buyer": 2, "price": 2},
    "poker": {"winners": [1]},
    "pay_cards": {"ten_spades": 2},
    "went_out": 2,
    "cards_left": [1, 2, 0],
}


def variant(**changes: Any) -> dict[str, Any]:
    entry = copy.deepcopy(GOOD)
    for key, value in changes.items():
        if value is ...:
            entry.pop(key)
        else:
            entry[key] = value
    return entry


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        (variant(bid=3), "bid"),
        (variant(widow=3), "widow"),
        (variant(widow="exchange"), "widow"),
        (variant(widow={"exchange": False}), "widow.exchange"),
        (variant(widow={"exchange": True, "price": 2}), "widow.price"),
        (variant(widow={"buyer": 1, "price": 2}), "widow.buyer"),  # the dealer
        (variant(widow={"buyer": 3, "price": 2}), "widow.buyer"),
        (variant(widow={"buyer": None, "price": 2}), "widow.buyer"),
        (variant(widow={"price": 2}), "widow.buyer"),
        (variant(widow={"buyer": 2}), "widow.price"),
        (variant(widow={"buyer": 2, "price": 0}), "widow.price"),
        (variant(widow={"buyer": 2, "price": 2.0}), "widow.price"),
        (variant(widow={"buyer": 2, "price": True}), "widow.price"),
        (variant(widow={"buyer": 2, "price": 10**30}), "widow.price"),
        (variant(widow={"buyer": 2, "price": 33}), "widow.price"),  # holds 32 after the ante
        (variant(widow={"buyer": 2, "price": 2, "seen": True}), "widow.seen"),
        (variant(poker=[1]), "poker"),
        (variant(poker={}), "poker.winners"),
        (variant(poker={"winners": []}), "poker.winners"),
        (variant(poker={"winners": 1}), "poker.winners"),
        (variant(poker={"winners": [1, 1]}), "poker.winners"),
        (variant(poker={"winners": ["1"]}), "poker.winners"),
        (variant(poker={"winners": [0, 1, 2, 0]}), "poker.winners"),
        (variant(poker={"winners": [1], "hand": "flush"}), "poker.hand"),
        (variant(pay_cards=["ten_spades"]), "pay_cards"),
        (variant(pay_cards={"rummoli": 1}), "pay_cards"),
        (variant(pay_cards={"two_clubs": 1}), "pay_cards"),
        (variant(pay_cards={"ten_spades": 7}), "pay_cards.ten_spades"),
        (variant(pay_cards={"ten_spades": None}), "pay_cards.ten_spades"),
        (variant(went_out=...), "went_out"),
        (variant(went_out=3), "went_out"),
        (variant(went_out="Cat"), "went_out"),
        (variant(went_out=False), "went_out"),
        (variant(cards_left=...), "cards_left"),
        (variant(cards_left=None), "cards_left"),
        (variant(cards_left=[1, 2]), "cards_left"),
        (variant(cards_left=[1, 2, 0, 0]), "cards_left"),
        (variant(cards_left=[1, -2, 0]), "cards_left"),
        (variant(cards_left=[1, 53, 0]), "cards_left"),
        (variant(cards_left=[1, 2.5, 0]), "cards_left"),
        (variant(cards_left=[1, "2", 0]), "cards_left"),
        (variant(cards_left=[30, 30, 0]), "cards_left"),  # more than a deck
        (variant(cards_left=[1, 2, 3]), "cards_left"),  # Cat went out
    ],
)
def test_bad_round_input(entry: dict[str, Any], field: str) -> None:
    found = problems(record(3, [quiet(3, went_out=None), entry]))
    assert [(p[0], p[1]) for p in found] == [(2, field)], found
    assert all(message for *_, message in found)


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ({"poker": {"winners": [1], "bets": [0, 0]}}, "poker.bets"),
        ({"poker": {"winners": [1], "bets": "3"}}, "poker.bets"),
        ({"poker": {"winners": [1], "bets": [0, -1, 0]}}, "poker.bets"),
        ({"poker": {"winners": [1], "bets": [0, None, 0]}}, "poker.bets"),
        ({"poker": {"winners": [1], "bets": [42, 0, 0]}}, "poker.bets"),  # holds 41
    ],
)
def test_bad_bets(entry: dict[str, Any], field: str) -> None:
    hand = quiet(3, went_out=2, **entry)
    found = problems(record(3, [hand], options={"poker": "betting"}))
    assert [(p[0], p[1]) for p in found] == [(1, field)], found


def test_bets_follow_the_widow_money() -> None:
    # Ann deals, Ben pays her 5 for the widow: Ann then holds 46 and may bet 46; Ben 36.
    hand = quiet(3, went_out=2, widow={"buyer": 1, "price": 5})
    ok = {**hand, "poker": {"winners": [2], "bets": [46, 36, 0]}}
    out = score(record(3, [ok], options={"poker": "betting"}))
    assert out["totals"][:2] == [0, 0]
    too_much = {**hand, "poker": {"winners": [2], "bets": [46, 37, 0]}}
    found = problems(record(3, [too_much], options={"poker": "betting"}))
    assert found == [(1, "poker.bets", "Ben bets 37 but holds only 36 chips")]


def test_debt_allows_prices_and_bets_beyond_holdings() -> None:
    hand = quiet(
        3, went_out=2, widow={"buyer": 1, "price": 60}, poker={"winners": [2], "bets": [0, 100, 0]}
    )
    out = score(record(3, [hand], options={"poker": "betting", "short_stack": "debt"}))
    # Cat goes out: the rummoli (3) and one card each from Ann and Ben
    assert out["totals"] == [41 + 60 - 1, 41 - 60 - 100 - 1, 41 + 103 + 3 + 2]


def test_every_problem_of_a_round_is_reported() -> None:
    entry = {
        "widow": {"buyer": 0, "price": 0},
        "poker": {"winners": []},
        "pay_cards": {"nine_hearts": 1},
        "went_out": 5,
        "cards_left": [1],
        "extra": 1,
    }
    fields = [p[1] for p in problems(record(3, [entry]))]
    assert sorted(fields) == sorted(
        [
            "extra",
            "widow.buyer",
            "widow.price",
            "poker.winners",
            "pay_cards",
            "went_out",
            "cards_left",
        ]
    )


def test_a_round_must_be_an_object() -> None:
    assert problems(record(3, [[1, 2]])) == [(1, "round", "a round must be an object")]


def test_problem_messages_read_well() -> None:
    found = problems(record(3, [variant(widow={"buyer": 0, "price": 2})]))
    assert found == [(1, "widow.buyer", "Ann deals this hand and cannot buy the widow")]
    found = problems(record(3, [variant(cards_left=[1, 2, 3])]))
    assert found == [(1, "cards_left", "Cat went out, so Cat's cards left must be 0")]


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=True),
    st.text(max_size=5),
    st.lists(st.integers(-3, 60), max_size=10),
    st.dictionaries(st.text(max_size=12), st.integers(-2, 9), max_size=3),
)
PATHS = [
    ("widow",),
    ("widow", "buyer"),
    ("widow", "price"),
    ("widow", "exchange"),
    ("poker",),
    ("poker", "winners"),
    ("poker", "bets"),
    ("pay_cards",),
    ("pay_cards", "ace_spades"),
    ("went_out",),
    ("cards_left",),
    ("penalties",),
]


@settings(max_examples=300, deadline=None)
@given(data=valid_records(), path=st.sampled_from(PATHS), junk=JUNK, where=st.integers(0, 9))
def test_garbage_gives_problems_never_crashes(data, path, junk, where) -> None:
    data = copy.deepcopy(data)
    entry = data["rounds"][where % len(data["rounds"])]
    target = entry
    for key in path[:-1]:
        if not isinstance(target.get(key), dict):
            target[key] = {}
        target = target[key]
    target[path[-1]] = junk
    try:
        score(data)
    except InvalidRecord as invalid:
        assert invalid.problems
        assert all(p.field for p in invalid.problems)


# --------------------------------------------------------------------------- invariants


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=valid_records())
def test_chips_are_conserved(data) -> None:
    out = score(data)
    players = len(data["players"])
    total = players * data["options"].get("starting_chips", 50)
    debt = data["options"].get("short_stack") == "debt"
    running = [data["options"].get("starting_chips", 50)] * players
    for hand in out["rounds"]:
        running = [a + b for a, b in zip(running, hand["deltas"], strict=True)]
        assert hand["totals"] == running
        assert list(hand["board"]) == list(BOARD)
        assert sum(hand["totals"]) + sum(hand["board"].values()) == total
        assert all(chips >= 0 for chips in hand["board"].values())
        if not debt:
            assert all(chips >= 0 for chips in hand["totals"])
            assert hand["out"] == [s for s, chips in enumerate(hand["totals"]) if chips == 0]
        else:
            assert hand["out"] == []
    assert sum(out["totals"]) + sum(out["board"].values()) == total


@settings(max_examples=150, deadline=None)
@given(data=valid_records())
def test_engine_matches_the_reference_ledger(data) -> None:
    ledger = ledger_for(data)
    out = score(data)
    for entry, hand in zip(data["rounds"], out["rounds"], strict=True):
        assert hand["dealer"] == ledger.next_dealer()
        ledger.play(entry)
        assert hand["totals"] == ledger.chips
        assert hand["board"] == ledger.board
    if "end" in data:
        ledger.leftovers(data["end"]["leftovers_to"])
    assert out["totals"] == ledger.chips
    assert out["board"] == ledger.board
    assert out["finished"] == (ledger.swept or "end" in data)
    if out["finished"]:
        best = max(ledger.chips)
        assert out["winners"] == [s for s, chips in enumerate(ledger.chips) if chips == best]
    else:
        assert out["winners"] == []


@settings(max_examples=60, deadline=None)
@given(data=valid_records())
def test_scoring_twice_gives_the_same_result(data) -> None:
    before = copy.deepcopy(data)
    assert score(data) == score(data)
    assert data == before


def test_a_broken_invariant_is_a_bug_not_a_problem() -> None:
    table = ENGINE.table_for(GameRecord(game="rummoli", players=("Ann", "Ben")))
    state = ENGINE.start(table)
    state.chips[0] += 1
    with pytest.raises(AssertionError):
        ENGINE.play(table, state, 1, quiet(2))


@pytest.mark.parametrize("players", range(2, 9))
@pytest.mark.parametrize("seed", range(0, 51, 5))
def test_sample_record_is_valid(players: int, seed: int) -> None:
    data = sample_record(rounds=20, seed=seed, players=players)
    assert data == sample_record(rounds=20, seed=seed, players=players)
    assert data["players"] == NAMES[:players]
    out = score(data)
    assert 1 <= len(out["rounds"]) <= 20
    if len(out["rounds"]) < 20:
        assert out["finished"]


def test_sample_record_default_players_and_length() -> None:
    data = sample_record()
    assert 2 <= len(data["players"]) <= 8
    assert len(data["rounds"]) == 20
    score(data)
    assert len(sample_record(rounds=3, seed=4)["rounds"]) == 3


# --------------------------------------------------------------------------- descriptions


def fields_of(players: int, **options: Any) -> dict[str, Any]:
    resolved = ENGINE.resolve_options(options, players)
    return {spec.name: spec for spec in ENGINE.round_fields(players, resolved)}


def test_round_fields_follow_the_record() -> None:
    fields = fields_of(4)
    assert list(fields) == ["widow", "poker", "pay_cards", "went_out", "cards_left"]
    assert [p.name for p in fields["widow"].parts] == ["exchange", "buyer", "price"]
    assert [p.name for p in fields["poker"].parts] == ["winners"]
    assert [p.name for p in fields["pay_cards"].parts] == list(BOARD[2:])
    assert (
        fields["cards_left"].kind,
        fields["cards_left"].minimum,
        fields["cards_left"].maximum,
    ) == (
        "per_seat",
        0,
        most_cards_held(2),
    )
    assert fields["went_out"].kind == "seat" and not fields["went_out"].required
    assert all(spec.column for spec in fields.values())
    assert not any(spec.required for name, spec in fields.items() if name != "cards_left")


def test_round_fields_depend_on_options() -> None:
    betting = fields_of(4, poker="betting")
    assert [p.name for p in betting["poker"].parts] == ["winners", "bets"]
    bets = betting["poker"].parts[1]
    assert (bets.kind, bets.minimum, bets.maximum) == ("per_seat", 0, 200)
    price = fields_of(3, starting_chips=30)["widow"].parts[2]
    assert (price.minimum, price.maximum) == (1, 90)
    debt_price = fields_of(3, short_stack="debt")["widow"].parts[2]
    assert debt_price.maximum is not None and debt_price.maximum > 90


def test_describe() -> None:
    described = ENGINE.describe()
    assert described["key"] == "rummoli" and described["player_counts"] == list(range(2, 9))
    assert [o["name"] for o in described["options"]] == [
        "starting_chips",
        "ante",
        "poker",
        "short_stack",
    ]
    assert ENGINE.teams(4, {}) == {}


def test_round_summary() -> None:
    table = ENGINE.table_for(GameRecord(game="rummoli", players=("Ann", "Ben", "Cat", "Dan")))
    assert ENGINE.round_summary(table, RULES_HAND_1) == (
        "Cat bought the widow for 2; Ben won the poker pot; pay cards: Dan the ten of spades, "
        "Ben the jack of diamonds, Cat the king of hearts, Ann the ace of spades, "
        "Dan the ace-king of diamonds; Ben went out; 10 cards left to pay for"
    )
    assert ENGINE.round_summary(table, RULES_HAND_2) == (
        "The dealer took the widow; Ann won the poker pot after 9 in bets; pay cards: "
        "Ann the ten of spades, Cat the queen of clubs, Dan the 7-8-9 of a suit; "
        "deadlock: 10 cards left to pay into the rummoli"
    )
    split = {"poker": {"winners": [0, 2]}, "went_out": 3, "cards_left": [1, 1, 1, 0]}
    assert ENGINE.round_summary(table, split) == (
        "Ann and Cat split the poker pot; Dan went out; 3 cards left to pay for"
    )
    debt = ENGINE.table_for(
        GameRecord(game="rummoli", players=table.players, options={"short_stack": "debt"})
    )
    assert ENGINE.round_summary(debt, split) == (
        "Ann and Cat split the poker pot; Dan went out and collects 3 for cards left"
    )


def test_play_rejects_before_changing_the_state() -> None:
    table = ENGINE.table_for(GameRecord(game="rummoli", players=("Ann", "Ben")))
    state = ENGINE.start(table)
    with pytest.raises(RoundProblems):
        ENGINE.play(table, state, 1, {"went_out": 0, "cards_left": [1, 1]})
    assert state.chips == [50, 50] and state.board == board() and state.last_dealer is None


# --------------------------------------------------------------------------- impossible hands


@pytest.mark.parametrize(
    ("entry", "field", "words"),
    [
        # A deadlock with a player on 0 cards: that player went out.
        ({"went_out": None, "cards_left": [3, 0, 2]}, "went_out", "Ben has 0 cards left"),
        # Two players on 0 cards: only one can go out.
        ({"went_out": 0, "cards_left": [0, 0, 2]}, "cards_left", "Ben cannot have 0 cards"),
        ({"went_out": None, "cards_left": [0, 0, 2]}, "cards_left", "Ann and Ben"),
    ],
)
def test_impossible_hand_ends_are_refused(entry: dict[str, Any], field: str, words: str) -> None:
    found = problems(record(3, [quiet(3, went_out=2), entry]))
    assert [(p[0], p[1]) for p in found] == [(2, field)]
    assert words in found[0][2]


def test_players_out_of_the_game_hold_no_cards_and_do_not_count_as_gone_out() -> None:
    # After out_game Ann is out with 0 cards: a deadlock of Ben and Cat is possible.
    out = score(record(3, [*out_game(), quiet(3, cards_left=[0, 1, 1])], options=OUT_OPTIONS))
    assert out["rounds"][1]["summary"].startswith("Deadlock: 2 chips into the rummoli; Ben is out")


# --------------------------------------------------------------------------- what moved


def test_summary_says_what_actually_moved_under_pay_what_you_can() -> None:
    # 3 players, 10 chips: 1 each after the ante. Ben goes out; Ann owes 2 and Cat 3,
    # but each pays their last chip: Ben collects 2, not 5, and takes the board.
    hand = {"went_out": 1, "cards_left": [2, 0, 3]}
    out = score(record(3, [hand], options={"starting_chips": 10}))
    assert out["rounds"][0]["deltas"] == [-10, 20, -10]
    assert out["rounds"][0]["summary"] == (
        "Ben went out, takes 3 from the rummoli and collects 2 for cards left "
        "(Ann could pay only 1 of 2, Cat could pay only 1 of 3); Ann and Cat are out of chips; "
        "Ben is the last player with chips and takes the board (24)"
    )
    assert out["finished"] is True and out["winners"] == [1]


def test_summary_names_a_short_ante_and_a_short_deadlock_payment() -> None:
    # 12 chips: 3 each after the ante; Ann owes 5 cards into the rummoli, pays 3.
    out = score(
        record(3, [quiet(3, went_out=None, cards_left=[5, 1, 2])], options={"starting_chips": 12})
    )
    assert out["rounds"][0]["summary"] == (
        "Deadlock: 6 chips into the rummoli (Ann could pay only 3 of 5); Ann is out of chips"
    )
    second = score(
        record(
            3,
            [quiet(3, went_out=None, cards_left=[5, 1, 2]), quiet(3, cards_left=[0, 1, 1])],
            options={"starting_chips": 12},
        )
    )
    assert second["rounds"][1]["summary"].startswith("Ben could ante only 2 of 9")


def test_summary_of_the_rules_example_names_every_amount() -> None:
    out = score(vector_record(RUMMOLI_RULES_EXAMPLE))
    assert out["rounds"][0]["summary"] == (
        "Cat bought the widow for 2; Ben won the poker pot (4); pay cards: "
        "Dan the ten of spades (4), Ben the jack of diamonds (4), Cat the king of hearts (4), "
        "Ann the ace of spades (4), Dan the ace-king of diamonds (4); "
        "Ben went out, takes 4 from the rummoli and collects 10 for cards left"
    )
    assert out["rounds"][1]["summary"] == (
        "The dealer took the widow; Ann won the poker pot (13, after 9 in bets); pay cards: "
        "Ann the ten of spades (4), Cat the queen of clubs (8), Dan the 7-8-9 of a suit (8); "
        "deadlock: 10 chips into the rummoli"
    )


# --------------------------------------------------------------------------- the deal's limit


@pytest.mark.parametrize(("players", "most"), [(2, 18), (3, 13), (4, 11), (5, 9), (7, 7), (8, 6)])
def test_no_hand_of_the_deal_holds_more_than_the_deck_shared_with_the_widow(
    players: int, most: int
) -> None:
    hands = [52 // (players + 1) + (1 if i < 52 % (players + 1) else 0) for i in range(players + 1)]
    assert sum(hands) == 52
    assert max(hands) == most == most_cards_held(players)


def test_two_players_cannot_hold_thirty_cards() -> None:
    data = record(2, [{"went_out": 0, "cards_left": [0, 30]}])
    [(round_number, field, message)] = problems(data)
    assert (round_number, field) == (1, "cards_left")
    assert "Ben" in message and "at most 18" in message


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
def test_a_hand_at_the_limit_is_scored_and_one_more_card_is_refused(players: int) -> None:
    limit = most_cards_held(players)
    # The largest hands of the deal (52 cards one at a time to the players and the widow).
    deal = sorted(52 // (players + 1) + (i < 52 % (players + 1)) for i in range(players + 1))
    at_limit = [0, *deal[::-1][: players - 1]]
    assert at_limit[1] == limit
    assert score(record(players, [{"went_out": 0, "cards_left": at_limit}]))["rounds"]
    over = [0, limit + 1] + [1] * (players - 2)
    [(_, field, message)] = problems(record(players, [{"went_out": 0, "cards_left": over}]))
    assert field == "cards_left" and NAMES[1] in message and f"at most {limit}" in message


def test_players_out_of_the_game_leave_bigger_hands_to_the_others() -> None:
    fields = {f.name: f for f in ENGINE.round_fields(8, {})}
    assert fields["cards_left"].maximum == most_cards_held(2)
    debt = {f.name: f for f in ENGINE.round_fields(8, {"short_stack": "debt"})}
    assert debt["cards_left"].maximum == most_cards_held(8)
