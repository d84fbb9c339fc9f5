"""What every scoring engine shares: records, problems, descriptions, the scoring loop.

An engine is a pure function of a game record: options, seats and rounds in,
per-round deltas and running totals out. Nothing here touches a database or a
request; the Django layer converts to and from these plain values.

Problems in the reader's language (the one mechanism, for every core): a ``Problem``
keeps its English *template* and its *values* apart, and never joins them into one text
for good. The template is a literal marked with ``N_`` (a no-op: the catalogue's tools
find it by that keyword, ``manage.py makemessages`` as this project configures it), with
``{named}`` places for the values; a value is a plain number or name, a ``Seat`` (counted
from 0 here, shown as each reader counts), or a ``Phrase`` (a marked template of its own
with its values: a side's name, a nested problem). A core whose words must stay strings
(a drawing's titles) gives ``Words``: a phrase that is also its English text.
``Problem.message`` and ``str(phrase)`` give the English, as the cores, the commands and
the logs read it; the outer layer (``scoring.wording``) looks the template up in the
reader's language with Django's gettext, translates each ``Phrase`` value the same way,
and only then fills the places. A template is never built with an f-string (its text
would differ at every value, and no catalogue could hold it); a message that is (the
engines not moved yet) stays English.
"""

from __future__ import annotations

import dataclasses
import json
import re
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, TypeGuard

from common.phrases import N_, Phrase, Seat, fill

RECORD_FORMAT = 1
RECORD_KEYS = frozenset({"format", "game", "players", "options", "first_dealer", "rounds"})
MAX_ROUNDS = 500
# The record's key for a game the event's director ended at the totals standing (any game:
# the best total wins). Only an event's desk ends a game so.
AT_TOTALS = "ended_at_totals"
MAX_NAME_LENGTH = 40
MAX_INT = 10**6


# --------------------------------------------------------------------------- problems


def deal_words(message: str) -> str:
    """A message as the desk says it: a deal is a deal, not a round (English; a language
    whose translations say "deal" already is left as it is)."""
    return re.sub(
        r"\b([Rr])ound(s?)\b", lambda m: ("D" if m[1] == "R" else "d") + "eal" + m[2], message
    )


SEAT_IN_DATA = re.compile(r"\bseat (\d+)\b")


def seats_from_one(message: str) -> str:
    """An English message written with seats counted from 0, as people read it: from 1
    (a message whose seats are ``Seat`` values is shown so by its reader's layer)."""
    return SEAT_IN_DATA.sub(lambda found: f"seat {int(found.group(1)) + 1}", message)


@dataclass(frozen=True)
class Problem:
    """One user-facing mistake in a record, naming the round (1-based) and the field.

    ``template`` (marked with ``N_``) and ``values`` stay apart until a reader's layer
    fills them (see the module's description); ``message`` is the English text.
    ``of_deals``: said as the desk says it, of deals rather than rounds."""

    template: str
    round: int | None = None
    field: str | None = None
    values: Mapping[str, Any] = dataclasses.field(default_factory=dict, compare=False)
    of_deals: bool = dataclasses.field(default=False, compare=False)

    @property
    def message(self) -> str:
        text = fill(self.template, self.values)
        return deal_words(text) if self.of_deals else text

    def __str__(self) -> str:
        return f"round {self.round}: {self.message}" if self.round else self.message

    def __hash__(self) -> int:
        return hash((self.message, self.round, self.field))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Problem):
            return NotImplemented
        return (self.message, self.round, self.field) == (other.message, other.round, other.field)

    def as_dict(self) -> dict[str, Any]:
        return {"round": self.round, "field": self.field, "message": self.message}


class InvalidRecord(ValueError):
    """A record (or a round of it) breaks the rules; carries every problem found."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class CannotResume(Exception):
    """A kept state an engine cannot score the next round from (none kept, or one that no
    longer fits): nobody's mistake; the caller scores the whole record instead.

    Raised on purpose by ``Engine.score_next``; any other error there is a bug."""


class RoundProblems(Exception):
    """Raised inside an engine's ``play`` for a round it cannot score."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems = list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


