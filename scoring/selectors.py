"""Reads: a game as a record, its score, its rounds. Nothing here writes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NamedTuple

from django.conf import settings
from django.db.models import Count, F, QuerySet, Sum
from django.utils.module_loading import import_string

from common.compiled import HOLES, CompiledRead
from scoring.engines.base import GameRecord, RoundResult, ScoredGame
from scoring.models import ChangeRequest, Confirmation, Game, Round, RoundEvent, Seat


def game_record(game: Game, rounds: list[Round] | None = None) -> GameRecord:
    """The game as the engine reads it (all recorded rounds, pending ones included)."""
    if rounds is None:
        rounds = list(game.rounds.order_by("number"))
    return GameRecord(
        game=game.kind,
        players=tuple(seat.name for seat in game.seats.order_by("number")),
        options=dict(game.options),
        rounds=tuple(r.entry for r in rounds),
        first_dealer=game.first_dealer,
        extras=dict(game.ending),
    )


def game_record_head(game: Game) -> GameRecord:
    """The game without its rounds (players, options, first dealer), to score its next
    round from the kept state. The players are read from the kept standing, written from
    the seats with every whole rescore; the seats are read only when no standing is kept."""
    players = game.score_cache.get("players") if game.score_cache else None
    if not isinstance(players, list):
        return game_record(game, [])
    return GameRecord(
        game=game.kind,
        players=tuple(players),
        options=dict(game.options),
        rounds=(),
        first_dealer=game.first_dealer,
        extras=dict(game.ending),
    )


def seat_count(game: Game) -> int:
    """How many play at the table: from the kept standing, else from the seats."""
    players = game.score_cache.get("players") if game.score_cache else None
    return len(players) if isinstance(players, list) else game.seats.count()


OUTCOME_KEYS = ("totals", "winners", "teams")  # a game's outcome, as its standing keeps it


class GameOutcome(NamedTuple):
    """What a game's engine says of its result, as kept beside its rounds: each seat's
    total, the winning seats, the fixed teams (all empty while nothing is kept).

    ``of(game)`` reads a loaded game; ``columns(path)`` and ``from_values`` read the same
    three keys straight from a query (``values_list(*GameOutcome.columns("game__"))``),
    so thousands of tables are read without decoding each game's whole standing (a named
    tuple: one is made for every table of a standings).
    """

    totals: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    teams: Mapping[str, list[int]] = MappingProxyType({})

    @classmethod
    def of(cls, game: Game) -> GameOutcome:
        kept = game.score_cache or {}
        return cls.from_values([kept.get(key) for key in OUTCOME_KEYS])

    @classmethod
    def columns(cls, path: str = "") -> tuple[str, ...]:
        """The query's columns of the outcome of the game at ``path`` ("" for a game's
        own rows, "game__" from a row that points at one), in the order of ``OUTCOME_KEYS``."""
        return tuple(f"{path}score_cache__{key}" for key in OUTCOME_KEYS)

    @classmethod
    def from_values(cls, values: Sequence[Any]) -> GameOutcome:
        """The outcome from the values of ``columns`` (an empty sequence: no outcome)."""
        if not values:
            return cls()
        totals, winners, teams = values
        return cls(tuple(totals or ()), tuple(winners or ()), teams or {})


def game_record_dict(game: Game) -> dict[str, Any]:
    """The JSON game record, for export."""
    return game_record(game).as_dict()


def game_score(game: Game) -> ScoredGame:
    """The engine's score of the game, read from the projection kept beside the rounds."""
    return scored_from_data(game_score_data(game))


def game_score_data(game: Game) -> dict[str, Any]:
    """The score as the JSON API gives it (the engine's output document).

    Read from the projection: the game's standing and each round's kept result. A
    projection kept whole (before rounds kept their own) is read as it is; one with a
    part missing is not trusted, and the game is scored again from its rounds.
    """
    standing = game.score_cache
    if standing and "rounds" in standing:
        return dict(standing)
    if standing:
        results = list(game.rounds.order_by("number").values_list("result", flat=True))
        kept = [result for result in results if result is not None]
        if len(kept) == len(results):
            return score_document(standing, kept)
    return game.engine.score(game_record(game)).as_dict()


