"""Hypothesis strategy: valid Roolz records across player counts, modes and options."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from scoring.engines.base import parse_record
from scoring.engines.roolz import Roolz

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
ENGINE = Roolz()


def _mode(players: int, options: dict[str, Any]) -> tuple[dict[str, list[int]], str | None]:
    """(fixed teams, call kind) as rules.md section 1 lays them out."""
    six = options.get("six_player", "teams")
    if players == 4:
        if options.get("called_partner"):
            return {}, "one"
        return {"A": [0, 2], "B": [1, 3]}, None
    if players == 5:
        return {}, "five"
    if players == 6:
        if six == "two_calls":
            return {}, "two"
        if six == "three_pairs":
            return {"A": [0, 3], "B": [1, 4], "C": [2, 5]}, None
        return {"A": [0, 2, 4], "B": [1, 3, 5]}, None
    return {}, None


@st.composite
def _round(draw: st.DrawFn, players: int, options: dict[str, Any]) -> dict[str, Any]:
    if draw(st.integers(0, 19)) == 0:
        return {"misdeal": True}
    teams, call = _mode(players, options)
    labels = list(teams) if teams else ["bidder", "opponents"]
    min_bid = 110 if options.get("six_player") == "three_pairs" else 170
    bidder = draw(st.integers(0, players - 1))
    entry: dict[str, Any] = {
        "bidder": bidder,
        "bid": 5 * draw(st.integers(min_bid // 5, 60)),
    }
    others = [seat for seat in range(players) if seat != bidder]
    if call is not None:
        low, high = {"one": (1, 1), "five": (0, 1), "two": (0, 2)}[call]
        count = draw(st.integers(low, high))
        entry["partners"] = draw(st.permutations(others))[:count]
    ours = next((k for k, v in teams.items() if bidder in v), "bidder")
    won = dict.fromkeys(labels, 0)
    slam = draw(st.one_of(st.none(), st.sampled_from(labels))) if draw(st.booleans()) else None
    if slam is not None and not options.get("point_discards"):
        won[slam] = 300
    else:
        left = 300
        for label in [ours, *(x for x in labels if x != ours)][:-1]:
            share = 5 * draw(st.integers(0, left // 5))
            won[label] = share
            left -= share
        won[[x for x in labels if x != ours][-1]] = left
    entry["won"] = won
    if slam is not None:
        entry["all_tricks"] = slam
    penalties = draw(
        st.lists(
            st.fixed_dictionaries(
                {"player": st.integers(0, players - 1), "points": st.integers(0, 200)},
                optional={"reason": st.sampled_from(["revoke", "talking", ""])},
            ),
            max_size=2,
        )
    )
    if penalties:
        entry["penalties"] = penalties
    return entry


@st.composite
def _records(draw: st.DrawFn) -> dict[str, Any]:
    players = draw(st.sampled_from([2, 3, 4, 5, 6]))
    options: dict[str, Any] = {
        "target": draw(st.sampled_from([300, 500, 1000, 2000])),
        "must_reach_on_bid": draw(st.booleans()),
        "point_discards": draw(st.booleans()),
        "no_slough": draw(st.booleans()),
    }
    if players == 4:
        options["called_partner"] = draw(st.booleans())
    if players == 6:
        options["six_player"] = draw(st.sampled_from(["teams", "two_calls", "three_pairs"]))
    rounds = draw(st.lists(_round(players, options), min_size=1, max_size=10))
    record: dict[str, Any] = {
        "format": 1,
        "game": "roolz",
        "players": list(NAMES[:players]),
        "options": options,
        "first_dealer": draw(st.integers(0, players - 1)),
        "rounds": rounds,
    }
    # Cut the game where it ends: no round may follow the end.
    table = ENGINE.table_for(parse_record({**record, "rounds": []}, {"roolz": ENGINE}))
    state = ENGINE.start(table)
    kept: list[dict[str, Any]] = []
    for number, entry in enumerate(rounds, start=1):
        ENGINE.play(table, state, number, entry)
        kept.append(entry)
        if ENGINE.is_over(table, state):
            break
    record["rounds"] = kept
    return record


def valid_records() -> st.SearchStrategy[dict[str, Any]]:
    return _records()
