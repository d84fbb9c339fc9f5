"""Rook Sluff: a Spades-like partnership game with two Rook decks (rules.md section 3).

Two teams sit alternately (A = even seats, B = odd seats). Every player bids a
number of tricks (0 is a Sluff: a promise to take none); a team scores 10 per
trick of its combined bid plus 1 per extra trick when it makes the bid, else
nothing, and each Sluff adds or removes the sluff bonus. The game lasts a fixed
number of deals, by default one per player.

A deal is recorded in one of two forms, both scored by the same rules:

- per player (rules.md): ``bids`` and ``tricks``, one number per seat;
- per team: ``bids`` per seat (a bid of 0 is what makes a Sluff), ``team_tricks``
  (``{"A": n, "B": m}``, together every trick of the deal) and ``failed_sluffs``
  (the seats of the Sluffs that took a trick; absent or empty: every Sluff made).

The rules need no more than a team's bids added up, its tricks in total ("it does not
matter which players of the team win the tricks") and, for each Sluff, whether that
player took a trick; the per-team form asks exactly that. A deal is stored as it was
entered: a per-team deal keeps ``team_tricks`` and ``failed_sluffs`` and is never
split into invented per-player tricks, so a history shows what was entered; its score
(deltas, totals and the details ``team_bids``, ``team_tricks`` and ``sluffs``) is the
score of any per-player deal with the same bids, the same team totals and the same
Sluffs taking tricks. A per-team deal is refused when no per-player deal could give it:
a team cannot have fewer tricks than it has failed Sluffs (each took one at least), nor
any trick when every player of it made a Sluff.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeGuard

from common.phrases import Words, listed
from scoring.engines.base import (
    N_,
    Conclusion,
    Engine,
    FieldSpec,
    OptionSpec,
    Phrase,
    Problem,
    RoundReader,
    RoundResult,
    Seat,
    Table,
    is_int,
    top_seats,
)

TEAM_LABELS = ("A", "B")
ROUND_KEYS = frozenset({"bids", "tricks", "team_tricks", "failed_sluffs", "penalties"})
PENALTY_MAXIMUM = 10_000
SINGLE_DECK_PLAYERS = 4


def tricks_per_deal(players: int) -> int:
    """T: every card is dealt, so 14 tricks for 4 (single deck), 6 or 8 players, 11 for 10."""
    return 11 if players == 10 else 14


def deals_in_game(players: int, options: Mapping[str, Any]) -> int:
    """The ``deals`` option, where null means one deal per player (everyone deals once)."""
    deals = options.get("deals")
    return deals if is_int(deals) else players


def team_seats(players: int) -> dict[str, list[int]]:
    return {
        "A": [seat for seat in range(players) if seat % 2 == 0],
        "B": [seat for seat in range(players) if seat % 2 == 1],
    }


@dataclass
class RookSluffState:
    totals: list[int]
    deals_played: int = 0
    dealer: int = 0  # the dealer of the next deal
    team_totals: dict[str, int] = field(default_factory=dict)


class RookSluff(Engine):
    key = "rook_sluff"
    title = "Rook Sluff"
    summary = N_(
        "Two teams sitting alternately bid tricks, Spades style; a bid of zero is a Sluff. "
        "6, 8 or 10 players with two Rook decks, or 4 with a single deck."
    )
    player_counts = (6, 8, 10)
    round_word: ClassVar[str] = "Deal"
    preferred_table_size: ClassVar[int] = 8
    standings_metrics: ClassVar[tuple[str, ...]] = ("wins", "share", "buchholz", "head_to_head")
    standings_strength: ClassVar[str] = "wins"

    # -- descriptions ------------------------------------------------------

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return (
            OptionSpec(
                name="deals",
                kind="int_or_null",
                default=None,
                label="Deals",
                help=(
                    "How many deals the game lasts (1 to 60). Leave empty for one deal per "
                    "player, so that everyone deals once."
                ),
                minimum=1,
                maximum=60,
            ),
            OptionSpec(
                name="sluff_bonus",
                kind="int",
                default=50,
                label="Sluff bonus",
                help=(
                    "Points a team gains for each Sluff that takes no trick, and loses for each "
                    "Sluff that takes a trick."
                ),
                minimum=0,
                maximum=500,
            ),
            OptionSpec(
                name="single_deck",
                kind="bool",
                default=False,
                label="Single deck (4 players)",
                help=(
                    "Four players with one 56-card Rook deck (birds removed): 14 tricks a deal, "
                    "teams of two, much like Spades."
                ),
            ),
        )

    def allowed_player_counts(self, options: Mapping[str, Any]) -> tuple[int, ...]:
        if options.get("single_deck") is True:
            return (SINGLE_DECK_PLAYERS,)
        return self.player_counts

    def option_problems(self, options: Mapping[str, Any], players: int) -> list[Problem]:
        single = options.get("single_deck") is True
        if single and players != SINGLE_DECK_PLAYERS:
            return [
                Problem(
                    N_("option single_deck is for 4 players (one 56-card deck), not {players}"),
                    field="options.single_deck",
                    values={"players": players},
                )
            ]
        if not single and players == SINGLE_DECK_PLAYERS:
            return [
                Problem(
                    N_(
                        "Rook Sluff with 4 players needs the single_deck option; "
                        "the double-deck game is for 6, 8 or 10 players"
                    ),
                    field="players",
                )
            ]
        return []

    def teams(self, players: int, options: Mapping[str, Any]) -> dict[str, list[int]]:
        return team_seats(players)

    def round_fields(self, players: int, options: Mapping[str, Any]) -> tuple[FieldSpec, ...]:
        tricks = tricks_per_deal(players)
        return (
            FieldSpec(
                name="bids",
                kind="per_seat",
                label=N_("Bids"),
                help=Words(
                    N_(
                        "The tricks each player bids, 0 to {tricks}; 0 is a Sluff "
                        "(a promise to take no trick). A team's bid is the sum of its players' "
                        "bids."
                    ),
                    {"tricks": tricks},
                ),
                minimum=0,
                maximum=tricks,
                column="Bid",
            ),
            FieldSpec(
                name="tricks",
                kind="per_seat",
                label=N_("Tricks taken"),
                help=Words(
                    N_(
                        "The tricks each player took; together exactly {tricks}. "
                        "Or give team_tricks (and failed_sluffs) instead."
                    ),
                    {"tricks": tricks},
                ),
                required=False,
                minimum=0,
                maximum=tricks,
                column="Took",
            ),
            FieldSpec(
                name="team_tricks",
                kind="per_side",
                label=N_("Team tricks"),
                help=Words(
                    N_(
                        "The tricks each team took in total, together exactly {tricks} "
                        "(which players of the team took them does not matter); instead of "
                        "tricks per player."
                    ),
                    {"tricks": tricks},
                ),
                required=False,
                minimum=0,
                maximum=tricks,
                keys=TEAM_LABELS,
            ),
            FieldSpec(
                name="failed_sluffs",
                kind="seats",
                label=N_("Sluffs that took a trick"),
                help=N_(
                    "With team_tricks: the players who bid a Sluff (0) and took a trick or more; "
                    "every other Sluff took none."
                ),
                required=False,
            ),
            FieldSpec(
                name="penalties",
                kind="penalties",
                label=N_("Penalties"),
                help=N_("Points taken off the offender's team (for a revoke, say)."),
                required=False,
                minimum=0,
                maximum=PENALTY_MAXIMUM,
                column="Pen.",
            ),
        )

    def round_summary(self, table: Table, entry: Mapping[str, Any]) -> str:
        """Each team's bid, tricks and outcome, then each Sluff and penalty: ``Words``, said
        in the reader's language by the pages (English as a string)."""
        bids = entry.get("bids")
        if not _int_list(bids, table.size):
            return ""
        tricks: Any = entry.get("tricks")
        team_tricks: Any = entry.get("team_tricks")
        failed = entry.get("failed_sluffs") or []
        per_player = _int_list(tricks, table.size)
        if not per_player and not (
            isinstance(team_tricks, Mapping)
            and all(is_int(team_tricks.get(label)) for label in table.teams)
            and isinstance(failed, list)
        ):
            return ""
        parts: list[Phrase] = []
        for label, seats in table.teams.items():
            bid = sum(bids[s] for s in seats)
            took = sum(tricks[s] for s in seats) if per_player else team_tricks[label]
            outcome = (
                N_("{team} bid {bid}, took {took} (made)")
                if took >= bid
                else N_("{team} bid {bid}, took {took} (set)")
            )
            parts.append(Phrase(outcome, {"team": label, "bid": bid, "took": took}))
        for seat in range(table.size):
            if bids[seat] != 0:
                continue
            name = table.players[seat]
            if per_player:
                if tricks[seat] == 0:
                    parts.append(Phrase(N_("{name}'s Sluff made"), {"name": name}))
                else:
                    parts.append(
                        Phrase(
                            N_("{name}'s Sluff failed ({tricks})"),
                            {"name": name, "tricks": _tricks(tricks[seat])},
                        )
                    )
            elif seat in failed:
                parts.append(Phrase(N_("{name}'s Sluff failed (took a trick)"), {"name": name}))
            else:
                parts.append(Phrase(N_("{name}'s Sluff made"), {"name": name}))
        penalties = entry.get("penalties") or []
        if isinstance(penalties, list):
            for item in penalties:
                if isinstance(item, Mapping):
                    player, points = item.get("player"), item.get("points")
                    if is_int(player) and 0 <= player < table.size and is_int(points):
                        parts.append(
                            Phrase(
                                N_("{name} penalised {points}"),
                                {"name": table.players[player], "points": _show(points)},
                            )
                        )
        return listed(parts)

    # -- scoring -----------------------------------------------------------

    def start(self, table: Table) -> RookSluffState:
        return RookSluffState(
            totals=[0] * table.size,
            dealer=table.first_dealer,
            team_totals=dict.fromkeys(table.teams, 0),
        )

    def play(
        self, table: Table, state: RookSluffState, number: int, entry: Mapping[str, Any]
    ) -> RoundResult:
        size = table.size
        tricks_total = tricks_per_deal(size)
        reader = RoundReader(number, entry)
        reader.only_keys(ROUND_KEYS)
        bids = self._read_per_seat(reader, table, "bids", tricks_total)
        taken = self._read_taken(reader, table, bids, tricks_total)
        penalties = reader.penalties(table.size, PENALTY_MAXIMUM)
        reader.done()
        assert bids is not None and taken is not None  # done() raised otherwise
        team_tricks, failed = taken

        bonus: int = table.options["sluff_bonus"]
        team_bids: dict[str, int] = {}
        team_delta: dict[str, int] = {}
        sluffs: dict[str, str] = {}
        warnings: list[str] = []
        for label, seats in table.teams.items():
            bid = sum(bids[s] for s in seats)
            won = team_tricks[label]
            team_bids[label] = bid
            score = 10 * bid + (won - bid) if won >= bid else 0
            for seat in seats:
                if bids[seat] == 0:
                    made = seat not in failed
                    sluffs[str(seat)] = "made" if made else "failed"
                    score += bonus if made else -bonus
            team_delta[label] = score
            if bid > tricks_total:
                warnings.append(
                    Words(
                        N_("team {team} bid {bid}, more than the {tricks} tricks"),
                        {"team": label, "bid": bid, "tricks": tricks_total},
                    )
                )
        for label, points in team_penalties(table, penalties).items():
            team_delta[label] -= points

        for label, delta in team_delta.items():
            state.team_totals[label] += delta
        deltas = [0] * size
        for label, seats in table.teams.items():
            for seat in seats:
                deltas[seat] = team_delta[label]
                state.totals[seat] = state.team_totals[label]
        dealer = state.dealer
        state.dealer = table.next_seat(dealer)
        state.deals_played += 1
        return RoundResult(
            number=number,
            dealer=dealer,
            deltas=deltas,
            totals=list(state.totals),
            details={
                "team_bids": team_bids,
                "team_tricks": team_tricks,
                "sluffs": {key: sluffs[key] for key in sorted(sluffs, key=int)},
            },
            warnings=warnings,
        )

    def is_over(self, table: Table, state: RookSluffState) -> bool:
        return state.deals_played >= deals_in_game(table.size, table.options)

    def conclude(
        self, table: Table, state: RookSluffState, extras: Mapping[str, Any]
    ) -> Conclusion:
        deals = deals_in_game(table.size, table.options)
        finished = state.deals_played >= deals
        return Conclusion(
            totals=list(state.totals),
            finished=finished,
            winners=top_seats(state.totals) if finished else [],
            upcoming={
                "dealer": state.dealer,
                "tricks": tricks_per_deal(table.size),
                "deals_left": max(deals - state.deals_played, 0),
            },
        )

    # -- reading -----------------------------------------------------------

    def _read_taken(
        self, reader: RoundReader, table: Table, bids: list[int] | None, total: int
    ) -> tuple[dict[str, int], set[int]] | None:
        """Each team's tricks and the seats of the Sluffs that took a trick, read from the
        tricks per player or from the per-team form (``team_tricks``, ``failed_sluffs``)."""
        entry = reader.entry
        per_team = entry.get("team_tricks") is not None
        if per_team and entry.get("tricks") is not None:
            reader.fail(
                "team_tricks",
                N_(
                    "team_tricks: give the tricks per player (tricks) or per team (team_tricks), "
                    "not both"
                ),
            )
            return None
        if not per_team:
            if entry.get("failed_sluffs") is not None:
                reader.fail(
                    "failed_sluffs",
                    N_(
                        "failed_sluffs goes with team_tricks; with tricks per player, a Sluff "
                        "failed when its player took a trick"
                    ),
                )
            if entry.get("tricks") is None:
                reader.fail(
                    "tricks",
                    N_(
                        "tricks are missing: one number per player ({players}), or "
                        "team_tricks per team"
                    ),
                    players=table.size,
                )
                return None
            tricks = self._read_per_seat(reader, table, "tricks", total)
            if tricks is not None and sum(tricks) != total:
                reader.fail(
                    "tricks",
                    N_(
                        "tricks add up to {given}, but a deal of {players} players has "
                        "exactly {total} tricks"
                    ),
                    given=sum(tricks),
                    players=table.size,
                    total=total,
                )
                return None
            if tricks is None:
                return None
            team_tricks = {
                label: sum(tricks[s] for s in seats) for label, seats in table.teams.items()
            }
            failed = {seat for seat in range(table.size) if tricks[seat] > 0}
            if bids is not None:
                failed = {seat for seat in failed if bids[seat] == 0}
            return team_tricks, failed
        team_tricks_read = self._read_team_tricks(reader, table, total)
        failed_read = self._read_failed_sluffs(reader, table, bids)
        if team_tricks_read is None or failed_read is None or bids is None:
            return None
        for label, seats in table.teams.items():
            won = team_tricks_read[label]
            failing = [seat for seat in seats if seat in failed_read]
            if won < len(failing):
                reader.fail(
                    "team_tricks",
                    N_(
                        "team tricks: team {team} took {tricks}, but {count} of its Sluffs "
                        "({names}) took a trick each"
                    ),
                    team=label,
                    tricks=_tricks(won),
                    count=len(failing),
                    names=_names(table, failing),
                )
            made_all = all(bids[seat] == 0 and seat not in failed_read for seat in seats)
            if made_all and won > 0:
                reader.fail(
                    "team_tricks",
                    N_(
                        "team tricks: team {team} took {tricks}, but every player of it "
                        "made a Sluff (took no trick)"
                    ),
                    team=label,
                    tricks=_tricks(won),
                )
        return team_tricks_read, failed_read

    @staticmethod
    def _read_team_tricks(reader: RoundReader, table: Table, total: int) -> dict[str, int] | None:
        value = reader.entry["team_tricks"]
        labels = list(table.teams)
        if not isinstance(value, Mapping) or set(value) != set(labels):
            reader.fail(
                "team_tricks",
                N_("team_tricks must give the tricks of team {teams}, one number each"),
                teams=Phrase(
                    N_("{some} and {last}"), {"some": ", ".join(labels[:-1]), "last": labels[-1]}
                ),
            )
            return None
        numbers: dict[str, int] = {}
        for label in labels:
            item = value[label]
            if not is_int(item):
                reader.fail(
                    "team_tricks",
                    N_("team_tricks of team {team} must be a whole number"),
                    team=label,
                )
            elif not 0 <= item <= total:
                reader.fail(
                    "team_tricks",
                    N_("team_tricks of team {team} is {value}; a deal has 0 to {total} tricks"),
                    team=label,
                    value=_show(item),
                    total=total,
                )
            else:
                numbers[label] = item
        if len(numbers) != len(labels):
            return None
        if sum(numbers.values()) != total:
            reader.fail(
                "team_tricks",
                N_(
                    "team tricks add up to {given}, not the {total} tricks "
                    "of a deal of {players} players"
                ),
                given=sum(numbers.values()),
                total=total,
                players=table.size,
            )
            return None
        return numbers

    @staticmethod
    def _read_failed_sluffs(
        reader: RoundReader, table: Table, bids: list[int] | None
    ) -> set[int] | None:
        value = reader.entry.get("failed_sluffs")
        if value is None:
            return set()
        if not isinstance(value, list):
            reader.fail("failed_sluffs", N_("failed_sluffs must be a list of seats"))
            return None
        found: set[int] = set()
        for item in value:
            if not is_int(item) or not 0 <= item < table.size:
                shown = _show(item) if is_int(item) else repr(item)[:40]
                reader.fail(
                    "failed_sluffs",
                    N_("failed_sluffs: {value} is not a seat of this table (0 to {last})"),
                    value=shown,
                    last=table.size - 1,
                )
                return None
            if item in found:
                reader.fail(
                    "failed_sluffs",
                    N_("failed_sluffs names {names} twice"),
                    names=_names(table, [item]),
                )
                return None
            if bids is not None and bids[item] != 0:
                reader.fail(
                    "failed_sluffs",
                    N_("failed_sluffs: {names} bid {bid}, not a Sluff (0)"),
                    names=_names(table, [item]),
                    bid=bids[item],
                )
                return None
            found.add(item)
        return found

    @staticmethod
    def _read_per_seat(
        reader: RoundReader, table: Table, name: str, maximum: int
    ) -> list[int] | None:
        """One whole number 0..maximum per seat; every bad item is reported by player."""
        said = PER_SEAT_PROBLEMS[name]
        if name not in reader.entry:
            reader.fail(name, said["missing"], players=table.size)
            return None
        value = reader.entry[name]
        if not isinstance(value, list):
            reader.fail(name, said["not_list"], players=table.size)
            return None
        if len(value) != table.size:
            reader.fail(name, said["count"], players=table.size, given=len(value))
            return None
        numbers: list[int] = []
        for seat, item in enumerate(value):
            who = _names(table, [seat])
            if not is_int(item):
                reader.fail(name, said["not_int"], who=who)
            elif item < 0:
                reader.fail(name, said["negative"], who=who, value=_show(item))
            elif item > maximum:
                reader.fail(name, said["too_many"], who=who, value=_show(item), most=maximum)
            else:
                numbers.append(item)
        return numbers if len(numbers) == table.size else None


