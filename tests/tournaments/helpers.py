"""Playing tables of an event as a real table would: deals entered and confirmed by phones."""

from __future__ import annotations

from scoring.models import Game
from scoring.selectors import game_score, side_in_round
from scoring.services import Actor, round_confirm, round_record
from tournaments.models import Table

# Roolz with a low target: two deals end a table.
ROOLZ_OPTIONS = {"target": 300}

# The deals every table plays, by table size: seat 0's side wins each game.
# Four players: teams A (seats 1 and 3 on screen) and B; A ends 400 to 200.
# Three players: seat 1 ends 320, seat 2 280, seat 3 220 (seat 1 reaches the target).
DEALS = {
    4: [
        {"bidder": 0, "bid": 170, "won": {"A": 200, "B": 100}},
        {"bidder": 0, "bid": 170, "won": {"A": 200, "B": 100}},
    ],
    3: [
        {"bidder": 0, "bid": 170, "won": {"bidder": 200, "opponents": 100}},
        {"bidder": 1, "bid": 170, "won": {"bidder": 180, "opponents": 120}},
    ],
}


def enter_and_confirm(game: Game, number: int, entry: dict) -> None:
    """Seat 0 enters the deal; a player of another side confirms it."""
    round_record(game=game, number=number, entry=entry, actor=Actor(seat=0, device="phone 0"))
    game.refresh_from_db()
    score = game_score(game)
    others = sorted(set(range(len(score.players))) - side_in_round(game, score, number, 0))
    round_confirm(game=game, number=number, actor=Actor(seat=others[0], device="phone 1"))


def play_table(table: Table) -> None:
    game = table.game
    assert game is not None
    for number, entry in enumerate(DEALS[game.seats.count()], start=1):
        enter_and_confirm(game, number, entry)