# --------------------------------------------------------------------------- descriptions


@dataclass(frozen=True)
class OptionSpec:
    """One game option: its name in the record, its kind, default and a line of help."""

    name: str
    kind: str  # "int", "bool", "choice", "int_or_null"
    default: Any
    label: str
    help: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    step: int = 1
    group: str = "Scoring"
    play_only: bool = False
    player_counts: tuple[int, ...] | None = None  # offered only at these player counts

    def problem(self, value: Any) -> Phrase | None:
        """Why ``value`` is not acceptable for this option, or None."""
        name = self.name
        if self.kind == "bool":
            if isinstance(value, bool):
                return None
            return Phrase(N_("option {name} must be true or false"), {"name": name})
        if self.kind == "choice":
            if value in self.choices:
                return None
            allowed = ", ".join(str(c) for c in self.choices)
            return Phrase(
                N_("option {name} must be one of {allowed}"), {"name": name, "allowed": allowed}
            )
        if self.kind in {"int", "int_or_null"}:
            if value is None and self.kind == "int_or_null":
                return None
            if not is_int(value):
                return Phrase(N_("option {name} must be a whole number"), {"name": name})
            if self.minimum is not None and value < self.minimum:
                return Phrase(
                    N_("option {name} must be at least {minimum}"),
                    {"name": name, "minimum": self.minimum},
                )
            if self.maximum is not None and value > self.maximum:
                return Phrase(
                    N_("option {name} must be at most {maximum}"),
                    {"name": name, "maximum": self.maximum},
                )
            if self.step > 1 and value % self.step:
                return Phrase(
                    N_("option {name} must be a multiple of {step}"),
                    {"name": name, "step": self.step},
                )
            return None
        raise ValueError(f"unknown option kind {self.kind!r}")  # a bug, not a user mistake

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "default": self.default,
            "label": self.label,
            "help": self.help,
            "choices": list(self.choices),
            "minimum": self.minimum,
            "maximum": self.maximum,
            "step": self.step,
            "group": self.group,
            "play_only": self.play_only,
            "player_counts": list(self.player_counts) if self.player_counts else None,
        }


@dataclass(frozen=True)
class FieldSpec:
    """One input of a round, so that forms and scoresheets are built from one description.

    Kinds: "seat" (one seat), "seats" (a list of seats), "int", "bool", "choice",
    "per_seat" (one int per seat), "per_side" (one int per key in ``keys``),
    "dice" (``count`` ints), "penalties", "object" (a structured input that the
    game's own form lays out; ``parts`` describes its members).
    """

    name: str
    kind: str
    label: str
    help: str = ""
    required: bool = True
    minimum: int | None = None
    maximum: int | None = None
    step: int = 1
    choices: tuple[Any, ...] = ()
    keys: tuple[str, ...] = ()
    count: int | None = None
    parts: tuple[FieldSpec, ...] = ()
    column: str | None = None  # short heading for a printed column; None: not a column

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "label": self.label,
            "help": self.help,
            "required": self.required,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "step": self.step,
            "choices": list(self.choices),
            "keys": list(self.keys),
            "count": self.count,
            "parts": [p.as_dict() for p in self.parts],
            "column": self.column,
        }


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class GameRecord:
    """One game at one table, as the JSON game record describes it."""

    game: str
    players: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    rounds: tuple[Mapping[str, Any], ...] = ()
    first_dealer: int = 0
    extras: Mapping[str, Any] = field(default_factory=dict)  # e.g. ended_early, end

    def with_rounds(self, rounds: Iterable[Mapping[str, Any]]) -> GameRecord:
        return GameRecord(
            game=self.game,
            players=self.players,
            options=self.options,
            rounds=tuple(rounds),
            first_dealer=self.first_dealer,
            extras=self.extras,
        )

    def with_extras(self, extras: Mapping[str, Any]) -> GameRecord:
        return GameRecord(
            game=self.game,
            players=self.players,
            options=self.options,
            rounds=self.rounds,
            first_dealer=self.first_dealer,
            extras=dict(extras),
        )

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "players": list(self.players),
            "options": dict(self.options),
            "first_dealer": self.first_dealer,
            "rounds": [dict(r) for r in self.rounds],
        }
        data.update(self.extras)
        return data


