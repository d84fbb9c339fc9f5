"""Hypothesis strategies for valid Rummoli records, and a reference chip ledger.

The ledger is a second, independent reading of rules.md section 4: the strategy
uses it to keep every drawn hand valid (who is still in, what a player can pay),
and the tests compare the engine's totals with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

BOARD = (
    "rummoli",
    "poker",
    "ten_spades",
    "jack_diamonds",
    "queen_clubs",
    "king_hearts",
    "ace_spades",
    "ace_king_diamonds",
    "seven_eight_nine",
)
PAYS = BOARD[2:]
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")


@dataclass
class Ledger:
    """Chips and board of one game, hand by hand, as the rules describe them."""

    players: int
    starting_chips: int
    ante: int
    debt: bool
    first_dealer: int
    chips: list[int] = field(default_factory=list)
    board: dict[str, int] = field(default_factory=dict)
    dealer: int | None = None
    over: bool = False
    swept: bool = False

    def __post_init__(self) -> None:
        self.chips = [self.starting_chips] * self.players
        self.board = dict.fromkeys(BOARD, 0)

    def is_in(self, seat: int) -> bool:
        return self.debt or self.chips[seat] > 0

    def next_dealer(self) -> int:
        if self.dealer is None:
            return self.first_dealer
        for step in range(1, self.players + 1):
            seat = (self.dealer + step) % self.players
            if self.is_in(seat):
                return seat
        return (self.dealer + 1) % self.players

    def pay(self, seat: int, amount: int) -> int:
        """What ``seat`` actually hands over when asked for ``amount``."""
        paid = amount if self.debt else min(amount, self.chips[seat])
        self.chips[seat] -= paid
        return paid

    def play(self, entry: dict[str, Any]) -> None:
        dealer = self.next_dealer()
        seats_in = [seat for seat in range(self.players) if self.is_in(seat)]
        for seat in seats_in:
            for section in BOARD:
                self.board[section] += self.pay(seat, self.ante)
        widow = entry.get("widow") or {}
        if "buyer" in widow:
            self.chips[widow["buyer"]] -= widow["price"]
            self.chips[dealer] += widow["price"]
        poker = entry.get("poker")
        if poker:
            for seat, bet in enumerate(poker.get("bets") or []):
                self.chips[seat] -= bet
                self.board["poker"] += bet
            winners = poker["winners"]
            each = self.board["poker"] // len(winners)
            for seat in winners:
                self.chips[seat] += each
                self.board["poker"] -= each
        for section, seat in (entry.get("pay_cards") or {}).items():
            self.chips[seat] += self.board[section]
            self.board[section] = 0
        went_out = entry["went_out"]
        if went_out is not None:
            self.chips[went_out] += self.board["rummoli"]
            self.board["rummoli"] = 0
        for seat, cards in enumerate(entry["cards_left"]):
            if seat != went_out:
                paid = self.pay(seat, cards)
                if went_out is None:
                    self.board["rummoli"] += paid
                else:
                    self.chips[went_out] += paid
        self.dealer = dealer
        if not self.debt:
            holders = [seat for seat in range(self.players) if self.chips[seat] > 0]
            if len(holders) == 1:
                self.chips[holders[0]] += sum(self.board.values())
                self.board = dict.fromkeys(BOARD, 0)
                self.swept = True
            self.over = len(holders) <= 1

    def leftovers(self, seat: int) -> None:
        self.chips[seat] += sum(self.board.values())
        self.board = dict.fromkeys(BOARD, 0)


def ledger_for(record: dict[str, Any]) -> Ledger:
    options = record.get("options", {})
    return Ledger(
        players=len(record["players"]),
        starting_chips=options.get("starting_chips", 50),
        ante=options.get("ante", 1),
        debt=options.get("short_stack", "pay_what_you_can") == "debt",
        first_dealer=record.get("first_dealer", 0),
    )


@st.composite
def hands(draw: st.DrawFn, ledger: Ledger, betting: bool) -> dict[str, Any]:
    """One valid hand for the game as ``ledger`` stands."""
    n = ledger.players
    dealer = ledger.next_dealer()
    seats_in = [seat for seat in range(n) if ledger.is_in(seat)]
    ante = ledger.ante * len(BOARD)
    after = [
        (held - ante if ledger.debt else max(held - ante, 0)) if ledger.is_in(s) else held
        for s, held in enumerate(ledger.chips)
    ]
    entry: dict[str, Any] = {}
    buyers = [s for s in seats_in if s != dealer and (ledger.debt or after[s] > 0)]
    widow = draw(st.sampled_from(("none", "exchange", "buy")))
    if widow == "exchange":
        entry["widow"] = {"exchange": True}
    elif widow == "buy" and buyers:
        buyer = draw(st.sampled_from(buyers))
        price = draw(st.integers(1, 12 if ledger.debt else min(12, after[buyer])))
        entry["widow"] = {"buyer": buyer, "price": price}
        after[buyer] -= price
        after[dealer] += price
    if draw(st.booleans()) or draw(st.booleans()):
        winners = draw(
            st.lists(
                st.sampled_from(seats_in), min_size=1, max_size=min(3, len(seats_in)), unique=True
            )
        )
        poker: dict[str, Any] = {"winners": winners}
        if betting and draw(st.booleans()):
            poker["bets"] = [
                draw(st.integers(0, 8 if ledger.debt else max(0, min(8, after[s]))))
                if ledger.is_in(s)
                else 0
                for s in range(n)
            ]
        entry["poker"] = poker
    claims = draw(st.dictionaries(st.sampled_from(PAYS), st.sampled_from(seats_in), max_size=7))
    if claims or draw(st.booleans()):
        entry["pay_cards"] = claims
    went_out = draw(st.none() | st.sampled_from(seats_in))
    entry["went_out"] = went_out
    # The deal: 52 cards one at a time to the players in and the widow; one hand of
    # them is set aside (the widow, or the hand exchanged for it).
    dealt = [52 // (len(seats_in) + 1)] * (len(seats_in) + 1)
    for extra in range(52 % (len(seats_in) + 1)):
        dealt[extra] += 1
    held = draw(st.permutations(dealt))[: len(seats_in)]
    start = dict(zip(seats_in, held, strict=True))
    # The poker winner (when there is one) leads the first card; else someone does.
    winners = entry.get("poker", {}).get("winners", [])
    leader = winners[0] if len(winners) == 1 else draw(st.sampled_from(seats_in))
    entry["cards_left"] = [
        draw(st.integers(1, start[s] - (s == leader))) if s in start and s != went_out else 0
        for s in range(n)
    ]
    return entry


@st.composite
def valid_records(draw: st.DrawFn) -> dict[str, Any]:
    players = draw(st.integers(2, 8))
    options: dict[str, Any] = {}
    if draw(st.booleans()):
        options["starting_chips"] = draw(st.sampled_from((1, 5, 12, 30, 50, 200)))
    if draw(st.booleans()):
        options["ante"] = draw(st.integers(1, 3))
    if draw(st.booleans()):
        options["poker"] = draw(st.sampled_from(("showdown", "betting")))
    if draw(st.booleans()):
        options["short_stack"] = draw(st.sampled_from(("pay_what_you_can", "debt")))
    record: dict[str, Any] = {
        "format": 1,
        "game": "rummoli",
        "players": list(NAMES[:players]),
        "options": options,
        "first_dealer": draw(st.integers(0, players - 1)),
        "rounds": [],
    }
    ledger = ledger_for(record)
    betting = options.get("poker") == "betting"
    for _ in range(draw(st.integers(1, 6))):
        if ledger.over:
            break
        entry = draw(hands(ledger, betting))
        ledger.play(entry)
        record["rounds"].append(entry)
    if not ledger.swept and draw(st.booleans()):
        holders = [seat for seat in range(players) if ledger.is_in(seat)]
        record["end"] = {"leftovers_to": draw(st.sampled_from(holders or list(range(players))))}
    return record