# What is wrong with the bids or the tricks given per seat, a template for each.
PER_SEAT_PROBLEMS: dict[str, dict[str, str]] = {
    "bids": {
        "missing": N_("bids are missing: one number per player ({players})"),
        "not_list": N_("bids must be a list with one number per player ({players})"),
        "count": N_("bids needs one number per player ({players}), not {given}"),
        "not_int": N_("bid of {who} must be a whole number"),
        "negative": N_("bid of {who} cannot be negative ({value})"),
        "too_many": N_("bid {value} of {who} is more than the {most} tricks of a deal"),
    },
    "tricks": {
        "missing": N_("tricks are missing: one number per player ({players})"),
        "not_list": N_("tricks must be a list with one number per player ({players})"),
        "count": N_("tricks needs one number per player ({players}), not {given}"),
        "not_int": N_("tricks of {who} must be a whole number"),
        "negative": N_("tricks of {who} cannot be negative ({value})"),
        "too_many": N_("tricks {value} of {who} is more than the {most} tricks of a deal"),
    },
}


def _tricks(count: int) -> Phrase:
    if count == 1:
        return Phrase(N_("1 trick"))
    return Phrase(N_("{count} tricks"), {"count": count})


def _names(table: Table, seats: Sequence[int]) -> Words:
    """Players named with their seats ("Ann (seat 0), Cy (seat 2)"), seats as each reader
    counts them."""
    return listed(
        [
            Phrase(N_("{name} (seat {seat})"), {"name": table.players[seat], "seat": Seat(seat)})
            for seat in seats
        ],
        ", ",
    )


def _int_list(value: Any, size: int) -> TypeGuard[list[int]]:
    return isinstance(value, list) and len(value) == size and all(is_int(v) for v in value)


def _show(number: int) -> str | Phrase:
    """A number for a message; Python refuses to print ints of more than 4300 digits."""
    return str(number) if abs(number) < 10**15 else Phrase(N_("(a huge number)"))


def team_penalties(table: Table, penalties: Sequence[tuple[int, int]]) -> dict[str, int]:
    """Penalty points per team label."""
    result = dict.fromkeys(table.teams, 0)
    for seat, points in penalties:
        label = table.team_of(seat)
        if label is not None:
            result[label] += points
    return result
