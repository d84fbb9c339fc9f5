"""Rummoli: a chip ledger for the nine-section board (rules.md section 4).

Totals are the chips each player holds; a round is one hand. Every hand is
applied in the order of the rules (ante, widow, poker, pay cards, end of hand)
and chip conservation is checked after each step: a break is a bug, never a
user mistake, so it raises AssertionError.

Decisions where rules.md is silent:

- Ante under ``pay_what_you_can``: a short player covers the sections in board
  order (rummoli first), paying the full ante on a section before moving on to
  the next, until they have nothing left.
- Money checks (widow price, poker bets) compare with what the player holds at
  that step of the hand: after the ante for the widow, after the widow for bets.
- ``went_out`` must be present in every hand; null records a deadlock.
- ``cards_left`` follows the deal (``deal_hands``): the 52 cards go one at a time to
  the players still in the game and the widow, so with h = players + 1 hands there
  are 52 mod h hands of 52 // h + 1 cards and the rest of 52 // h:

      players  hands of the deal (the widow is one of them)
         2     one of 18, two of 17
         3     four of 13
         4     two of 11, three of 10
         5     four of 9, two of 8
         6     three of 8, four of 7
         7     four of 7, four of 6
         8     seven of 6, two of 5

  A seat holds at most the largest hand (``most_cards_held``), and no more seats
  than there are largest hands hold that many (6 players: at most three hold 8).
  Whoever took the widow holds a hand of the deal too, and the hand set aside is
  one of them, so the players hold at most 52 less the smallest hand between them.
  The poker winner leads the first card of the rummy play: a single poker winner
  holds at most the largest hand less one, and in a deadlock the cards left add up
  to at most what the players were dealt less one (two players: 34, never 18 + 17).
- Under ``pay_what_you_can``, when a hand leaves exactly one player with chips
  that player takes the board as part of that hand (its deltas include the
  sweep and its board is empty). When a deadlock leaves nobody with chips, no
  further hand can be played: the game waits for an ``end`` naming who takes
  the leftovers (any seat then), and is not finished until it has one.
- ``end.leftovers_to`` must be a player still in the game (a seat with chips
  under ``pay_what_you_can``), and is refused once the game ended by itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from common.phrases import Sentence, Words, listed
from scoring.engines.base import (
    MAX_INT,
    N_,
    Conclusion,
    Engine,
    FieldSpec,
    InvalidRecord,
    OptionSpec,
    Phrase,
    Problem,
    RoundReader,
    RoundResult,
    Table,
    is_int,
    top_seats,
)

RUMMOLI = "rummoli"
POKER = "poker"
PAY_SECTIONS: tuple[str, ...] = (
    "ten_spades",
    "jack_diamonds",
    "queen_clubs",
    "king_hearts",
    "ace_spades",
    "ace_king_diamonds",
    "seven_eight_nine",
)
SECTIONS: tuple[str, ...] = (RUMMOLI, POKER, *PAY_SECTIONS)
SECTION_NAMES: dict[str, str] = {
    RUMMOLI: N_("the rummoli"),
    POKER: N_("the poker pot"),
    "ten_spades": N_("ten of spades"),
    "jack_diamonds": N_("jack of diamonds"),
    "queen_clubs": N_("queen of clubs"),
    "king_hearts": N_("king of hearts"),
    "ace_spades": N_("ace of spades"),
    "ace_king_diamonds": N_("ace-king of diamonds"),
    "seven_eight_nine": N_("7-8-9 of a suit"),
}
MAX_CARDS = 52  # one deck, jokers out


def most_cards_held(players: int) -> int:
    """The most cards one player can hold: the deck dealt one at a time to
    ``players`` hands and the widow (the first hands take one card more)."""
    return -(-MAX_CARDS // (max(players, 1) + 1))


def deal_hands(players: int) -> tuple[tuple[int, int], ...]:
    """The hands of the deal to ``players`` and the widow: (cards, how many hands),
    largest first; one pair when every hand is the same size."""
    hands = max(players, 1) + 1
    small, big = divmod(MAX_CARDS, hands)
    if not big:
        return ((small, hands),)
    return ((small + 1, big), (small, hands - big))


def most_cards_dealt(players: int) -> int:
    """The most cards ``players`` can hold between them: the deck less the smallest
    hand of the deal (the widow, or the hand set aside for it)."""
    return MAX_CARDS - deal_hands(players)[-1][0]


COUNT_WORDS = (
    N_("no"),
    N_("one"),
    N_("two"),
    N_("three"),
    N_("four"),
    N_("five"),
    N_("six"),
    N_("seven"),
    N_("eight"),
    N_("nine"),
)


def count_word(count: int) -> Phrase:
    return Phrase(COUNT_WORDS[count])


def deal_phrase(players: int) -> Phrase:
    """The deal in words: "three hands of 8 and four of 7"."""
    hands = deal_hands(players)
    cards, count = hands[0]
    first = Phrase(
        N_("{count} hand of {cards}") if count == 1 else N_("{count} hands of {cards}"),
        {"count": count_word(count), "cards": cards},
    )
    if len(hands) == 1:
        return first
    cards, count = hands[1]
    return Phrase(
        N_("{first} and {count} of {cards}"),
        {"first": first, "count": count_word(count), "cards": cards},
    )


def deal_text(players: int) -> str:
    """The deal in words, in English: "three hands of 8 and four of 7"."""
    return str(deal_phrase(players))


def cards_left_help(players: int, options: Mapping[str, Any]) -> Phrase:
    """The limits of the cards left at this table, as the entry form says them."""
    hands = deal_hands(players)
    values: dict[str, Any] = {"players": players, "deal": deal_phrase(players)}
    fewer = options.get("short_stack", PAY_WHAT_YOU_CAN) != DEBT and players > 2
    if len(hands) > 1:
        largest, count = hands[0]
        values["most"] = largest
        values["who"] = (
            Phrase(N_("one player"))
            if count == 1
            else Phrase(N_("{count} players"), {"count": count_word(count)})
        )
        template = (
            N_(
                "Dealt to {players} players and the widow: {deal}, so at most {who} can have "
                "{most} left (fewer players still in the game get bigger hands). The poker "
                "winner leads the first card."
            )
            if fewer
            else N_(
                "Dealt to {players} players and the widow: {deal}, so at most {who} can have "
                "{most} left. The poker winner leads the first card."
            )
        )
    else:
        template = (
            N_(
                "Dealt to {players} players and the widow: {deal} (fewer players still in the "
                "game get bigger hands). The poker winner leads the first card."
            )
            if fewer
            else N_(
                "Dealt to {players} players and the widow: {deal}. The poker winner leads the "
                "first card."
            )
        )
    return Phrase(template, values)


PAY_WHAT_YOU_CAN = "pay_what_you_can"
DEBT = "debt"


def cards_left_field(
    players: int, options: Mapping[str, Any], still_in: int | None = None
) -> FieldSpec:
    """The cards left of a hand, limited by the deal: the largest hand dealt to the
    ``still_in`` players still in the game and the widow. Not knowing who is still in,
    the limit is the largest hand any hand of this game can deal: under
    ``pay_what_you_can`` players out of the game leave bigger hands to the others
    (down to two players), under ``debt`` nobody leaves."""
    if still_in is None or not 1 <= still_in <= players:
        still_in = 2 if options.get("short_stack", PAY_WHAT_YOU_CAN) != DEBT else players
    return FieldSpec(
        "cards_left",
        "per_seat",
        N_("Cards left"),
        Words(
            N_("Cards each player still held at the end of the hand. {limits}"),
            {"limits": cards_left_help(players, options)},
        ),
        minimum=0,
        maximum=most_cards_held(still_in),
        column="Cards left",
    )


SHOWDOWN = "showdown"
BETTING = "betting"

ROUND_KEYS = frozenset({"widow", "poker", "pay_cards", "went_out", "cards_left"})


@dataclass
class RummoliState:
    """Chips in hand, chips on the board, and where the deal stands."""

    chips: list[int]
    board: dict[str, int]
    last_dealer: int | None = None
    over: bool = False
    swept_to: int | None = None  # the last player with chips, who took the board


@dataclass
class _Hand:
    """One hand's inputs once their shapes are read (None where a part was unreadable)."""

    widow_exchange: bool = False
    buyer: int | None = None
    price: int | None = None
    poker: bool = False
    winners: list[int] | None = None
    bets: list[int] | None = None
    pay_cards: dict[str, int] = field(default_factory=dict)
    went_out: int | None = None
    cards_left: list[int] | None = None


