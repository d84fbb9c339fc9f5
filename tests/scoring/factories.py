"""Small builders for games in the database, through the services as the app makes them."""

from __future__ import annotations

from typing import Any

from scoring.services import Actor, game_create

ROOLZ_FOUR = {"format": 1, "game": "roolz", "players": ["Ann", "Ben", "Cat", "Dan"]}


def roolz_round(bidder: int = 0, bid: int = 200, a: int = 190) -> dict[str, Any]:
    return {"bidder": bidder, "bid": bid, "won": {"A": a, "B": 300 - a}}


def new_game(record: dict[str, Any] | None = None, **kwargs: Any):
    return game_create(record=record or ROOLZ_FOUR, actor=Actor(device="test"), **kwargs).game