@dataclass(frozen=True)
class Table:
    """What an engine knows while scoring: player count, names, resolved options."""

    players: tuple[str, ...]
    options: Mapping[str, Any]
    first_dealer: int
    teams: Mapping[str, list[int]]

    @property
    def size(self) -> int:
        return len(self.players)

    def next_seat(self, seat: int, step: int = 1) -> int:
        return (seat + step) % self.size

    def team_of(self, seat: int) -> str | None:
        for label, members in self.teams.items():
            if seat in members:
                return label
        return None


@dataclass
class RoundResult:
    number: int
    dealer: int
    deltas: list[int]
    totals: list[int]
    details: dict[str, Any] = field(default_factory=dict)  # roller, target, board, ...
    warnings: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "number": self.number,
            "dealer": self.dealer,
            "deltas": list(self.deltas),
            "totals": list(self.totals),
        }
        data.update(self.details)
        if self.warnings:
            data["warnings"] = list(self.warnings)
        return data


@dataclass(frozen=True)
class Conclusion:
    """How a scored game stands after its last recorded round."""

    totals: list[int]
    finished: bool
    winners: list[int]
    extras: dict[str, Any] = field(default_factory=dict)  # top-level output keys
    upcoming: dict[str, Any] = field(default_factory=dict)  # the next round: dealer, ...


@dataclass
class ScoredGame:
    game: str
    players: list[str]
    options: dict[str, Any]
    teams: dict[str, list[int]]
    rounds: list[RoundResult]
    totals: list[int]
    finished: bool
    winners: list[int]
    extras: dict[str, Any] = field(default_factory=dict)
    upcoming: dict[str, Any] = field(default_factory=dict)
    # The engine's state after the last round as plain data (None: the engine keeps none
    # that can be resumed). Not part of the score: a cache to score the next round from.
    state: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "players": list(self.players),
            "options": dict(self.options),
            "teams": {k: list(v) for k, v in self.teams.items()},
            "rounds": [r.as_dict() for r in self.rounds],
            "totals": list(self.totals),
            "finished": self.finished,
            "winners": list(self.winners),
        }
        data.update(self.extras)
        data["next"] = dict(self.upcoming)
        return data

    def standing(self) -> dict[str, Any]:
        """The score without its rounds: totals, result, the next round, the game's own keys."""
        data = self.as_dict()
        del data["rounds"]
        return data


@dataclass(frozen=True)
class Step:
    """One round scored from the state after the round before it (see ``Engine.score_next``)."""

    round: RoundResult
    standing: dict[str, Any]  # as ScoredGame.standing: how the game stands after this round
    state: dict[str, Any]  # the engine's state after this round, as plain data


# --------------------------------------------------------------------------- engines