def score_document(standing: dict[str, Any], rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """The whole score from a standing and the rounds' results, in the engine's key order."""
    data: dict[str, Any] = {}
    for key in ("game", "players", "options", "teams"):
        if key in standing:
            data[key] = standing[key]
    data["rounds"] = rounds
    data.update({key: value for key, value in standing.items() if key not in data})
    return data


ROUND_KEYS = frozenset({"number", "dealer", "deltas", "totals", "warnings"})
GAME_KEYS = frozenset(
    {"game", "players", "options", "teams", "rounds", "totals", "finished", "winners", "next"}
)


def scored_from_data(data: dict[str, Any]) -> ScoredGame:
    """A ScoredGame back from its ``as_dict`` document (the cached projection)."""
    rounds = [
        RoundResult(
            number=r["number"],
            dealer=r["dealer"],
            deltas=list(r["deltas"]),
            totals=list(r["totals"]),
            details={k: v for k, v in r.items() if k not in ROUND_KEYS},
            warnings=list(r.get("warnings") or []),
        )
        for r in data.get("rounds") or []
    ]
    return ScoredGame(
        game=data["game"],
        players=list(data["players"]),
        options=dict(data.get("options") or {}),
        teams={k: list(v) for k, v in (data.get("teams") or {}).items()},
        rounds=rounds,
        totals=list(data.get("totals") or []),
        finished=bool(data.get("finished")),
        winners=list(data.get("winners") or []),
        extras={k: v for k, v in data.items() if k not in GAME_KEYS},
        upcoming=dict(data.get("next") or {}),
    )


def confirmed_score(game: Game) -> ScoredGame:
    """The score over confirmed rounds only: every round up to the first still pending."""
    confirmed: list[Round] = []
    for round_ in game.rounds.order_by("number"):
        if round_.status != Round.Status.CONFIRMED:
            break
        confirmed.append(round_)
    record = game_record(game, confirmed)
    if len(confirmed) < game.rounds.count():
        record = record.with_extras({})
    return game.engine.score(record)


def rounds_data(game: Game) -> list[dict[str, Any]]:
    """Every round as stored, as plain data (its entry under "round", its status, who
    entered and confirmed it), for the API and the scoresheets. What a page shows of a
    round is ``scoring.web.presenters.round_rows``."""
    return [
        {
            "number": r.number,
            "status": r.status,
            "round": r.entry,
            "entered_by_seat": r.entered_by_seat,
            "confirmed_by_seat": r.confirmed_by_seat,
            "corrected": r.corrected,
        }
        for r in game.rounds.order_by("number")
    ]


def side_in_round(game: Game, score: ScoredGame, number: int, seat: int) -> set[int]:
    """The seats playing on ``seat``'s side in round ``number``.

    A fixed team where the game has teams; otherwise the round's own sides as the
    engine reports them (a bidder with their called partners against the
    rest); otherwise the seat alone.
    """
    for members in score.teams.values():
        if seat in members:
            return set(members)
    rounds = score.rounds
    sides = rounds[number - 1].details.get("sides") if 0 < number <= len(rounds) else None
    for members in (sides or {}).values():
        if seat in members:
            return set(members)
    return {seat}


def seats_that_may_confirm(game: Game, round_: Round, score: ScoredGame) -> set[int]:
    """Who may confirm a pending round under the game's confirmation setting."""
    everyone = set(range(len(score.players)))
    entered = round_.entered_by_seat
    if entered is None or game.confirmation == "off":
        return everyone
    if game.confirmation == "any_other_seat":
        return everyone - {entered}
    return everyone - side_in_round(game, score, round_.number, entered)


def another_phone_confirms(game: Game, device: str, entered_by_device: str) -> bool:
    """Whether the phone ``device`` is refused the confirmation of a round the phone
    ``entered_by_device`` entered (or a request it asked): at an event table another phone
    of the other side confirms, unless the event hands one phone over."""
    return (
        game.is_tournament_game
        and not game.one_phone
        and bool(entered_by_device)
        and device == entered_by_device
    )


# --------------------------------------------------------------------------- trust


def seats_that_may_accept(game: Game, request: ChangeRequest, score: ScoredGame) -> set[int]:
    """Who may agree to a change asked for: the seats that could confirm the asker's round.

    Undoing a round goes to the other side of that round; ending or reopening the game to
    another team where the game has teams, and to any other player where it has none.
    """
    everyone = set(range(len(score.players)))
    asker = request.asked_by_seat
    if game.confirmation == "any_other_seat":
        return everyone - {asker}
    if request.kind == ChangeRequest.Kind.UNDO and request.round_number:
        return everyone - side_in_round(game, score, request.round_number, asker)
    for members in score.teams.values():
        if asker in members:
            return everyone - set(members)
    return everyone - {asker}


def table_clock(*, game_id: int, is_tournament_game: bool) -> Any | None:
    """The clock of the tournament round a tournament game's table plays in, or None (a
    casual game, no hook).

    Scoring knows nothing of events: ``settings.TABLESCORE_TABLE_CLOCK_HOOK`` names a
    function ``hook(*, game_id: int)`` answering the clock (``state``, ``seconds_left``,
    ``label``, and ``key``, which changes when the director changes the clock) or None.
    """
    path = getattr(settings, "TABLESCORE_TABLE_CLOCK_HOOK", "")
    if not path or not is_tournament_game:
        return None
    return import_string(path)(game_id=game_id)


def seat_holder(game: Game, seat: int) -> tuple[str, str] | None:
    """The phone (device id) that holds ``seat`` by its player's own link, and the seat's
    name; None while no phone does (any phone at the table may say it is that seat)."""
    row = (
        Seat.objects.filter(game_id=game.pk, number=seat)
        .exclude(held_by_device="")
        .values_list("held_by_device", "name")
        .first()
    )
    return (row[0], row[1]) if row else None


def seat_person(*, game: Game, seat: int | None, proof: str) -> str:
    """The name of the player a phone's proof shows it holds ``seat`` for ("" when it
    shows nothing: no proof, a revoked link, another seat).

    Scoring knows nothing of players' links: ``settings.TABLESCORE_SEAT_PROOF_HOOK`` names
    a function ``hook(*, game_id: int, seat: int, proof: str)`` answering the name or "".
    """
    path = getattr(settings, "TABLESCORE_SEAT_PROOF_HOOK", "")
    if not path or not proof or seat is None or not game.is_tournament_game:
        return ""
    return str(import_string(path)(game_id=game.pk, seat=seat, proof=proof) or "")


def table_clock_key(*, game_id: int, is_tournament_game: bool) -> str:
    """The clock's key as a table page carries it ("" for none): a poll whose key differs
    gets the scoreboard again, so a pause or an extension reaches the table at once."""
    clock = table_clock(game_id=game_id, is_tournament_game=is_tournament_game)
    return str(clock.key) if clock is not None else ""


def table_closed(game: Game) -> bool:
    """An event table whose game is over (its last deal confirmed) or that the desk closed
    (its bracket match decided by a director): only the event's desk changes it now.
    A casual game is never closed: its players agree between sides."""
    if not game.is_tournament_game:
        return False
    if game.closed_by_desk:
        return True
    return (
        game.status == Game.Status.FINISHED
        and not game.rounds.filter(status=Round.Status.PENDING).exists()
    )


# A game's open change request (built once: see common.compiled).
OPEN_CHANGE_REQUEST = CompiledRead(
    lambda game_id: ChangeRequest.objects.filter(
        game_id=game_id, status=ChangeRequest.Status.OPEN
    ).order_by("game", "created_at", "pk")[:1],  # the model's own order
    HOLES[:1],
)


def may_hold_change_requests(game: Game) -> bool:
    """Whether the game can hold a change request: one is asked of the other side where
    confirmation is on, or of the desk at an event's table. A casual game without
    confirmation (set when it starts, never changed) holds none, so none is read."""
    return game.confirmation != Confirmation.OFF or game.is_tournament_game


def open_change_request(game: Game) -> ChangeRequest | None:
    if not may_hold_change_requests(game):
        return None
    request = OPEN_CHANGE_REQUEST.first(game.pk)
    if request is not None:
        request.game = game  # as the game's own requests know it
    return request


def change_needs_agreement(game: Game, kind: str) -> bool:
    """With confirmation on, undoing a confirmed round, ending early and reopening are asked.

    Undoing a round still waiting for confirmation is not: nobody has agreed to it yet.
    """
    if game.confirmation == "off":
        return False
    if kind == ChangeRequest.Kind.UNDO:
        last = game.rounds.order_by("-number").first()
        return last is not None and last.status == Round.Status.CONFIRMED
    return True


def correction_before(game: Game, number: int) -> dict[str, Any] | None:
    """What round ``number`` held before its latest correction (None if never corrected)."""
    event = (
        game.events.filter(action=RoundEvent.Action.CORRECT, round_number=number)
        .order_by("-at", "-pk")
        .first()
    )
    return event.before if event is not None and isinstance(event.before, dict) else None


TABLE_NEWS = (
    RoundEvent.Action.UNDO,
    RoundEvent.Action.END,
    RoundEvent.Action.REOPEN,
    RoundEvent.Action.DECLINE,
)


def latest_table_news(game: Game) -> RoundEvent | None:
    """The last thing done to the game when it is one the table should be told of.

    A round undone, the game ended or reopened, a request declined: shown until the next
    change to the game.
    """
    event = game.events.order_by("-at", "-pk").first()
    return event if event is not None and event.action in TABLE_NEWS else None


@dataclass(frozen=True)
class RecentTable:
    """The players of a game played lately on this phone, to start another with them."""

    kind: str
    title: str
    players: tuple[str, ...]
    confirmation: str
    first_dealer: int
    token: str = ""


def games_of_tokens(tokens: Sequence[str]) -> list[Game]:
    """The games behind ``tokens`` in their order, those no longer there left out."""
    found = {g.table_token: g for g in Game.objects.filter(table_token__in=list(tokens))}
    return [found[token] for token in tokens if token in found]


def recent_tables(tokens: Sequence[str], *, limit: int = 4) -> list[RecentTable]:
    """The distinct tables (game and players) of the games behind ``tokens``, newest first."""
    found = {
        g.table_token: g
        for g in Game.objects.filter(table_token__in=list(tokens)).prefetch_related("seats")
    }
    tables: list[RecentTable] = []
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for token in tokens:
        game = found.get(token)
        if game is None:
            continue
        players = tuple(seat.name for seat in sorted(game.seats.all(), key=lambda s: s.number))
        if (game.kind, players) in seen:
            continue
        seen.add((game.kind, players))
        tables.append(
            RecentTable(
                kind=game.kind,
                title=game.engine.title,
                players=players,
                confirmation=game.confirmation,
                first_dealer=game.first_dealer,
                token=game.table_token,
            )
        )
        if len(tables) == limit:
            break
    return tables


def games_fingerprint(games: QuerySet[Game]) -> tuple[int, int, int]:
    """How many games, their revisions added up, and the revisions weighted by id: three
    numbers that change whenever any of the games changes (every change raises a game's
    revision), read in one statement."""
    found = games.aggregate(n=Count("pk"), r=Sum("revision"), w=Sum(F("revision") * F("pk")))
    return int(found["n"]), int(found["r"] or 0), int(found["w"] or 0)