@dataclass
class _Moves:
    """What actually moved in a hand, for the line a person reads (pay what you can)."""

    short_antes: list[tuple[int, int, int]] = field(default_factory=list)  # seat, paid, due
    poker_share: int = 0
    poker_left: int = 0
    pay_cards: list[tuple[str, int, int]] = field(default_factory=list)  # section, seat, chips
    rummoli_taken: int = 0
    card_payments: list[tuple[int, int, int]] = field(default_factory=list)  # seat, paid, due


def _sentence(parts: list[str]) -> str:
    line = "; ".join(parts)
    return line[:1].upper() + line[1:]


def empty_board() -> dict[str, int]:
    return dict.fromkeys(SECTIONS, 0)


def _check_conserved(chips: list[int], board: Mapping[str, int], total: int, step: str) -> None:
    held = sum(chips) + sum(board.values())
    if held != total:
        raise AssertionError(f"Rummoli chips not conserved after {step}: {held} != {total}")


class Rummoli(Engine):
    key: ClassVar[str] = "rummoli"
    title: ClassVar[str] = "Rummoli"
    summary: ClassVar[str] = N_(
        "A chip ledger for the nine-section board: antes, the widow, the poker pot, "
        "the pay cards and the rummoli."
    )
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4, 5, 6, 7, 8)
    round_word: ClassVar[str] = "Hand"  # what a round is called at this game
    preferred_table_size: ClassVar[int] = 6
    standings_metrics: ClassVar[tuple[str, ...]] = (
        "placement_points",
        "share",
        "buchholz",
        "head_to_head",
        "game_points",
    )
    board_sections: ClassVar[Mapping[str, str]] = {
        section: SECTION_NAMES[section].removeprefix("the ") for section in SECTIONS
    }
    record_extras: ClassVar[frozenset[str]] = frozenset({"end"})

    # -- descriptions ------------------------------------------------------

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return (
            OptionSpec(
                "starting_chips",
                "int",
                50,
                "Starting chips",
                "Chips each player holds when the game begins.",
                minimum=1,
                maximum=10_000,
            ),
            OptionSpec(
                "ante",
                "int",
                1,
                "Ante",
                "Chips each player puts on every one of the nine sections at the start of a hand.",
                minimum=1,
                maximum=100,
            ),
            OptionSpec(
                "poker",
                "choice",
                SHOWDOWN,
                "Poker method",
                "Showdown: the best poker hand takes the poker pot. "
                "Betting: players bet into the pot first, then the best hand takes it.",
                choices=(SHOWDOWN, BETTING),
            ),
            OptionSpec(
                "short_stack",
                "choice",
                PAY_WHAT_YOU_CAN,
                "Running out of chips",
                "Pay what you can: a short player pays what they have and is out at 0 chips. "
                "Debt: chips may go below zero.",
                choices=(PAY_WHAT_YOU_CAN, DEBT),
            ),
        )

    def teams(self, players: int, options: Mapping[str, Any]) -> dict[str, list[int]]:
        return {}

    def round_fields(self, players: int, options: Mapping[str, Any]) -> tuple[FieldSpec, ...]:
        cap = self._chip_cap(players, options)
        poker_parts = [
            FieldSpec(
                "winners",
                "seats",
                N_("Won by"),
                N_("Who took the poker pot; name every player who split it."),
            )
        ]
        if options.get("poker", SHOWDOWN) == BETTING:
            poker_parts.append(
                FieldSpec(
                    "bets",
                    "per_seat",
                    N_("Bets"),
                    N_("Chips each player bet into the poker pot (0 for none)."),
                    required=False,
                    minimum=0,
                    maximum=cap,
                )
            )
        return (
            FieldSpec(
                "widow",
                "object",
                N_("Widow"),
                N_(
                    "Leave empty if nobody took the widow; the dealer exchanges, "
                    "or another player buys it from the dealer."
                ),
                required=False,
                parts=(
                    FieldSpec(
                        "exchange",
                        "bool",
                        N_("Dealer exchanges"),
                        N_("The dealer swapped their hand for the widow (no chips move)."),
                        required=False,
                    ),
                    FieldSpec(
                        "buyer",
                        "seat",
                        N_("Bought by"),
                        N_("The player (not the dealer) who bought the widow."),
                        required=False,
                    ),
                    FieldSpec(
                        "price",
                        "int",
                        N_("Price"),
                        N_("Chips the buyer paid the dealer."),
                        required=False,
                        minimum=1,
                        maximum=cap,
                    ),
                ),
                column="Widow",
            ),
            FieldSpec(
                "poker",
                "object",
                N_("Poker"),
                N_("Leave empty if the poker pot was not won; it carries over."),
                required=False,
                parts=tuple(poker_parts),
                column="Poker",
            ),
            FieldSpec(
                "pay_cards",
                "object",
                N_("Pay cards"),
                N_("Who took each pay section this hand; unclaimed sections carry over."),
                required=False,
                parts=tuple(
                    FieldSpec(section, "seat", Sentence(SECTION_NAMES[section]), required=False)
                    for section in PAY_SECTIONS
                ),
                column="Pay cards",
            ),
            FieldSpec(
                "went_out",
                "seat",
                N_("Went out"),
                N_("The player who played their last card; empty for a deadlock."),
                required=False,
                column="Out",
            ),
            cards_left_field(players, options),
        )

    def round_fields_at(
        self, players: int, options: Mapping[str, Any], upcoming: Mapping[str, Any]
    ) -> tuple[FieldSpec, ...]:
        out = upcoming.get("out")
        still_in = players - len(out) if isinstance(out, list) else None
        return tuple(
            cards_left_field(players, options, still_in) if spec.name == "cards_left" else spec
            for spec in self.round_fields(players, options)
        )

    def round_summary(self, table: Table, entry: Mapping[str, Any]) -> str:
        """The hand as entered, in a sentence: ``Sentence`` words, said in the reader's
        language by the pages (English as a string)."""
        names = table.players

        def name(seat: Any) -> str:
            return names[seat] if is_int(seat) and 0 <= seat < len(names) else "?"

        parts: list[Phrase] = []
        widow = entry.get("widow")
        if isinstance(widow, Mapping):
            if widow.get("exchange") is True:
                parts.append(Phrase(N_("the dealer took the widow")))
            elif "buyer" in widow:
                parts.append(
                    Phrase(
                        N_("{name} bought the widow for {price}"),
                        {"name": name(widow.get("buyer")), "price": widow.get("price")},
                    )
                )
        poker = entry.get("poker")
        if isinstance(poker, Mapping) and isinstance(poker.get("winners"), list):
            winners: Phrase | str = ""
            for seat in poker["winners"]:
                winners = (
                    Phrase(N_("{first} and {second}"), {"first": winners, "second": name(seat)})
                    if winners
                    else name(seat)
                )
            split = len(poker["winners"]) > 1
            values: dict[str, Any] = {"winners": winners}
            bets = poker.get("bets")
            if isinstance(bets, list) and all(is_int(b) for b in bets) and sum(bets):
                values["bets"] = sum(bets)
                template = (
                    N_("{winners} split the poker pot after {bets} in bets")
                    if split
                    else N_("{winners} won the poker pot after {bets} in bets")
                )
            else:
                template = (
                    N_("{winners} split the poker pot")
                    if split
                    else N_("{winners} won the poker pot")
                )
            parts.append(Phrase(template, values))
        pay_cards = entry.get("pay_cards")
        if isinstance(pay_cards, Mapping) and pay_cards:
            claims = [
                Phrase(
                    N_("{name} the {card}"),
                    {"name": name(pay_cards[section]), "card": Phrase(SECTION_NAMES[section])},
                )
                for section in PAY_SECTIONS
                if section in pay_cards
            ]
            parts.append(Phrase(N_("pay cards: {claims}"), {"claims": listed(claims, ", ")}))
        went_out = entry.get("went_out")
        cards = entry.get("cards_left")
        left = sum(cards) if isinstance(cards, list) and all(is_int(c) for c in cards) else 0
        # Without the balances only debt says for sure what the cards left cost.
        if table.options.get("short_stack") == DEBT:
            if went_out is None:
                parts.append(Phrase(N_("deadlock: {left} chips into the rummoli"), {"left": left}))
            else:
                parts.append(
                    Phrase(
                        N_("{name} went out and collects {left} for cards left"),
                        {"name": name(went_out), "left": left},
                    )
                )
        elif went_out is None:
            parts.append(
                Phrase(N_("deadlock: {left} cards left to pay into the rummoli"), {"left": left})
            )
        else:
            parts.append(
                Phrase(
                    N_("{name} went out; {left} cards left to pay for"),
                    {"name": name(went_out), "left": left},
                )
            )
        return listed(parts, sentence=True)

    def scored_summary(
        self,
        table: Table,
        hand: _Hand,
        moves: _Moves,
        before: list[int],
        after: list[int],
        sweep: tuple[int, int] | None,
    ) -> str:
        """The hand as it was scored: the chips that actually moved, seat by seat."""
        names = table.players
        parts: list[str] = []
        for seat, paid, due in moves.short_antes:
            parts.append(f"{names[seat]} could ante only {paid} of {due}")
        if hand.widow_exchange:
            parts.append("the dealer took the widow")
        elif hand.buyer is not None:
            parts.append(f"{names[hand.buyer]} bought the widow for {hand.price}")
        if hand.poker and hand.winners:
            bets = sum(hand.bets or [])
            after_bets = f", after {bets} in bets" if bets else ""
            if len(hand.winners) == 1:
                text = (
                    f"{names[hand.winners[0]]} won the poker pot ({moves.poker_share}{after_bets})"
                )
            else:
                who = " and ".join(names[s] for s in hand.winners)
                text = f"{who} split the poker pot ({moves.poker_share} each{after_bets}"
                text += f"; {moves.poker_left} stays on it)" if moves.poker_left else ")"
            parts.append(text)
        if moves.pay_cards:
            claims = [
                f"{names[seat]} the {SECTION_NAMES[section]} ({chips})"
                for section, seat, chips in moves.pay_cards
            ]
            parts.append("pay cards: " + ", ".join(claims))
        collected = sum(paid for _, paid, _ in moves.card_payments)
        due = sum(owed for _, _, owed in moves.card_payments)
        short = [
            f"{names[seat]} could pay only {paid} of {owed}"
            for seat, paid, owed in moves.card_payments
            if paid < owed
        ]
        shortfall = f" ({', '.join(short)})" if short else ""
        if hand.went_out is None:
            parts.append(f"deadlock: {collected} chips into the rummoli{shortfall}")
        else:
            who = names[hand.went_out]
            text = f"{who} went out, takes {moves.rummoli_taken} from the rummoli"
            if due:
                text += f" and collects {collected} for cards left{shortfall}"
            parts.append(text)
        if table.options["short_stack"] == PAY_WHAT_YOU_CAN:
            broke = [seat for seat in range(table.size) if before[seat] > 0 >= after[seat]]
            if broke:
                out = " and ".join(names[seat] for seat in broke)
                parts.append(f"{out} {'is' if len(broke) == 1 else 'are'} out of chips")
            if not any(after):
                parts.append("nobody has chips left: the leftovers go to whoever the table picks")
        if sweep is not None:
            seat, chips = sweep
            parts.append(
                f"{names[seat]} is the last player with chips and takes the board ({chips})"
            )
        return _sentence(parts)

    # -- scoring -----------------------------------------------------------

    def start(self, table: Table) -> RummoliState:
        return RummoliState(
            chips=[table.options["starting_chips"]] * table.size, board=empty_board()
        )

    def is_over(self, table: Table, state: RummoliState) -> bool:
        return state.over

    def play(
        self, table: Table, state: RummoliState, number: int, entry: Mapping[str, Any]
    ) -> RoundResult:
        reader = RoundReader(number, entry)
        reader.only_keys(ROUND_KEYS)
        dealer = self._next_dealer(table, state.chips, state.last_dealer)
        playing = [self._is_in(table, chips) for chips in state.chips]
        hand = self._read_hand(table, reader, entry, dealer, playing)
        moves = _Moves()
        chips, board = self._play_hand(table, reader, state, hand, dealer, playing, moves)
        reader.done()

        before = state.chips
        deltas = [after - held for after, held in zip(chips, before, strict=True)]
        state.chips = chips
        state.board = board
        state.last_dealer = dealer
        sweep: tuple[int, int] | None = None
        if table.options["short_stack"] == PAY_WHAT_YOU_CAN:
            holders = [seat for seat, held in enumerate(chips) if held > 0]
            if len(holders) == 1:
                sweep = (holders[0], sum(board.values()))
                deltas[holders[0]] += sweep[1]
                self._sweep(table, state, holders[0], "the last player's sweep")
                state.swept_to = holders[0]
                state.over = True
            elif not holders:
                state.over = True
        summary = self.scored_summary(table, hand, moves, before, chips, sweep)
        return RoundResult(
            number=number,
            dealer=dealer,
            deltas=deltas,
            totals=list(state.chips),
            details={
                "board": dict(state.board),
                "out": self._out(table, state.chips),
                "summary": summary,
            },
        )

    def conclude(self, table: Table, state: RummoliState, extras: Mapping[str, Any]) -> Conclusion:
        chips = list(state.chips)
        board = dict(state.board)
        finished = state.swept_to is not None
        if "end" in extras:
            seat = self._read_end(table, state, extras["end"])
            chips[seat] += sum(board.values())
            board = empty_board()
            _check_conserved(chips, board, self._total(table), "the leftovers")
            finished = True
        out = self._out(table, chips)
        last = state.last_dealer
        return Conclusion(
            totals=chips,
            finished=finished,
            winners=top_seats(chips) if finished else [],
            extras={"board": dict(board), "out": out},
            upcoming={
                "dealer": self._next_dealer(table, chips, last),
                "out": out,
                "board": dict(board),
                "chips": list(chips),
            },
        )

    # -- reading -----------------------------------------------------------

    def _read_hand(
        self,
        table: Table,
        reader: RoundReader,
        entry: Mapping[str, Any],
        dealer: int,
        playing: list[bool],
    ) -> _Hand:
        hand = _Hand()
        self._read_widow(table, reader, entry.get("widow"), dealer, playing, hand)
        self._read_poker(table, reader, entry.get("poker"), playing, hand)
        self._read_pay_cards(table, reader, entry.get("pay_cards"), playing, hand)
        self._read_end_of_hand(table, reader, entry, playing, hand)
        return hand

    def _read_widow(
        self,
        table: Table,
        reader: RoundReader,
        raw: Any,
        dealer: int,
        playing: list[bool],
        hand: _Hand,
    ) -> None:
        if raw is None:
            return
        if not isinstance(raw, Mapping):
            reader.fail(
                "widow",
                N_('widow must be {"exchange": true} or {"buyer": seat, "price": chips}'),
            )
            return
        if "exchange" in raw:
            for key in raw:
                if key != "exchange":
                    reader.fail(f"widow.{key}", N_("a widow exchange takes no {key!r}"), key=key)
            if raw["exchange"] is not True:
                reader.fail(
                    "widow.exchange",
                    N_("widow exchange must be true (leave the widow out if nobody took it)"),
                )
            else:
                hand.widow_exchange = True
            return
        for key in raw:
            if key not in {"buyer", "price"}:
                reader.fail(f"widow.{key}", N_("unknown field {key!r} in the widow"), key=key)
        if "buyer" not in raw:
            reader.fail("widow.buyer", N_("the widow buyer is missing"))
            buyer = None
        else:
            buyer = reader.seat("widow.buyer", raw["buyer"], table.size, Phrase(N_("widow buyer")))
        if "price" not in raw:
            reader.fail("widow.price", N_("the widow price is missing"))
            price = None
        else:
            cap = self._chip_cap(table.size, table.options)
            price = reader.integer("widow.price", raw["price"], 1, cap, Phrase(N_("widow price")))
        if buyer is not None:
            who = table.players[buyer]
            if buyer == dealer:
                reader.fail(
                    "widow.buyer", N_("{who} deals this hand and cannot buy the widow"), who=who
                )
                buyer = None
            elif not playing[buyer]:
                reader.fail(
                    "widow.buyer", N_("{who} is out of the game and cannot buy the widow"), who=who
                )
                buyer = None
        if buyer is not None and price is not None:
            hand.buyer, hand.price = buyer, price

    def _read_poker(
        self, table: Table, reader: RoundReader, raw: Any, playing: list[bool], hand: _Hand
    ) -> None:
        if raw is None:
            return
        if not isinstance(raw, Mapping):
            reader.fail(
                "poker", N_('poker must be {"winners": [seats]} (leave it out if nobody won)')
            )
            return
        betting = table.options["poker"] == BETTING
        for key in raw:
            if key == "bets" and not betting:
                reader.fail(
                    "poker.bets", N_("bets are recorded only under the betting poker method")
                )
            elif key not in {"winners", "bets"}:
                reader.fail(f"poker.{key}", N_("unknown field {key!r} in poker"), key=key)
        winners = self._read_winners(table, reader, raw.get("winners"), "winners" in raw, playing)
        bets: list[int] | None = [0] * table.size
        if betting and raw.get("bets") is not None:
            bets = self._read_bets(table, reader, raw["bets"], playing)
        if winners is not None and bets is not None:
            hand.poker, hand.winners, hand.bets = True, winners, bets

    def _read_winners(
        self, table: Table, reader: RoundReader, raw: Any, present: bool, playing: list[bool]
    ) -> list[int] | None:
        name = "poker.winners"
        if not present:
            reader.fail(name, N_("the poker winners are missing"))
            return None
        if not isinstance(raw, list):
            reader.fail(name, N_("poker winners must be a list of seats"))
            return None
        if not raw:
            reader.fail(name, N_("poker needs at least one winner (leave poker out if nobody won)"))
            return None
        if len(raw) > table.size:
            reader.fail(name, N_("poker has at most {size} winners"), size=table.size)
            return None
        winners: list[int] = []
        for item in raw:
            seat = reader.seat(name, item, table.size, Phrase(N_("poker winner")))
            if seat is None:
                return None
            who = table.players[seat]
            if seat in winners:
                reader.fail(name, N_("{who} is named twice among the poker winners"), who=who)
                return None
            if not playing[seat]:
                reader.fail(
                    name, N_("{who} is out of the game and cannot win the poker pot"), who=who
                )
                return None
            winners.append(seat)
        return winners

    def _read_bets(
        self, table: Table, reader: RoundReader, raw: Any, playing: list[bool]
    ) -> list[int] | None:
        name = "poker.bets"
        if not isinstance(raw, list) or len(raw) != table.size:
            reader.fail(name, N_("poker bets need one number per player ({size})"), size=table.size)
            return None
        cap = self._chip_cap(table.size, table.options)
        bets: list[int] = []
        for seat, item in enumerate(raw):
            who = table.players[seat]
            if not is_int(item) or not 0 <= item <= cap:
                reader.fail(
                    name, N_("{who}'s bet must be a whole number from 0 to {cap}"), who=who, cap=cap
                )
                return None
            if item and not playing[seat]:
                reader.fail(name, N_("{who} is out of the game and cannot bet"), who=who)
                return None
            bets.append(item)
        return bets

    def _read_pay_cards(
        self, table: Table, reader: RoundReader, raw: Any, playing: list[bool], hand: _Hand
    ) -> None:
        if raw is None:
            return
        if not isinstance(raw, Mapping):
            reader.fail("pay_cards", N_("pay_cards must map each claimed pay section to a seat"))
            return
        for section, value in raw.items():
            if section not in PAY_SECTIONS:
                if section in {RUMMOLI, POKER}:
                    reader.fail(
                        "pay_cards", N_("the {section} section is not a pay card"), section=section
                    )
                else:
                    reader.fail("pay_cards", N_("unknown pay section {section!r}"), section=section)
                continue
            field_name = f"pay_cards.{section}"
            label = Phrase(N_("claimant of the {card}"), {"card": Phrase(SECTION_NAMES[section])})
            seat = reader.seat(field_name, value, table.size, label)
            if seat is None:
                continue
            if not playing[seat]:
                who = table.players[seat]
                reader.fail(
                    field_name, N_("{who} is out of the game and cannot claim a pay card"), who=who
                )
                continue
            hand.pay_cards[section] = seat

    def _read_end_of_hand(
        self,
        table: Table,
        reader: RoundReader,
        entry: Mapping[str, Any],
        playing: list[bool],
        hand: _Hand,
    ) -> None:
        went_out: int | None = None
        went_out_ok = True
        if "went_out" not in entry:
            reader.fail(
                "went_out", N_("went_out is missing: name who went out, or null for a deadlock")
            )
            went_out_ok = False
        elif entry["went_out"] is not None:
            went_out = reader.seat("went_out", entry["went_out"], table.size, "went_out")
            if went_out is None:
                went_out_ok = False
            elif not playing[went_out]:
                who = table.players[went_out]
                reader.fail("went_out", N_("{who} is out of the game and cannot go out"), who=who)
                went_out_ok = False
        cards = self._read_cards_left(table, reader, entry, playing)
        if cards is not None and went_out is not None and cards[went_out] != 0:
            who = table.players[went_out]
            reader.fail(
                "cards_left", N_("{who} went out, so {who}'s cards left must be 0"), who=who
            )
            cards = None
        if cards is not None and went_out_ok:
            empty = [
                seat
                for seat in range(table.size)
                if playing[seat] and cards[seat] == 0 and seat != went_out
            ]
            if went_out is not None and empty:
                others = " and ".join(table.players[seat] for seat in empty)
                reader.fail(
                    "cards_left",
                    N_(
                        "{others} cannot have 0 cards left: only {who} went out, and the hand "
                        "ended there"
                    ),
                    others=others,
                    who=table.players[went_out],
                )
                cards = None
            elif len(empty) > 1:
                both = " and ".join(table.players[seat] for seat in empty)
                reader.fail(
                    "cards_left",
                    N_("{both} all have 0 cards left, but only one player can go out in a hand"),
                    both=both,
                )
                cards = None
            elif empty:
                who = table.players[empty[0]]
                reader.fail(
                    "went_out",
                    N_(
                        "{who} has 0 cards left, so {who} went out: name {who} in went_out "
                        "(in a deadlock every player still holds cards)"
                    ),
                    who=who,
                )
                cards = None
        if cards is not None and went_out_ok:
            cards = self._check_play(table, reader, cards, went_out, playing, hand)
        if went_out_ok and cards is not None:
            hand.went_out, hand.cards_left = went_out, cards

    def _check_play(
        self,
        table: Table,
        reader: RoundReader,
        cards: list[int],
        went_out: int | None,
        playing: list[bool],
        hand: _Hand,
    ) -> list[int] | None:
        """The rummy play starts with the poker winner leading a card: a single winner
        holds less than the largest hand, and a deadlock comes after at least one card."""
        dealt = sum(playing)
        largest = most_cards_held(dealt)
        if hand.poker and hand.winners is not None and len(hand.winners) == 1:
            leader = hand.winners[0]
            if cards[leader] >= largest:
                who = table.players[leader]
                reader.fail(
                    "cards_left",
                    N_(
                        "{who} won the poker hand and so led the first card: {who}'s cards left "
                        "must be at most {most} (no hand of the deal holds more than {largest})"
                    ),
                    who=who,
                    most=largest - 1,
                    largest=largest,
                )
                return None
        most = most_cards_dealt(dealt)
        if went_out is None and sum(cards) >= most:
            reader.fail(
                "cards_left",
                N_(
                    "in a deadlock the cards left add up to at most {most}, not {total}: "
                    "{dealt} players are dealt at most {held} between them ({deal}, "
                    "one of them the widow) and the first card is always led"
                ),
                most=most - 1,
                total=sum(cards),
                dealt=dealt,
                held=most,
                deal=deal_phrase(dealt),
            )
            return None
        return cards

    def _read_cards_left(
        self, table: Table, reader: RoundReader, entry: Mapping[str, Any], playing: list[bool]
    ) -> list[int] | None:
        name = "cards_left"
        if name not in entry:
            reader.fail(name, N_("cards_left is missing: one number per player"))
            return None
        raw = entry[name]
        if not isinstance(raw, list) or len(raw) != table.size:
            reader.fail(
                name, N_("cards_left needs one number per player ({size})"), size=table.size
            )
            return None
        cards: list[int] = []
        dealt = sum(playing)
        limit = cards_left_field(table.size, table.options, dealt).maximum or 0
        for seat, item in enumerate(raw):
            who = table.players[seat]
            if not is_int(item) or not 0 <= item <= MAX_CARDS:
                reader.fail(
                    name,
                    N_("{who}'s cards left must be a whole number from 0 to {most}"),
                    who=who,
                    most=MAX_CARDS,
                )
                return None
            if item > limit:
                reader.fail(
                    name,
                    N_(
                        "{who}'s cards left must be at most {limit}: {deck} cards dealt to "
                        "{dealt} players and the widow give no hand more than {limit}"
                    ),
                    who=who,
                    limit=limit,
                    deck=MAX_CARDS,
                    dealt=dealt,
                )
                return None
            if item and not playing[seat]:
                reader.fail(
                    name, N_("{who} is out of the game, so {who}'s cards left must be 0"), who=who
                )
                return None
            cards.append(item)
        if sum(cards) > MAX_CARDS:
            reader.fail(
                name,
                N_("cards left add up to {total}, more than the {deck} in a deck"),
                total=sum(cards),
                deck=MAX_CARDS,
            )
            return None
        largest, how_many = deal_hands(dealt)[0]
        full = [seat for seat in range(table.size) if cards[seat] == largest]
        if len(deal_hands(dealt)) > 1 and len(full) > how_many:
            who = " and ".join(table.players[seat] for seat in full)
            reader.fail(
                name,
                N_(
                    "{who} all have {largest} cards left, but {deck} cards dealt to "
                    "{dealt} players and the widow give {deal}: at most {count} can hold {largest}"
                ),
                who=who,
                largest=largest,
                deck=MAX_CARDS,
                dealt=dealt,
                deal=deal_phrase(dealt),
                count=count_word(how_many),
            )
            return None
        return cards

    def _read_end(self, table: Table, state: RummoliState, raw: Any) -> int:
        def invalid(template: str, **values: Any) -> InvalidRecord:
            return InvalidRecord([Problem(template, field="end", values=values)])

        if not isinstance(raw, Mapping) or set(raw) != {"leftovers_to"}:
            raise invalid(
                N_('end must be {"leftovers_to": seat}: who takes the chips left on the board')
            )
        seat = raw["leftovers_to"]
        if not is_int(seat) or not 0 <= seat < table.size:
            raise invalid(
                N_("end leftovers_to must be a seat from 0 to {last}"), last=table.size - 1
            )
        if state.swept_to is not None:
            winner = table.players[state.swept_to]
            raise invalid(
                N_("the game already ended when {winner} took the board; there are no leftovers"),
                winner=winner,
            )
        someone_in = any(self._is_in(table, held) for held in state.chips)
        if someone_in and not self._is_in(table, state.chips[seat]):
            raise invalid(
                N_("{who} is out of the game and cannot take the leftovers"),
                who=table.players[seat],
            )
        return seat

    # -- chips -------------------------------------------------------------

    def _play_hand(
        self,
        table: Table,
        reader: RoundReader,
        state: RummoliState,
        hand: _Hand,
        dealer: int,
        playing: list[bool],
        moves: _Moves,
    ) -> tuple[list[int], dict[str, int]]:
        """Apply the hand to copies of the chips; money problems go to ``reader``."""
        chips = list(state.chips)
        board = dict(state.board)
        total = self._total(table)
        debt = table.options["short_stack"] == DEBT
        ante = table.options["ante"]
        names = table.players
        _check_conserved(chips, board, total, "the previous hand")

        for seat in range(table.size):
            if not playing[seat]:
                continue
            anted = 0
            for section in SECTIONS:
                paid = ante if debt else min(ante, chips[seat])
                chips[seat] -= paid
                board[section] += paid
                anted += paid
            if anted < ante * len(SECTIONS):
                moves.short_antes.append((seat, anted, ante * len(SECTIONS)))
        _check_conserved(chips, board, total, "the ante")

        if hand.buyer is not None and hand.price is not None:
            if not debt and hand.price > chips[hand.buyer]:
                reader.fail(
                    "widow.price",
                    N_(
                        "{who} holds {chips} chips after the ante and cannot pay {price} for "
                        "the widow"
                    ),
                    who=names[hand.buyer],
                    chips=chips[hand.buyer],
                    price=hand.price,
                )
            else:
                chips[hand.buyer] -= hand.price
                chips[dealer] += hand.price
        _check_conserved(chips, board, total, "the widow")

        if hand.poker and hand.winners is not None and hand.bets is not None:
            for seat, bet in enumerate(hand.bets):
                if not debt and bet > chips[seat]:
                    reader.fail(
                        "poker.bets",
                        N_("{who} bets {bet} but holds only {chips} chips"),
                        who=names[seat],
                        bet=bet,
                        chips=chips[seat],
                    )
                    continue
                chips[seat] -= bet
                board[POKER] += bet
            share = board[POKER] // len(hand.winners)
            for seat in hand.winners:
                chips[seat] += share
            board[POKER] -= share * len(hand.winners)
            moves.poker_share, moves.poker_left = share, board[POKER]
        _check_conserved(chips, board, total, "the poker")

        for section in PAY_SECTIONS:
            if section in hand.pay_cards:
                moves.pay_cards.append((section, hand.pay_cards[section], board[section]))
                chips[hand.pay_cards[section]] += board[section]
                board[section] = 0
        _check_conserved(chips, board, total, "the pay cards")

        if hand.cards_left is not None:
            if hand.went_out is not None:
                moves.rummoli_taken = board[RUMMOLI]
                chips[hand.went_out] += board[RUMMOLI]
                board[RUMMOLI] = 0
            for seat, cards in enumerate(hand.cards_left):
                if seat == hand.went_out:
                    continue
                paid = cards if debt else min(cards, max(chips[seat], 0))
                if cards:
                    moves.card_payments.append((seat, paid, cards))
                chips[seat] -= paid
                if hand.went_out is None:
                    board[RUMMOLI] += paid
                else:
                    chips[hand.went_out] += paid
        _check_conserved(chips, board, total, "the end of the hand")
        if any(amount < 0 for amount in board.values()):
            raise AssertionError(f"Rummoli board went negative: {board}")
        if not debt and any(held < 0 for held in chips):
            raise AssertionError(f"Rummoli balance went negative without debt: {chips}")
        return chips, board

    def _sweep(self, table: Table, state: RummoliState, seat: int, step: str) -> None:
        state.chips[seat] += sum(state.board.values())
        state.board = empty_board()
        _check_conserved(state.chips, state.board, self._total(table), step)

    def _total(self, table: Table) -> int:
        starting: int = table.options["starting_chips"]
        return table.size * starting

    @staticmethod
    def _is_in(table: Table, held: int) -> bool:
        return table.options["short_stack"] == DEBT or held > 0

    def _out(self, table: Table, chips: list[int]) -> list[int]:
        return [seat for seat, held in enumerate(chips) if not self._is_in(table, held)]

    def _next_dealer(self, table: Table, chips: list[int], last: int | None) -> int:
        """The first dealer, then the next player to the left who is still in."""
        if last is None:
            return table.first_dealer
        for step in range(1, table.size + 1):
            seat = table.next_seat(last, step)
            if self._is_in(table, chips[seat]):
                return seat
        return table.next_seat(last)

    @staticmethod
    def _chip_cap(players: int, options: Mapping[str, Any]) -> int:
        """The most chips a price or bet can be: every chip in the game, or any sum under debt."""
        if options.get("short_stack", PAY_WHAT_YOU_CAN) == DEBT:
            return MAX_INT
        starting: int = options.get("starting_chips", 50)
        return players * starting