class Engine(ABC):
    """A game's scoring rules. Subclasses describe the game and play one round at a time."""

    key: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    record_extras: ClassVar[frozenset[str]] = frozenset()  # extra top-level record keys
    round_word: ClassVar[str] = "Round"  # what one round of play is called at this game
    # The table size an event seats unless its director picks another.
    preferred_table_size: ClassVar[int]
    # How an event ranks this game's players unless its director chooses: standings
    # metrics by name, in order, and the metric an opponent's strength is measured by.
    standings_metrics: ClassVar[tuple[str, ...]]
    standings_strength: ClassVar[str] = "placement_points"
    # A game played over a board of chips: its sections in order, with their names.
    board_sections: ClassVar[Mapping[str, str]] = {}

    # -- descriptions ------------------------------------------------------

    @abstractmethod
    def option_specs(self) -> tuple[OptionSpec, ...]:
        """Every option this game takes, with its default."""

    @abstractmethod
    def teams(self, players: int, options: Mapping[str, Any]) -> dict[str, list[int]]:
        """Round-independent teams for this player count and options; {} if individual."""

    @abstractmethod
    def round_fields(self, players: int, options: Mapping[str, Any]) -> tuple[FieldSpec, ...]:
        """The inputs of one round under these options."""

    def round_fields_at(
        self, players: int, options: Mapping[str, Any], upcoming: Mapping[str, Any]
    ) -> tuple[FieldSpec, ...]:
        """The inputs of the round about to be entered, their limits bound by the table's
        facts in ``upcoming`` (the ``next`` block before that round, e.g. who is still in
        the game): every value inside them is one the engine can accept at that table."""
        return self.round_fields(players, options)

    def allowed_player_counts(self, options: Mapping[str, Any]) -> tuple[int, ...]:
        return self.player_counts

    def round_summary(self, table: Table, entry: Mapping[str, Any]) -> str:
        """One line a person reads in a history or on a printed sheet ("Ann bid 200, made")."""
        return ""

    # -- scoring -----------------------------------------------------------

    @abstractmethod
    def start(self, table: Table) -> Any:
        """A fresh mutable state for a game at this table."""

    @abstractmethod
    def play(self, table: Table, state: Any, number: int, entry: Mapping[str, Any]) -> RoundResult:
        """Validate and score one round, updating ``state``; raise RoundProblems if invalid."""

    @abstractmethod
    def is_over(self, table: Table, state: Any) -> bool:
        """True once no further round may be recorded."""

    @abstractmethod
    def conclude(self, table: Table, state: Any, extras: Mapping[str, Any]) -> Conclusion:
        """Totals, result and next-round context; applies record extras (early end, leftovers)."""

    # -- the loop ----------------------------------------------------------

    def resolve_options(self, given: Mapping[str, Any], players: int) -> dict[str, Any]:
        if not isinstance(given, Mapping):
            raise InvalidRecord([Problem(N_("options must be an object"), field="options")])
        specs = {spec.name: spec for spec in self.option_specs()}
        problems = [
            Problem(
                N_("unknown option {name!r} for {game}"),
                field=f"options.{name}",
                values={"name": name, "game": self.title},
            )
            for name in given
            if name not in specs
        ]
        resolved: dict[str, Any] = {}
        for name, spec in specs.items():
            value = given.get(name, spec.default)
            phrase = spec.problem(value)
            if phrase:
                problems.append(
                    Problem(phrase.template, field=f"options.{name}", values=phrase.values)
                )
            resolved[name] = value
        if problems:
            raise InvalidRecord(problems)
        extra = self.option_problems(resolved, players)
        named = {problem.field for problem in extra}
        for name, spec in specs.items():
            field = f"options.{name}"
            if (
                spec.player_counts
                and players not in spec.player_counts
                and resolved[name] != spec.default
                and field not in named
            ):
                *rest, last = spec.player_counts
                counts: Phrase | str = (
                    Phrase(
                        N_("{some} or {last}"), {"some": ", ".join(map(str, rest)), "last": last}
                    )
                    if rest
                    else str(last)
                )
                extra.append(
                    Problem(
                        N_(
                            "option {name} is for {counts} players only (the rules give it no "
                            "other count); this game has {players} players"
                        ),
                        field=field,
                        values={"name": name, "counts": counts, "players": players},
                    )
                )
        if extra:
            raise InvalidRecord(extra)
        return resolved

    def option_problems(self, options: Mapping[str, Any], players: int) -> list[Problem]:
        """Checks across options and the player count; engines add their own."""
        return []

    def table_for(self, record: GameRecord) -> Table:
        count = len(record.players)
        problems: list[Problem] = []
        options = self.resolve_options(record.options, count)
        allowed = self.allowed_player_counts(options)
        if count not in allowed:
            counts = ", ".join(str(c) for c in allowed)
            problems.append(
                Problem(
                    N_("{game} is played by {counts} players, not {count}"),
                    field="players",
                    values={"game": self.title, "counts": counts, "count": count},
                )
            )
        if not is_int(record.first_dealer) or not 0 <= record.first_dealer < max(count, 1):
            problems.append(
                Problem(N_("first_dealer must be a seat of this game"), field="first_dealer")
            )
        if problems:
            raise InvalidRecord(problems)
        return Table(
            players=tuple(record.players),
            options=options,
            first_dealer=record.first_dealer,
            teams=self.teams(count, options),
        )

    def score(self, record: GameRecord) -> ScoredGame:
        """Score a whole game; raise InvalidRecord naming every problem found."""
        table = self.table_for(record)
        if len(record.rounds) > MAX_ROUNDS:
            raise InvalidRecord([too_many_rounds(MAX_ROUNDS + 1, "number")])
        state = self.start(table)
        results = [
            self._play_round(table, state, index + 1, entry)
            for index, entry in enumerate(record.rounds)
        ]
        kept = self.state_data(state)  # the state after the rounds, before any ending
        conclusion = self._conclude(table, state, record.extras)
        return ScoredGame(
            game=self.key,
            players=list(table.players),
            options=dict(table.options),
            teams={k: list(v) for k, v in table.teams.items()},
            rounds=results,
            totals=list(conclusion.totals),
            finished=conclusion.finished,
            winners=list(conclusion.winners),
            extras=dict(conclusion.extras),
            upcoming=dict(conclusion.upcoming),
            state=kept,
        )

    def score_next(
        self, record: GameRecord, state: Mapping[str, Any], number: int, entry: Any
    ) -> Step:
        """Score round ``number`` from ``state``, the plain state after the round before it.

        ``record`` gives the players, options and first dealer; its rounds are not read,
        so a caller holding the state need not load them. Scoring every round this way
        gives what ``score`` gives for the whole record (without record extras: a new
        round comes before any ending). Raises InvalidRecord as ``score`` does, and
        CannotResume when ``state`` cannot be resumed: score the whole record instead.
        """
        table = self.table_for(record)
        if number > MAX_ROUNDS:
            raise InvalidRecord([too_many_rounds(MAX_ROUNDS + 1, "number")])
        resumed = self.state_from_data(table, state)
        result = self._play_round(table, resumed, number, entry)
        plain = self.state_data(resumed)
        if plain is None:
            raise CannotResume(f"{self.title} keeps no state that can be resumed")
        conclusion = self._conclude(table, resumed, {})
        scored = ScoredGame(
            game=self.key,
            players=list(table.players),
            options=dict(table.options),
            teams={k: list(v) for k, v in table.teams.items()},
            rounds=[],
            totals=list(conclusion.totals),
            finished=conclusion.finished,
            winners=list(conclusion.winners),
            extras=dict(conclusion.extras),
            upcoming=dict(conclusion.upcoming),
        )
        return Step(round=result, standing=scored.standing(), state=plain)

    def _play_round(self, table: Table, state: Any, number: int, entry: Any) -> RoundResult:
        if self.is_over(table, state):
            raise InvalidRecord(
                [
                    Problem(
                        N_("the game has already ended; no more rounds can be recorded"),
                        number,
                        "round",
                    )
                ]
            )
        if not isinstance(entry, Mapping):
            raise InvalidRecord([Problem(N_("a round must be an object"), number, "round")])
        try:
            result = self.play(table, state, number, entry)
        except RoundProblems as invalid:
            raise InvalidRecord(invalid.problems) from None
        result.details.setdefault("summary", self.round_summary(table, entry))
        return result

    def _conclude(self, table: Table, state: Any, extras: Mapping[str, Any]) -> Conclusion:
        unknown = set(extras) - self.record_extras - {AT_TOTALS}
        if unknown:
            raise InvalidRecord(
                [
                    Problem(N_("unknown key {key!r} in the record"), field=key, values={"key": key})
                    for key in sorted(unknown)
                ]
            )
        at_totals = extras.get(AT_TOTALS, False)
        if not isinstance(at_totals, bool):
            raise InvalidRecord(
                [
                    Problem(
                        N_("{name} must be true or false"),
                        field=AT_TOTALS,
                        values={"name": AT_TOTALS},
                    )
                ]
            )
        conclusion = self.conclude(
            table, state, {key: value for key, value in extras.items() if key != AT_TOTALS}
        )
        if not at_totals or conclusion.finished:
            return conclusion
        # Ended by the event's director at the totals standing: the best total wins.
        return replace(conclusion, finished=True, winners=top_seats(conclusion.totals))

    # -- resuming ------------------------------------------------------------

    def state_data(self, state: Any) -> dict[str, Any] | None:
        """``state`` as plain JSON data, or None if it cannot be kept (no resuming then).

        The default serves a dataclass of plain values (numbers, text, lists, dicts with
        text keys); an engine keeping anything else overrides this and ``state_from_data``.
        """
        if not dataclasses.is_dataclass(state) or isinstance(state, type):
            return None
        data = {f.name: getattr(state, f.name) for f in dataclasses.fields(state)}
        # A copy through JSON: the cached state shares nothing with the live one, and
        # anything JSON would change (a tuple, a number key) shows up as a difference.
        plain: dict[str, Any] = json.loads(json.dumps(data))
        return plain if plain == data else None

    def state_from_data(self, table: Table, data: Mapping[str, Any]) -> Any:
        """The live state back from ``state_data``; CannotResume if ``data`` does not fit."""
        fresh = self.start(table)
        if not dataclasses.is_dataclass(fresh) or isinstance(fresh, type):
            raise CannotResume(f"{self.title} keeps no state that can be resumed")
        names = {f.name for f in dataclasses.fields(fresh)}
        if not isinstance(data, Mapping) or set(data) != names:
            raise CannotResume(f"a saved state of {self.title} must hold {sorted(names)}")
        return type(fresh)(**json.loads(json.dumps(dict(data))))

    def check_round(self, record: GameRecord, entry: Mapping[str, Any]) -> ScoredGame:
        """Score ``record`` with ``entry`` appended as its next round (a preview or a check).

        Record extras (an early end, leftovers) are left out: a new round comes first.
        """
        return self.score(record.with_extras({}).with_rounds([*record.rounds, entry]))

    def describe(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "title": self.title,
            "summary": self.summary,
            "player_counts": list(self.player_counts),
            "options": [spec.as_dict() for spec in self.option_specs()],
        }


