"""Roolz: the 100-card bidding game with two trumps (rules.md section 1).

Every round distributes exactly 300 card points among the sides. The bidding
side scores what it won if that reaches its bid, else it loses the bid; every
other side scores what it won. Taking every trick is worth +100 (+200 for a
twofer). Sides depend on the player count and the options:

- team modes (4 players; 6 players "teams" or "three_pairs"): fixed teams,
  ``won`` keyed by team label, a team's figure stands at each member's seat;
- individual modes (2, 3, 5 players; 4 with ``called_partner``; 6 with
  "two_calls"): the round's sides are "bidder" and "opponents", every member of
  a side gets the side's delta.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from common.phrases import Words, listed
from scoring.engines.base import (
    MAX_INT,
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
    running,
)

ROUND_POINTS = 300
POINT_STEP = 5
MAX_BID = 300
MIN_BID = 170
THREE_PAIRS_MIN_BID = 110
SLAM_BONUS = 100
TWOFER_SLAM_BONUS = 100  # on top of SLAM_BONUS

BIDDER = "bidder"
OPPONENTS = "opponents"
INDIVIDUAL_SIDES = (BIDDER, OPPONENTS)

SIX_PLAYER_CHOICES = ("teams", "two_calls", "three_pairs")

# How the bidder's partners are found (None: fixed teams, or no partners at all).
CALL_ONE = "called_partner"  # 4 players: exactly one partner
CALL_FIVE = "five"  # 5 players: one partner, or [] for a twofer
CALL_TWO = "two_calls"  # 6 players: two partners, one (twofer) or [] (alone)

PLAY_ONLY = (
    (
        "blank_points",
        "Blank cards score",
        "Blanks score 20 (15 with 5-6 players) and Roolerz the same; "
        "a round still holds 300 points.",
        None,
    ),
    (
        "break_both_trumps",
        "One trump breaks both",
        "The first trump played breaks both trumps.",
        None,
    ),
    (
        "lead_trump_any_time",
        "Lead trump any time",
        "Trump may be led without being broken first.",
        None,
    ),
    ("no_slough", "No sloughing", "A player out of the led suit who holds trump must trump.", None),
    (
        "pass_cards",
        "Pass cards",
        "The dealer names a number of cards everyone passes before trumps are named.",
        None,
    ),
    (
        "blank_leads",
        "Blank card leads",
        "Whoever holds the blank card leads it to the first trick.",
        (4,),
    ),
    (
        "misdeals",
        "Misdeals on weak hands",
        "A player whose highest card is 12 or lower may call a misdeal (never on the strength "
        "of a low hand) and the cards are dealt again. The rules allow this with 2, 3 or 4 "
        "players only, so it is not offered with 5 or 6. At every table size a dealing error "
        "is still recorded as a misdeal: nobody scores and the same dealer deals again.",
        (2, 3, 4),
    ),
)

# Who may call a misdeal on a weak hand (the seed's option); a dealing error is a misdeal anywhere.
WEAK_HAND_MISDEAL_COUNTS = (2, 3, 4)


@dataclass(frozen=True)
class Setup:
    """How a table of this size and these options plays: sides, calls, minimum bid."""

    players: int
    teams: dict[str, list[int]]
    call: str | None
    min_bid: int

    @property
    def individual(self) -> bool:
        return not self.teams

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(self.teams) if self.teams else INDIVIDUAL_SIDES


def setup_for(players: int, options: Mapping[str, Any]) -> Setup:
    """The sides and calls of a Roolz table (robust to options a form has not resolved yet)."""
    six = options.get("six_player", "teams")
    called = options.get("called_partner", False) is True
    teams: dict[str, list[int]] = {}
    call: str | None = None
    min_bid = MIN_BID
    if players == 4:
        if called:
            call = CALL_ONE
        else:
            teams = {"A": [0, 2], "B": [1, 3]}
    elif players == 5:
        call = CALL_FIVE
    elif players == 6:
        if six == "two_calls":
            call = CALL_TWO
        elif six == "three_pairs":
            teams = {"A": [0, 3], "B": [1, 4], "C": [2, 5]}
            min_bid = THREE_PAIRS_MIN_BID
        else:
            teams = {"A": [0, 2, 4], "B": [1, 3, 5]}
    return Setup(players=players, teams=teams, call=call, min_bid=min_bid)


@dataclass
class RoolzState:
    totals: list[int]
    dealer: int
    finished: bool = False
    winners: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class _Round:
    """One valid, non-misdeal round as read from the record."""

    bidder: int
    bid: int
    partners: tuple[int, ...]
    won: dict[str, int]
    all_tricks: str | None
    penalties: tuple[tuple[int, int], ...]


def _side_name(label: str, individual: bool) -> Phrase:
    if not individual:
        return Phrase(N_("team {label}"), {"label": label})
    return Phrase(N_("the bidder's side") if label == BIDDER else N_("the opponents"))


class Roolz(Engine):
    key = "roolz"
    title = "Roolz"
    summary = N_(
        "The 100-card bidding game with a high and a low trump: bid for a share of the "
        "300 points in each round; 2-6 players, in teams or individually."
    )
    player_counts = (2, 3, 4, 5, 6)
    round_word: ClassVar[str] = "Deal"
    preferred_table_size: ClassVar[int] = 4
    standings_metrics: ClassVar[tuple[str, ...]] = (
        "placement_points",
        "share",
        "buchholz",
        "head_to_head",
        "firsts",
    )

    # -- descriptions ------------------------------------------------------

    def option_specs(self) -> tuple[OptionSpec, ...]:
        specs = [
            OptionSpec(
                "target",
                "int",
                1000,
                "Target score",
                "The game ends after a round in which someone reaches this score.",
                minimum=100,
                maximum=MAX_INT,
            ),
            OptionSpec(
                "must_reach_on_bid",
                "bool",
                False,
                "Win only on a made bid",
                "You can only win the game in a round where your side bid and made it.",
            ),
            OptionSpec(
                "called_partner",
                "bool",
                False,
                "Called partner (4 players)",
                "No fixed teams: the bidder calls a card and its holder is the partner for "
                "that round; scores are kept individually.",
                player_counts=(4,),
            ),
            OptionSpec(
                "six_player",
                "choice",
                "teams",
                "Six-player game",
                "teams: two teams of three; two_calls: the bidder calls two cards, scores kept "
                "individually; three_pairs: three teams of two, bidding starts at 110.",
                choices=SIX_PLAYER_CHOICES,
                player_counts=(6,),
            ),
            OptionSpec(
                "point_discards",
                "bool",
                False,
                "Point cards may be discarded",
                "The bidder may discard point cards, so a side can take every trick without "
                "holding all 300 points.",
            ),
        ]
        for name, label, help_text, counts in PLAY_ONLY:
            specs.append(
                OptionSpec(
                    name,
                    "bool",
                    False,
                    label,
                    help_text,
                    group="Play only",
                    play_only=True,
                    player_counts=counts,
                )
            )
        return tuple(specs)

    def option_problems(self, options: Mapping[str, Any], players: int) -> list[Problem]:
        problems: list[Problem] = []
        if options.get("called_partner") is True and players != 4:
            problems.append(
                Problem(
                    N_("called_partner is a four-player option; this game has {players} players"),
                    field="options.called_partner",
                    values={"players": players},
                )
            )
        six = options.get("six_player", "teams")
        if six != "teams" and players != 6:
            problems.append(
                Problem(
                    N_(
                        "six_player {six!r} is a six-player option; this game has {players} "
                        "players (leave it at 'teams')"
                    ),
                    field="options.six_player",
                    values={"six": six, "players": players},
                )
            )
        return problems

    def allowed_player_counts(self, options: Mapping[str, Any]) -> tuple[int, ...]:
        counts: tuple[int, ...] = self.player_counts
        if options.get("called_partner") is True:
            counts = tuple(c for c in counts if c == 4)
        if options.get("six_player", "teams") in ("two_calls", "three_pairs"):
            counts = tuple(c for c in counts if c == 6)
        return counts

    def teams(self, players: int, options: Mapping[str, Any]) -> dict[str, list[int]]:
        return {k: list(v) for k, v in setup_for(players, options).teams.items()}

    def round_fields(self, players: int, options: Mapping[str, Any]) -> tuple[FieldSpec, ...]:
        setup = setup_for(players, options)
        labels = setup.labels
        if setup.individual:
            won_help = Words(
                N_(
                    "Card points taken by the bidder's side and by the opponents, "
                    "multiples of 5 adding up to {points}."
                ),
                {"points": ROUND_POINTS},
            )
        else:
            won_help = Words(
                N_("Card points taken by each team, multiples of 5 adding up to {points}."),
                {"points": ROUND_POINTS},
            )
        twofer = setup.call in (CALL_FIVE, CALL_TWO)
        if options.get("point_discards") is True:
            slam_help = (
                N_(
                    "The side that took every trick (+100), if any. A twofer taking every trick "
                    "gets another +100."
                )
                if twofer
                else N_("The side that took every trick (+100), if any.")
            )
        else:
            slam_help = (
                N_(
                    "The side that took every trick (+100), if any; it must have won all 300. "
                    "A twofer taking every trick gets another +100."
                )
                if twofer
                else N_("The side that took every trick (+100), if any; it must have won all 300.")
            )
        fields: list[FieldSpec] = [
            FieldSpec(
                "misdeal",
                "bool",
                N_("Misdeal"),
                misdeal_help(players, options),
                required=False,
            ),
            FieldSpec("bidder", "seat", N_("Bidder"), N_("Who won the bidding."), column="Bidder"),
            FieldSpec(
                "bid",
                "int",
                N_("Bid"),
                Words(
                    N_("The winning bid, {low}-{high} in steps of 5."),
                    {"low": setup.min_bid, "high": MAX_BID},
                ),
                minimum=setup.min_bid,
                maximum=MAX_BID,
                step=POINT_STEP,
                column="Bid",
            ),
        ]
        if setup.call == CALL_ONE:
            fields.append(
                FieldSpec(
                    "partners",
                    "seats",
                    N_("Partner"),
                    N_(
                        "The player holding the called card; none if the bidder holds it (in "
                        "hand or in the widow): the bidder then plays alone against the other "
                        "three."
                    ),
                    count=1,
                    column="Partner",
                )
            )
        elif setup.call == CALL_FIVE:
            fields.append(
                FieldSpec(
                    "partners",
                    "seats",
                    N_("Partner"),
                    N_(
                        "The player holding the called card; none if it was in the low hand "
                        "(a twofer: the bidder plays alone against four)."
                    ),
                    column="Partner",
                )
            )
        elif setup.call == CALL_TWO:
            fields.append(
                FieldSpec(
                    "partners",
                    "seats",
                    N_("Partners"),
                    N_(
                        "The players holding the two called cards: two seats; one seat if one "
                        "player holds both (a twofer); none if the bidder holds both (alone)."
                    ),
                    column="Partners",
                )
            )
        fields += [
            FieldSpec(
                "won",
                "per_side",
                N_("Points won"),
                won_help,
                minimum=0,
                maximum=ROUND_POINTS,
                step=POINT_STEP,
                keys=labels,
                column="Won",
            ),
            FieldSpec(
                "all_tricks",
                "choice",
                N_("Took every trick"),
                slam_help,
                required=False,
                choices=labels,
                column="All tricks",
            ),
            FieldSpec(
                "penalties",
                "penalties",
                N_("Penalties"),
                N_(
                    "Points taken off a player's score. Each penalty names the player, the "
                    "points and a reason."
                )
                if setup.individual
                else N_(
                    "Points taken off a player's team's score. Each penalty names the player, "
                    "the points and a reason."
                ),
                required=False,
                column="Penalty",
            ),
        ]
        return tuple(fields)

    # -- scoring -----------------------------------------------------------

    def start(self, table: Table) -> RoolzState:
        return RoolzState(totals=[0] * table.size, dealer=table.first_dealer)

    def is_over(self, table: Table, state: RoolzState) -> bool:
        return state.finished

    def play(
        self, table: Table, state: RoolzState, number: int, entry: Mapping[str, Any]
    ) -> RoundResult:
        reader = RoundReader(number, entry)
        setup = setup_for(table.size, table.options)
        dealer = state.dealer
        misdeal = reader.flag("misdeal", entry["misdeal"]) if "misdeal" in entry else False
        if misdeal:
            for key in entry:
                if key != "misdeal":
                    reader.fail(key, N_("a misdeal records nothing else; remove {key}"), key=key)
            reader.done()
            zeros = [0] * table.size
            return RoundResult(
                number=number,
                dealer=dealer,
                deltas=zeros,
                totals=list(state.totals),
                details={"misdeal": True},
            )

        played = self._read(reader, setup, table.options)
        reader.done()
        assert played is not None  # no problems means every part was read

        sides = self._sides(setup, played)
        bidding = self._bidding_label(setup, played.bidder)
        twofer = self._twofer(setup, played.partners)
        made = played.won[bidding] >= played.bid
        side_delta: dict[str, int] = {}
        for label in setup.labels:
            points = played.won[label]
            if label == bidding and not made:
                points = -played.bid
            if played.all_tricks == label:
                points += SLAM_BONUS
                if label == bidding and twofer:
                    points += TWOFER_SLAM_BONUS
            side_delta[label] = points
        deltas = [0] * table.size
        for label, seats in sides.items():
            for seat in seats:
                deltas[seat] = side_delta[label]
        for seat, points in played.penalties:
            if setup.individual:
                deltas[seat] -= points
            else:
                for member in setup.teams[table.team_of(seat) or ""]:
                    deltas[member] -= points
        state.totals = running(state.totals, deltas)
        state.dealer = table.next_seat(dealer)
        self._check_end(table, state, setup, sides, sides[bidding] if made else [])
        details: dict[str, Any] = {
            "bidder": played.bidder,
            "bid": played.bid,
            "made": made,
            "bidding_side": bidding,
            "sides": {label: list(seats) for label, seats in sides.items()},
        }
        if setup.call in (CALL_FIVE, CALL_TWO):
            details["twofer"] = twofer
        return RoundResult(
            number=number,
            dealer=dealer,
            deltas=deltas,
            totals=list(state.totals),
            details=details,
        )

    def conclude(self, table: Table, state: RoolzState, extras: Mapping[str, Any]) -> Conclusion:
        setup = setup_for(table.size, table.options)
        return Conclusion(
            totals=list(state.totals),
            finished=state.finished,
            winners=list(state.winners) if state.finished else [],
            extras={},
            upcoming={
                "dealer": state.dealer,
                "min_bid": setup.min_bid,
                "sides": list(setup.labels),
            },
        )

    def round_summary(self, table: Table, entry: Mapping[str, Any]) -> str:
        """The deal in a line: ``Words``, said in the reader's language by the pages
        (English as a string)."""
        names = table.players

        def name(seat: Any) -> str:
            return names[seat] if is_int(seat) and 0 <= seat < len(names) else "?"

        if entry.get("misdeal") is True:
            return Words(N_("Misdeal: the same dealer deals again"))
        setup = setup_for(table.size, table.options)
        bidder = entry.get("bidder")
        bid = entry.get("bid")
        won = entry.get("won")
        won = won if isinstance(won, Mapping) else {}
        partners = entry.get("partners")
        partners = partners if isinstance(partners, list) else []
        values: dict[str, Any] = {"name": name(bidder), "bid": bid}
        template = N_("{name} bid {bid}")
        if setup.call is not None:
            if partners:
                values["partners"] = " & ".join(name(p) for p in partners)
                template = (
                    N_("{name} bid {bid} with {partners} (twofer)")
                    if setup.call == CALL_TWO and len(partners) == 1
                    else N_("{name} bid {bid} with {partners}")
                )
            elif setup.call == CALL_FIVE:
                template = N_("{name} bid {bid}, twofer")
            else:
                template = N_("{name} bid {bid} alone")
        head = Phrase(template, values)
        label = BIDDER if setup.individual else (table.team_of(bidder) if is_int(bidder) else None)
        taken = won.get(label) if label else None
        if is_int(taken) and is_int(bid):
            outcome = N_("{bidding}, made") if taken >= bid else N_("{bidding}, set")
            head = Phrase(outcome, {"bidding": head})
        if setup.individual:
            line = Phrase(
                N_("{bidding}: {bidder} to {opponents}"),
                {"bidding": head, "bidder": won.get(BIDDER), "opponents": won.get(OPPONENTS)},
            )
        else:
            points = ", ".join(f"{team} {won.get(team)}" for team in setup.labels)
            line = Phrase(N_("{bidding}: {points}"), {"bidding": head, "points": points})
        parts: list[Phrase] = [line]
        slam = entry.get("all_tricks")
        if isinstance(slam, str):
            who: Phrase | str = slam
            if slam in INDIVIDUAL_SIDES:
                who = _side_name(slam, individual=True)
            parts.append(Phrase(N_("{who} took every trick"), {"who": who}))
        penalties = entry.get("penalties")
        if isinstance(penalties, list):
            for item in penalties:
                if isinstance(item, Mapping):
                    parts.append(
                        Phrase(
                            N_("penalty {name} -{points}"),
                            {"name": name(item.get("player")), "points": item.get("points")},
                        )
                    )
        return listed(parts)

    # -- helpers -----------------------------------------------------------

    def _read(self, reader: RoundReader, setup: Setup, options: Mapping[str, Any]) -> _Round | None:
        entry = reader.entry
        players = setup.players
        labels = setup.labels
        allowed = {"misdeal", "bidder", "bid", "won", "all_tricks", "penalties"}
        if setup.call is not None:
            allowed.add("partners")
        for key in entry:
            if key == "partners" and setup.call is None:
                reader.fail(
                    "partners",
                    N_(
                        "partners are only recorded when the bidder calls a card (5 players, "
                        "called_partner, or six_player two_calls)"
                    ),
                )
            elif key not in allowed:
                reader.fail(key, N_("unknown field {key!r}"), key=key)

        bidder: int | None = None
        if "bidder" not in entry:
            reader.fail("bidder", N_("bidder is missing"))
        else:
            bidder = reader.seat("bidder", entry["bidder"], players)

        bid = self._read_bid(reader, setup)
        partners = self._read_partners(reader, setup, bidder)
        won = self._read_won(reader, setup)

        all_tricks: str | None = None
        raw_slam = entry.get("all_tricks")
        if raw_slam is not None:
            if not isinstance(raw_slam, str) or raw_slam not in labels:
                reader.fail(
                    "all_tricks",
                    N_("all_tricks must name a side: {sides}"),
                    sides=", ".join(labels),
                )
            else:
                all_tricks = raw_slam
                if (
                    won is not None
                    and options.get("point_discards") is not True
                    and won[raw_slam] != ROUND_POINTS
                ):
                    who = _side_name(raw_slam, setup.individual)
                    reader.fail(
                        "all_tricks",
                        N_("{who} took every trick, so it won all {points} points, not {won}"),
                        who=who,
                        points=ROUND_POINTS,
                        won=won[raw_slam],
                    )
        penalties = reader.penalties(players)
        if reader.problems or bidder is None or bid is None or partners is None or won is None:
            return None
        return _Round(
            bidder=bidder,
            bid=bid,
            partners=partners,
            won=won,
            all_tricks=all_tricks,
            penalties=tuple(penalties),
        )

    def _read_bid(self, reader: RoundReader, setup: Setup) -> int | None:
        if "bid" not in reader.entry:
            reader.fail("bid", N_("bid is missing"))
            return None
        bid = reader.entry["bid"]
        if not is_int(bid):
            reader.fail("bid", N_("bid must be a whole number"))
            return None
        if bid < setup.min_bid:
            reader.fail(
                "bid",
                N_("bid {bid} is below the minimum bid of {minimum}"),
                bid=bid,
                minimum=setup.min_bid,
            )
            return None
        if bid > MAX_BID:
            reader.fail(
                "bid",
                N_("bid {bid} is above the maximum bid of {maximum}"),
                bid=bid,
                maximum=MAX_BID,
            )
            return None
        if bid % POINT_STEP:
            reader.fail(
                "bid", N_("bid {bid} is not a multiple of {step}"), bid=bid, step=POINT_STEP
            )
            return None
        return bid

    def _read_partners(
        self, reader: RoundReader, setup: Setup, bidder: int | None
    ) -> tuple[int, ...] | None:
        if setup.call is None:
            return ()
        entry = reader.entry
        if "partners" not in entry:
            reader.fail(
                "partners", N_("partners is missing: {rule}"), rule=self._partners_rule(setup)
            )
            return None
        raw = entry["partners"]
        if not isinstance(raw, list):
            reader.fail("partners", N_("partners must be a list of seats"))
            return None
        most = {CALL_ONE: 1, CALL_FIVE: 1, CALL_TWO: 2}[setup.call]
        if len(raw) > most:
            reader.fail(
                "partners",
                N_("{count} partners given: {rule}"),
                count=len(raw),
                rule=self._partners_rule(setup),
            )
            return None
        seats: list[int] = []
        for item in raw:
            seat = reader.seat("partners", item, setup.players, Phrase(N_("each partner")))
            if seat is None:
                return None
            if seat == bidder:
                reader.fail("partners", N_("the bidder cannot be their own partner"))
                return None
            if seat in seats:
                reader.fail(
                    "partners", N_("seat {seat} is listed twice in partners"), seat=Seat(seat)
                )
                return None
            seats.append(seat)
        return tuple(seats)

    @staticmethod
    def _partners_rule(setup: Setup) -> Phrase:
        if setup.call == CALL_ONE:
            return Phrase(
                N_(
                    "name the holder of the called card, or none ([]) when the bidder holds it "
                    "and plays alone"
                )
            )
        if setup.call == CALL_FIVE:
            return Phrase(N_("name the holder of the called card, or none ([]) for a twofer"))
        return Phrase(
            N_(
                "name the holders of the two called cards: two seats, one seat for a twofer, "
                "or none ([]) when the bidder holds both"
            )
        )

    def _read_won(self, reader: RoundReader, setup: Setup) -> dict[str, int] | None:
        labels = setup.labels
        entry = reader.entry
        sides = ", ".join(labels)
        if "won" not in entry:
            reader.fail(
                "won", N_("won is missing: give the points of each side ({sides})"), sides=sides
            )
            return None
        raw = entry["won"]
        if not isinstance(raw, Mapping):
            reader.fail("won", N_("won must give the points of each side ({sides})"), sides=sides)
            return None
        ok = True
        for key in raw:
            if key not in labels:
                reader.fail(
                    "won",
                    N_("won has no side {key!r}; the sides are {sides}"),
                    key=key,
                    sides=sides,
                )
                ok = False
        won: dict[str, int] = {}
        for label in labels:
            who = _side_name(label, setup.individual)
            if label not in raw:
                reader.fail("won", N_("won is missing the points of {who}"), who=who)
                ok = False
                continue
            value = raw[label]
            if not is_int(value):
                reader.fail("won", N_("points won by {who} must be a whole number"), who=who)
                ok = False
            elif not 0 <= value <= ROUND_POINTS:
                reader.fail(
                    "won",
                    N_("points won by {who} ({value}) must be from 0 to {most}"),
                    who=who,
                    value=value,
                    most=ROUND_POINTS,
                )
                ok = False
            elif value % POINT_STEP:
                reader.fail(
                    "won",
                    N_("points won by {who} ({value}) are not a multiple of 5"),
                    who=who,
                    value=value,
                )
                ok = False
            else:
                won[label] = value
        if not ok:
            return None
        total = sum(won.values())
        if total != ROUND_POINTS:
            reader.fail(
                "won",
                N_("points won add up to {total}, not {points}"),
                total=total,
                points=ROUND_POINTS,
            )
            return None
        return won

    @staticmethod
    def _sides(setup: Setup, played: _Round) -> dict[str, list[int]]:
        if not setup.individual:
            return {label: list(seats) for label, seats in setup.teams.items()}
        ours = [played.bidder, *played.partners]
        theirs = [seat for seat in range(setup.players) if seat not in ours]
        return {BIDDER: ours, OPPONENTS: theirs}

    @staticmethod
    def _bidding_label(setup: Setup, bidder: int) -> str:
        if setup.individual:
            return BIDDER
        for label, seats in setup.teams.items():
            if bidder in seats:
                return label
        raise AssertionError("every seat is on a team")  # a bug, not a user mistake

    @staticmethod
    def _twofer(setup: Setup, partners: Sequence[int]) -> bool:
        if setup.call == CALL_FIVE:
            return not partners
        if setup.call == CALL_TWO:
            return len(partners) == 1
        return False

    def _check_end(
        self,
        table: Table,
        state: RoolzState,
        setup: Setup,
        sides: Mapping[str, Sequence[int]],
        made_side: Sequence[int],
    ) -> None:
        """After a scored round: the highest candidate at or above the target wins, unless tied.

        A "side" for the end is a team in team modes. In individual modes it is a side of
        this deciding round: players who played together (the bidder and partners, or the
        defenders) and tie for the highest total win together; a tie between players of
        different sides means play goes on. ``made_side`` holds the bidding side's seats if
        it made its bid, else is empty.
        """
        target = table.options["target"]
        if setup.individual:
            groups = [[seat] for seat in range(table.size)]
        else:
            groups = [list(seats) for seats in setup.teams.values()]
        candidates = [g for g in groups if state.totals[g[0]] >= target]
        if table.options.get("must_reach_on_bid") is True:
            candidates = [g for g in candidates if g[0] in made_side]
        if not candidates:
            return
        best = max(state.totals[g[0]] for g in candidates)
        top = sorted(seat for g in candidates if state.totals[g[0]] == best for seat in g)
        if any(set(top) <= set(seats) for seats in sides.values()):
            state.finished = True
            state.winners = top


def misdeal_help(players: int, options: Mapping[str, Any]) -> str:
    """What a misdeal means at this table: always a dealing error; a weak hand where allowed."""
    if players not in WEAK_HAND_MISDEAL_COUNTS:
        return Words(
            N_(
                "A dealing error: the cards are dealt again. Misdeals on a weak hand are a 2-4 "
                "player option, so there are none with {players} players. Nobody scores and the "
                "same dealer deals again."
            ),
            {"players": players},
        )
    if options.get("misdeals") is True:
        return N_(
            "A dealing error, or a player whose highest card is 12 or lower called a misdeal "
            "(never on a low hand). Nobody scores and the same dealer deals again."
        )
    return N_(
        "A dealing error: the cards are dealt again (misdeals on weak hands are off). Nobody "
        "scores and the same dealer deals again."
    )


def no_partner_choice(call: str | None) -> str | None:
    """The entry form's label for naming no partner in this call mode (None: not a choice)."""
    if call == CALL_ONE:
        return N_("I hold the called card (bidder alone)")
    if call == CALL_FIVE:
        return N_("Twofer: card in the low hand")
    return None
