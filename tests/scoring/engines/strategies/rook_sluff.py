"""Hypothesis strategies: valid Rook Sluff records across player counts and options, their
deals per player (rules.md) or per team (team_tricks and failed_sluffs)."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from hypothesis import strategies as st

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo")


def tricks_per_deal(players: int) -> int:
    return 11 if players == 10 else 14


@st.composite
def split(draw: st.DrawFn, total: int, parts: int) -> list[int]:
    """``parts`` non-negative ints adding up to ``total`` (cut points on 0..total)."""
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=parts - 1, max_size=parts - 1)))
    edges = [0, *cuts, total]
    return [b - a for a, b in pairwise(edges)]


@st.composite
def deal(draw: st.DrawFn, players: int) -> dict[str, Any]:
    tricks = tricks_per_deal(players)
    # Mostly realistic bids (with Sluffs), sometimes anything up to T (team bid above T).
    bid = st.one_of(st.integers(0, 4), st.integers(0, tricks))
    entry: dict[str, Any] = {
        "bids": draw(st.lists(bid, min_size=players, max_size=players)),
        "tricks": draw(split(tricks, players)),
    }
    penalty = st.fixed_dictionaries(
        {"player": st.integers(0, players - 1), "points": st.integers(0, 200)},
        optional={
            "reason": st.text(
                st.characters(exclude_categories=("Cc", "Cs", "Cf", "Zl", "Zp")), max_size=20
            )
        },
    )
    penalties = draw(st.none() | st.lists(penalty, max_size=2))
    if penalties is not None:
        entry["penalties"] = penalties
    return entry


def as_team_deal(entry: dict[str, Any]) -> dict[str, Any]:
    """The per-team form of a per-player deal: the same bids, each team's tricks added up,
    the Sluffs that took a trick; penalties as they were."""
    bids, tricks = entry["bids"], entry["tricks"]
    team = {key: value for key, value in entry.items() if key != "tricks"}
    team["team_tricks"] = {"A": sum(tricks[0::2]), "B": sum(tricks[1::2])}
    failed = [
        seat for seat, (bid, took) in enumerate(zip(bids, tricks, strict=True)) if bid == 0 and took
    ]
    if failed:
        team["failed_sluffs"] = failed
    return team


@st.composite
def _record(draw: st.DrawFn, per_team: bool = True) -> dict[str, Any]:
    players = draw(st.sampled_from((4, 6, 8, 10)))
    options: dict[str, Any] = {}
    if players == 4:
        options["single_deck"] = True
    elif draw(st.booleans()):
        options["single_deck"] = False
    deals = draw(st.none() | st.integers(1, 12))
    if deals is not None or draw(st.booleans()):
        options["deals"] = deals
    if draw(st.booleans()):
        options["sluff_bonus"] = draw(st.integers(0, 500))
    length = deals if deals is not None else players
    rounds = draw(st.lists(deal(players), min_size=1, max_size=length))
    if per_team:
        rounds = [as_team_deal(entry) if draw(st.booleans()) else entry for entry in rounds]
    record: dict[str, Any] = {
        "format": 1,
        "game": "rook_sluff",
        "players": list(NAMES[:players]),
        "options": options,
        "rounds": rounds,
    }
    if draw(st.booleans()):
        record["first_dealer"] = draw(st.integers(0, players - 1))
    return record


def valid_records() -> st.SearchStrategy[dict[str, Any]]:
    """Valid Rook Sluff records: 4 (single deck), 6, 8 or 10 players, 1..deals rounds, each
    deal per player or per team."""
    return _record()


def per_player_records() -> st.SearchStrategy[dict[str, Any]]:
    """Valid Rook Sluff records whose every deal gives the tricks per player."""
    return _record(per_team=False)