# --------------------------------------------------------------------------- small checks


def is_int(value: object) -> TypeGuard[int]:
    """A whole number, and not a bool (which Python counts as one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def shown(value: int) -> str:
    """A number as a message shows it; an absurd one is not spelled out digit by digit."""
    return str(value) if abs(value) < 10**15 else "(a huge number)"


class RoundReader:
    """Collects problems while reading one round's input, each naming round and field."""

    def __init__(self, number: int, entry: Mapping[str, Any]):
        self.number = number
        self.entry = entry
        self.problems: list[Problem] = []

    def fail(self, field_name: str | None, template: str, **values: Any) -> None:
        """A problem of this round: ``template`` marked with ``N_``, its places filled with
        ``values`` by the reader's layer."""
        self.problems.append(Problem(template, self.number, field_name, values))

    def only_keys(self, allowed: Iterable[str]) -> None:
        allowed = set(allowed)
        for key in self.entry:
            if key not in allowed:
                self.fail(key, N_("unknown field {key!r}"), key=key)

    def done(self) -> None:
        if self.problems:
            raise RoundProblems(self.problems)

    def integer(
        self,
        name: str,
        value: Any,
        minimum: int | None = None,
        maximum: int | None = None,
        label: str | Phrase | None = None,
    ) -> int | None:
        label = label or name
        if not is_int(value):
            self.fail(name, N_("{label} must be a whole number"), label=label)
            return None
        if minimum is not None and value < minimum:
            self.fail(
                name,
                N_("{label} {value} is below {minimum}"),
                label=label,
                value=shown(value),
                minimum=minimum,
            )
            return None
        if maximum is not None and value > maximum:
            self.fail(
                name,
                N_("{label} {value} is above {maximum}"),
                label=label,
                value=shown(value),
                maximum=maximum,
            )
            return None
        return value

    def seat(
        self, name: str, value: Any, players: int, label: str | Phrase | None = None
    ) -> int | None:
        label = label or name
        if not is_int(value) or not 0 <= value < players:
            self.fail(
                name, N_("{label} must be a seat from 0 to {last}"), label=label, last=players - 1
            )
            return None
        return value

    def per_seat(
        self, name: str, value: Any, players: int, minimum: int = 0, maximum: int = MAX_INT
    ) -> list[int] | None:
        if not isinstance(value, list) or len(value) != players:
            self.fail(
                name,
                N_("{name} needs one number per player ({players})"),
                name=name,
                players=players,
            )
            return None
        numbers: list[int] = []
        for seat, item in enumerate(value):
            if not is_int(item) or not minimum <= item <= maximum:
                self.fail(
                    name,
                    N_("{name} of seat {seat} must be a whole number from {minimum} to {maximum}"),
                    name=name,
                    seat=Seat(seat),
                    minimum=minimum,
                    maximum=maximum,
                )
                return None
            numbers.append(item)
        return numbers

    def flag(self, name: str, value: Any) -> bool:
        if not isinstance(value, bool):
            self.fail(name, N_("{name} must be true or false"), name=name)
            return False
        return value

    def penalties(self, players: int, maximum: int = 10_000) -> list[tuple[int, int]]:
        """The optional ``penalties`` list of {"player", "points", "reason"}: (seat, points)."""
        raw = self.entry.get("penalties", [])
        if raw is None:
            return []
        if not isinstance(raw, list):
            self.fail("penalties", N_("penalties must be a list"))
            return []
        found: list[tuple[int, int]] = []
        last = players - 1
        for index, item in enumerate(raw, start=1):
            if not isinstance(item, Mapping):
                self.fail(
                    "penalties",
                    N_("penalty {index} must be an object with player and points"),
                    index=index,
                )
                continue
            for key in item:
                if key not in {"player", "points", "reason"}:
                    self.fail(
                        "penalties",
                        N_("unknown field {key!r} in penalty {index}"),
                        key=key,
                        index=index,
                    )
            seat, points = item.get("player"), item.get("points")
            player: int | None = seat if is_int(seat) and 0 <= seat <= last else None
            if player is None:
                self.fail(
                    "penalties",
                    N_("the player of penalty {index} must be a seat from 0 to {last}"),
                    index=index,
                    last=last,
                )
            amount: int | None = None
            if not is_int(points):
                self.fail(
                    "penalties",
                    N_("the points of penalty {index} must be a whole number"),
                    index=index,
                )
            elif not 0 <= points <= maximum:
                self.fail(
                    "penalties",
                    N_("the points of penalty {index} must be from 0 to {maximum}, not {points}"),
                    index=index,
                    maximum=maximum,
                    points=shown(points),
                )
            else:
                amount = points
            problem = text_problem(item.get("reason", ""), 200)
            if problem:
                self.fail(
                    "penalties",
                    N_("the reason of penalty {index} {problem}"),
                    index=index,
                    problem=problem,
                )
            if player is not None and amount is not None:
                found.append((player, amount))
        return found


# Characters no name (nor any free text) may hold, beyond the controls: those not shown
# that change what is shown or make two texts look alike (U+202E right-to-left override,
# U+200B zero-width space, the joiners, the line separators): Unicode's format and
# separator categories. Two names that look the same are then the same name.
INVISIBLE_CATEGORIES = frozenset({"Cf", "Zl", "Zp"})


def text_problem(value: Any, longest: int) -> Phrase | None:
    """Why a free text (a name, a reason) cannot be stored and printed, or None: the one
    rule for names everywhere (the desk, the table, the API, every import). The phrase
    follows what it is about ("the name " + it): in English, ``str()`` of it."""
    if not isinstance(value, str):
        return Phrase(N_("must be text"))
    if len(value) > longest:
        return Phrase(N_("is longer than {longest} characters"), {"longest": longest})
    if any(ord(c) < 32 or 127 <= ord(c) < 160 for c in value):
        return Phrase(N_("holds a control character"))
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return Phrase(N_("holds a character that is not valid text"))
    for c in value:
        if unicodedata.category(c) in INVISIBLE_CATEGORIES:
            return Phrase(N_("holds an invisible character ({code})"), {"code": f"U+{ord(c):04X}"})
    return None


def too_many_rounds(number: int | None, field_name: str) -> Problem:
    return Problem(
        N_("a game holds at most {most} rounds"), number, field_name, {"most": MAX_ROUNDS}
    )


def top_seats(totals: Sequence[int]) -> list[int]:
    """Every seat holding the highest total."""
    if not totals:
        return []
    best = max(totals)
    return [seat for seat, total in enumerate(totals) if total == best]


def running(previous: Sequence[int], deltas: Sequence[int]) -> list[int]:
    return [a + b for a, b in zip(previous, deltas, strict=True)]


def parse_record(data: Any, engines: Mapping[str, Engine]) -> GameRecord:
    """Read a JSON game record; raise InvalidRecord for anything malformed or unknown.

    Checks the shape shared by every game; the engine checks options and rounds.
    ``engines`` are the games a record may name: callers pass the registry's
    ``ENGINES`` (this module never imports the registry, which imports it).
    """
    if not isinstance(data, Mapping):
        raise InvalidRecord([Problem(N_("a game record must be a JSON object"))])
    problems: list[Problem] = []
    game = data.get("game")
    if not isinstance(game, str) or game not in engines:
        known = ", ".join(engines)
        raise InvalidRecord(
            [Problem(N_("game must be one of {known}"), field="game", values={"known": known})]
        )
    engine = engines[game]
    allowed = RECORD_KEYS | engine.record_extras | {AT_TOTALS}
    for key in data:
        if key not in allowed:
            problems.append(
                Problem(N_("unknown key {key!r} in the record"), field=key, values={"key": key})
            )
    if data.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        problems.append(
            Problem(N_("format must be {format}"), field="format", values={"format": RECORD_FORMAT})
        )
    players = data.get("players")
    if not isinstance(players, list) or not players:
        problems.append(Problem(N_("players must be a list of names"), field="players"))
        players = []
    else:
        for seat, name in enumerate(players):
            if not isinstance(name, str) or not name.strip():
                problems.append(
                    Problem(
                        N_("player {number} needs a name"),
                        field="players",
                        values={"number": seat + 1},
                    )
                )
            elif problem := text_problem(name, MAX_NAME_LENGTH):
                problems.append(
                    Problem(
                        N_("player {number}'s name {problem}"),
                        field="players",
                        values={"number": seat + 1, "problem": problem},
                    )
                )
    options = data.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        problems.append(Problem(N_("options must be an object"), field="options"))
        options = {}
    rounds = data.get("rounds", [])
    if rounds is None:
        rounds = []
    if not isinstance(rounds, list):
        problems.append(Problem(N_("rounds must be a list"), field="rounds"))
        rounds = []
    elif len(rounds) > MAX_ROUNDS:
        problems.append(too_many_rounds(None, "rounds"))
    first_dealer = data.get("first_dealer", 0)
    if not is_int(first_dealer):
        problems.append(Problem(N_("first_dealer must be a seat number"), field="first_dealer"))
        first_dealer = 0
    if problems:
        raise InvalidRecord(problems)
    return GameRecord(
        game=game,
        players=tuple(name.strip() for name in players),
        options=dict(options),
        rounds=tuple(rounds),
        first_dealer=first_dealer,
        extras={key: data[key] for key in engine.record_extras | {AT_TOTALS} if key in data},
    )


def without_deal(record: GameRecord, number: int) -> GameRecord:
    """The record with deal ``number`` removed (the later deals move up one) and no ending:
    an ending stood on the deals as they were."""
    rounds = list(record.rounds)
    del rounds[number - 1]
    return record.with_rounds(rounds).with_extras({})


def through_deal(record: GameRecord, number: int) -> GameRecord:
    """The record's deals 1 to ``number`` (the later ones removed), with no ending."""
    return record.with_rounds(list(record.rounds)[:number]).with_extras({})


def ended_at_totals(engine: Engine, record: GameRecord) -> tuple[GameRecord, ScoredGame]:
    """The record ended where it stands: as the game itself ends there, or else at the
    totals standing (``AT_TOTALS``), with the game so scored. Raises InvalidRecord."""
    scored = engine.score(record)
    if scored.finished:
        return record, scored
    ended = record.with_extras({**record.extras, AT_TOTALS: True})
    return ended, engine.score(ended)
