"""The event document (``tablescore-event/1``): declared schemas, and every check that
needs no database, so that a document is validated whole before anything is written.

``document_problems`` answers the document and every problem in it, each named by its
path (``rounds[0].tables[1].seats[0].entrant``): the shape (pydantic, strict: no
string where a number belongs, no unknown key), the limits, then what refers to what
(entrants seated once a round, seats pointing at entrants, numbers used once, games
that fit their tables). The event's own settings (game options, metrics, table size)
are checked by the service that imports, with the same rules as a new event.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from common.folding import folded
from common.phrases import N_, Phrase
from scoring.engines.base import InvalidRecord, Problem, parse_record, text_problem
from scoring.engines.registry import ENGINES, engine_for
from tournaments.club.core.table import (
    DEFAULT_PLACE_POINTS,
    Counting,
    SeasonRule,
    Tiebreak,
)
from tournaments.errors import listed
from tournaments.models.signup import VENUE_LONGEST

EXPORT_FORMAT = "tablescore-event/1"
NAME_LONGEST = 40
EVENT_NAME_LONGEST = 80
MOST_ROUNDS = 30
MOST_MEMBERS = 10
# A document holds at most this many entrants, tables a round and seats a table; nothing
# in it nests deeper than DEEPEST (a game's deal is about ten levels down) and no text
# is longer than LONGEST_TEXT.
MOST_ENTRANTS = 2000
MOST_TABLES = 500
MOST_SEATS = 12
DEEPEST = 16
LONGEST_TEXT = 1000
# An exported event of a large night is a few MB; anything larger is not one.
IMPORT_LARGEST = 16 * 1024 * 1024
LARGEST_INT = 2**31 - 1

PositiveSmall = Annotated[int, Field(ge=1, le=32767)]
Index = Annotated[int, Field(ge=0, le=MOST_ENTRANTS - 1)]
ReportScalar = int | float | bool | None | Annotated[str, Field(max_length=200)]
# A round's report: the seating's figures, and a club night's mean rating of each table.
ReportValue = ReportScalar | Annotated[list[ReportScalar], Field(max_length=MOST_TABLES)]


def _text(longest: int) -> Any:
    """A name: stripped, not empty, at most ``longest`` characters, all of them shown."""

    def check(value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError(N_("is empty"))
        if problem := text_problem(value, longest):
            raise ValueError(problem)
        return value

    return check


Name = Annotated[str, AfterValidator(_text(NAME_LONGEST))]
EventName = Annotated[str, AfterValidator(_text(EVENT_NAME_LONGEST))]


def _iso_date(value: str) -> str:
    try:
        dt.date.fromisoformat(value)
    except ValueError:
        raise ValueError(N_("is a date written as YYYY-MM-DD")) from None
    return value


def _clock_time(value: str) -> str:
    try:
        dt.datetime.strptime(value, "%H:%M")
    except ValueError:
        raise ValueError(N_("is a time written as HH:MM (24 hours)")) from None
    return value


def _venue(value: str) -> str:
    value = value.strip()
    if value and (problem := text_problem(value, VENUE_LONGEST)):
        raise ValueError(problem)
    return value


IsoDate = Annotated[str, Field(max_length=10), AfterValidator(_iso_date)]
ClockTime = Annotated[str, Field(max_length=5), AfterValidator(_clock_time)]
Venue = Annotated[str, AfterValidator(_venue)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class EventSettings(Strict):
    name: EventName
    game: str
    options: dict[Annotated[str, Field(max_length=40)], Any] = Field(default_factory=dict)
    format: str = "mixer"
    rounds_planned: Annotated[int, Field(ge=1, le=MOST_ROUNDS)] = 3
    table_size: Annotated[int, Field(ge=2, le=MOST_SEATS)] | None = None
    # The table sizes the event allows; empty: every size the game allows.
    table_sizes: Annotated[
        list[Annotated[int, Field(ge=1, le=MOST_SEATS)]], Field(max_length=MOST_SEATS)
    ] = Field(default_factory=list)
    standings_metrics: Annotated[
        list[Annotated[str, Field(max_length=40)]], Field(max_length=12)
    ] = Field(default_factory=list)
    bye_scoring: str = "average"
    bye_value: Annotated[int, Field(ge=-(10**6), le=10**6)] = 0
    # What a player away for a round scores: nothing, or the event's bye score.
    away_scoring: Literal["none", "bye"] = "none"
    confirmation: str = "other_side"
    one_phone: bool = False
    seed: Annotated[int, Field(ge=0, le=LARGEST_INT)] = 0
    status: Literal["registration", "running", "closed"] = "running"
    # When and where: all optional (documents from before them hold none).
    date: IsoDate | None = None
    start_time: ClockTime | None = None
    venue: Venue = ""

    @field_validator("game")
    @classmethod
    def _known_game(cls, value: str) -> str:
        if value not in ENGINES:
            raise ValueError(Phrase(N_("must be one of {games}"), {"games": ", ".join(ENGINES)}))
        return value


class EntrantDoc(Strict):
    name: Name
    members: Annotated[list[Name], Field(max_length=MOST_MEMBERS)] = Field(default_factory=list)
    checked_in: bool = False
    dropped: bool = False
    joined_round: Annotated[int, Field(ge=1, le=MOST_ROUNDS + 1)] = 1
    fixed_table: PositiveSmall | None = None

    @field_validator("members")
    @classmethod
    def _members(cls, value: list[str]) -> list[str]:
        if len(value) == 1:
            raise ValueError(N_("a team has at least two members"))
        return value


class SeatDoc(Strict):
    entrant: Index
    member: Annotated[int, Field(ge=0, le=MOST_MEMBERS - 1)] = 0


class TableDoc(Strict):
    number: PositiveSmall
    seats: Annotated[list[SeatDoc], Field(min_length=1, max_length=MOST_SEATS)]
    game: dict[str, Any] | None = None


class AbsenceDoc(Strict):
    """A player not seated in a round: away, or still playing the round before."""

    entrant: Index
    reason: Literal["away", "playing"] = "away"


class RoundDoc(Strict):
    number: Annotated[int, Field(ge=1, le=MOST_ROUNDS)]
    status: Literal["draft", "published"] = "published"
    report: Annotated[
        dict[Annotated[str, Field(max_length=40)], ReportValue], Field(max_length=40)
    ] = Field(default_factory=dict)
    tables: Annotated[list[TableDoc], Field(max_length=MOST_TABLES)]
    byes: Annotated[list[Index], Field(max_length=MOST_ENTRANTS)] = Field(default_factory=list)
    absences: Annotated[list[AbsenceDoc], Field(max_length=MOST_ENTRANTS)] = Field(
        default_factory=list
    )


class ClubSeasonDoc(Strict):
    """A club night's season, by name and rule (``tournaments.club.core.table``)."""

    name: EventName
    counting: str = "all"
    best: Annotated[int, Field(ge=0, le=1000)] = 0
    drop: Annotated[int, Field(ge=0, le=1000)] = 0
    min_nights: Annotated[int, Field(ge=0, le=1000)] = 0
    place_points: Annotated[list[Annotated[int, Field(ge=0, le=1000)]], Field(max_length=64)] = (
        Field(default_factory=list)
    )
    attendance: Annotated[int, Field(ge=0, le=1000)] = 0
    tiebreaks: Annotated[list[str], Field(max_length=10)] = Field(default_factory=list)

    @model_validator(mode="after")
    def _rule(self) -> ClubSeasonDoc:
        try:
            rule = SeasonRule(
                counting=Counting(self.counting),
                best=self.best,
                drop=self.drop,
                min_nights=self.min_nights,
                place_points=tuple(self.place_points) or DEFAULT_PLACE_POINTS,
                attendance=self.attendance,
                tiebreaks=tuple(Tiebreak(t) for t in self.tiebreaks),
            )
        except ValueError:
            raise ValueError(N_("an unknown way of counting nights or tiebreak")) from None
        if problems := rule.problems():
            raise ValueError(listed([Phrase(p.template, p.values) for p in problems], "; "))
        return self


class ClubLinkDoc(Strict):
    """Which roster player (by name) an entrant, or a member of a fixed team, is."""

    entrant: Index
    member: Annotated[int, Field(ge=0, le=MOST_MEMBERS - 1)] = 0
    player: Name


class ClubDoc(Strict):
    """The event as a club night: its season, rated or not, balanced tables, who is who."""

    season: ClubSeasonDoc | None = None
    rated: bool = True
    balanced: bool = False
    links: Annotated[list[ClubLinkDoc], Field(max_length=MOST_ENTRANTS * MOST_MEMBERS)] = Field(
        default_factory=list
    )


class EventDocument(Strict):
    format: Literal["tablescore-event/1"]
    event: EventSettings
    entrants: Annotated[list[EntrantDoc], Field(max_length=MOST_ENTRANTS)]
    keep_apart: Annotated[
        list[Annotated[list[Index], Field(min_length=2, max_length=2)]],
        Field(max_length=MOST_ENTRANTS),
    ] = Field(default_factory=list)
    rounds: Annotated[list[RoundDoc], Field(max_length=MOST_ROUNDS)]
    club: ClubDoc | None = None


# --------------------------------------------------------------------------- paths


def path_of(location: tuple[int | str, ...] | list[int | str]) -> str:
    """``("rounds", 0, "tables", 1)`` -> ``rounds[0].tables[1]``."""
    out = ""
    for part in location:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "document"


def _problem(
    location: tuple[int | str, ...] | list[int | str], template: str, **values: Any
) -> Problem:
    """A problem at ``location``: ``template`` marked with ``N_``, filled with ``values``
    in the reader's language."""
    parts = list(location)
    round_number = (
        parts[1] + 1
        if len(parts) > 1 and parts[0] == "rounds" and isinstance(parts[1], int)
        else None
    )
    return Problem(template, round_number, path_of(parts), values)


# --------------------------------------------------------------------------- raw walk


def _raw_problems(data: Any) -> list[Problem]:
    """What no schema should meet: nesting past DEEPEST, NUL and other controls in keys,
    over-long texts. Iterative, so that no nesting can exhaust the stack."""
    problems: list[Problem] = []
    stack: list[tuple[Any, tuple[int | str, ...]]] = [(data, ())]
    while stack and len(problems) < 50:
        value, where = stack.pop()
        if len(where) > DEEPEST:
            problems.append(
                _problem(where, N_("nests deeper than {deepest} levels"), deepest=DEEPEST)
            )
            continue
        if isinstance(value, str):
            if "\x00" in value:
                problems.append(_problem(where, N_("holds a NUL character")))
            elif len(value) > LONGEST_TEXT:
                problems.append(
                    _problem(where, N_("is longer than {longest} characters"), longest=LONGEST_TEXT)
                )
        elif isinstance(value, Mapping):
            for key, item in value.items():
                if not isinstance(key, str) or text_problem(key, 40):
                    problems.append(
                        _problem(
                            where,
                            N_("has a key that is not a plain name: {key}"),
                            key=f"{key!r:.50}",
                        )
                    )
                    continue
                stack.append((item, (*where, key)))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                stack.append((item, (*where, index)))
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53:
            problems.append(_problem(where, N_("is too large a number")))
    return sorted(problems, key=lambda p: p.field or "")


# --------------------------------------------------------------------------- references


NO_ENTRANT = N_("there is no entrant {index}")
SEATED_TWICE = N_("{name} is already seated in this round ({where})")


def _reference_problems(doc: EventDocument) -> Iterator[Problem]:
    count = len(doc.entrants)
    seen_names: dict[str, int] = {}
    for i, entrant in enumerate(doc.entrants):
        key = folded(entrant.name)  # as the desk compares names: case, accents, spaces
        if key in seen_names:
            yield _problem(
                ("entrants", i, "name"),
                N_("{name} is already registered ({where})"),
                name=entrant.name,
                where=f"entrants[{seen_names[key]}]",
            )
        else:
            seen_names[key] = i
    pairs: set[frozenset[int]] = set()
    for i, (a, b) in enumerate(doc.keep_apart):
        for j, index in enumerate((a, b)):
            if index >= count:
                yield _problem(("keep_apart", i, j), NO_ENTRANT, index=index)
        if a == b:
            yield _problem(("keep_apart", i), N_("an entrant cannot be kept apart from themselves"))
        elif frozenset((a, b)) in pairs:
            yield _problem(("keep_apart", i), N_("this pair is listed twice"))
        pairs.add(frozenset((a, b)))
    numbers = [r.number for r in doc.rounds]
    for i, round_ in enumerate(doc.rounds):
        where: tuple[int | str, ...] = ("rounds", i)
        if round_.number != i + 1:
            yield _problem(
                (*where, "number"),
                N_("round numbers go 1, 2, 3...: expected {number}"),
                number=i + 1,
            )
        if round_.status == "draft" and i != len(numbers) - 1:
            yield _problem((*where, "status"), N_("only the last round may be a draft"))
        placed: dict[int, str] = {}
        table_numbers: set[int] = set()
        for t, table in enumerate(round_.tables):
            here = (*where, "tables", t)
            if table.number in table_numbers:
                yield _problem(
                    (*here, "number"), N_("table {number} is listed twice"), number=table.number
                )
            table_numbers.add(table.number)
            for s, seat in enumerate(table.seats):
                at = (*here, "seats", s)
                if seat.entrant >= count:
                    yield _problem((*at, "entrant"), NO_ENTRANT, index=seat.entrant)
                    continue
                members = doc.entrants[seat.entrant].members
                if seat.member >= max(1, len(members)):
                    yield _problem(
                        (*at, "member"),
                        N_("entrant {index} has no member {member}"),
                        index=seat.entrant,
                        member=seat.member,
                    )
                if seat.entrant in placed:
                    yield _problem(
                        (*at, "entrant"),
                        SEATED_TWICE,
                        name=doc.entrants[seat.entrant].name,
                        where=placed[seat.entrant],
                    )
                else:
                    placed[seat.entrant] = path_of(at)
            yield from _game_problems(doc, round_, table, here)
        for b, index in enumerate(round_.byes):
            at = (*where, "byes", b)
            if index >= count:
                yield _problem(at, NO_ENTRANT, index=index)
            elif index in placed:
                yield _problem(
                    at,
                    SEATED_TWICE,
                    name=doc.entrants[index].name,
                    where=placed[index],
                )
            else:
                placed[index] = path_of(at)
        for a, absence in enumerate(round_.absences):
            at = (*where, "absences", a, "entrant")
            if absence.entrant >= count:
                yield _problem(at, NO_ENTRANT, index=absence.entrant)
            elif absence.entrant in placed:
                name = doc.entrants[absence.entrant].name
                yield _problem(
                    at,
                    N_("{name} is already placed in this round ({where})"),
                    name=name,
                    where=placed[absence.entrant],
                )
            else:
                placed[absence.entrant] = path_of(at)


def _game_problems(
    doc: EventDocument, round_: RoundDoc, table: TableDoc, here: tuple[int | str, ...]
) -> Iterator[Problem]:
    if round_.status == "draft":
        if table.game is not None:
            yield _problem((*here, "game"), N_("a draft round's table has no game yet"))
        return
    if table.game is None:
        yield _problem((*here, "game"), N_("a published round's table needs its game"))
        return
    record = table.game
    if record.get("game") != doc.event.game:
        yield _problem((*here, "game", "game"), N_("every table plays {game}"), game=doc.event.game)
        return
    players = record.get("players")
    if isinstance(players, list) and len(players) != len(table.seats):
        yield _problem(
            (*here, "game", "players"),
            N_("the game has {players} players for {seats} seats"),
            players=len(players),
            seats=len(table.seats),
        )
        return
    try:
        engine_for(record["game"]).score(parse_record(record, ENGINES))
    except InvalidRecord as invalid:
        for p in invalid.problems:
            field = ("game", *(p.field.split(".") if p.field else ()))
            if p.round:
                yield _problem(
                    (*here, *field), N_("deal {number}: {problem}"), number=p.round, problem=p
                )
            else:
                yield _problem((*here, *field), p.template, **p.values)
        return
    if isinstance(players, list):
        # The table's game is played by those seated there, in seat order, as publishing a
        # round makes it: a game naming others would credit the seated with their points.
        for s, (seat, player) in enumerate(zip(table.seats, players, strict=True)):
            if seat.entrant >= len(doc.entrants) or not isinstance(player, str):
                continue  # said above, or the record's own check says it
            entrant = doc.entrants[seat.entrant]
            seated = (
                entrant.members[seat.member]
                if entrant.members and seat.member < len(entrant.members)
                else entrant.name
            )
            if folded(player) != folded(seated):
                yield _problem(
                    (*here, "game", "players", s),
                    N_("seat {seat} is {seated}'s, but the game names {player}"),
                    seat=s + 1,
                    seated=seated,
                    player=player,
                )
                return


# --------------------------------------------------------------------------- the schema's words

# What a value of the wrong type should have been, by pydantic's error type.
_KINDS = {
    "int_type": N_("a whole number"),
    "int_parsing": N_("a whole number"),
    "int_from_float": N_("a whole number"),
    "float_type": N_("a number"),
    "bool_type": N_("true or false"),
    "string_type": N_("text"),
    "dict_type": N_("an object"),
    "model_type": N_("an object"),
    "model_attributes_type": N_("an object"),
    "list_type": N_("a list"),
}
# The types pydantic names a branch of a union by, at the end of an error's location.
_BRANCHES = frozenset({"int", "float", "bool", "str", "none", "list", "dict"})


def _branch(part: int | str) -> bool:
    return isinstance(part, str) and (
        part in _BRANCHES or "[" in part or part.startswith("constrained-")
    )


def _schema_problem(location: tuple[int | str, ...], error: Mapping[str, Any]) -> Problem:
    """One of pydantic's errors as a problem said in the reader's language: the common
    kinds through marked templates, anything else in pydantic's own (English) words."""
    kind = error["type"]
    ctx = error.get("ctx") or {}
    if kind == "missing":
        return _problem(location, N_("is missing"))
    if kind == "extra_forbidden":
        return _problem(location, N_("is not a key this document has"))
    if kind in _KINDS:
        return _problem(location, N_("should be {kind}"), kind=Phrase(_KINDS[kind]))
    if kind == "string_too_long":
        return _problem(
            location, N_("is longer than {longest} characters"), longest=ctx["max_length"]
        )
    if kind == "too_long":
        return _problem(location, N_("holds more than {most} items"), most=ctx["max_length"])
    if kind == "too_short":
        return _problem(location, N_("holds fewer than {least} items"), least=ctx["min_length"])
    if kind == "greater_than_equal":
        return _problem(location, N_("should be {least} or more"), least=ctx["ge"])
    if kind == "less_than_equal":
        return _problem(location, N_("should be {most} or less"), most=ctx["le"])
    if kind == "literal_error":
        allowed = str(ctx.get("expected", "")).replace(" or ", ", ")
        return _problem(location, N_("should be one of {allowed}"), allowed=allowed)
    if kind == "value_error":
        reason = ctx["error"].args[0] if ctx.get("error") and ctx["error"].args else ""
        if isinstance(reason, Phrase | Problem):
            return _problem(location, reason.template, **reason.values)
        return _problem(location, str(reason))  # a marked template with no values
    return _problem(location, str(error["msg"]))


def _schema_problems(error: ValidationError) -> list[Problem]:
    """Every problem pydantic found, each named by its path. A value that matched no branch
    of a union is named at its own path (not the branch's): by the one branch that said
    more than its type (text too long), else once as a value the field does not take."""
    found = []
    for item in error.errors(include_url=False):
        location = tuple(item["loc"])
        branched = bool(location) and _branch(location[-1])
        while location and _branch(location[-1]):
            location = location[:-1]
        found.append((location, item, branched and item["type"] in _KINDS))
    said_more = {location for location, _, of_type in found if not of_type}
    problems: list[Problem] = []
    unmatched: set[tuple[int | str, ...]] = set()
    for location, item, of_type in found:
        if not of_type:
            problems.append(_schema_problem(location, item))
        elif location not in said_more and location not in unmatched:
            unmatched.add(location)
            problems.append(_problem(location, N_("is not a value this field takes")))
    return problems


# --------------------------------------------------------------------------- the check


def document_problems(data: Any) -> tuple[EventDocument | None, list[Problem]]:
    """The document as declared, or None with every problem found (each with its path)."""
    if not isinstance(data, Mapping):
        return None, [
            Problem(
                N_("this is not a {format} document"),
                field="document",
                values={"format": EXPORT_FORMAT},
            )
        ]
    raw = _raw_problems(data)
    if raw:
        return None, raw
    try:
        doc = EventDocument.model_validate(dict(data))
    except ValidationError as error:
        return None, _schema_problems(error)
    problems = list(_reference_problems(doc))
    return (None, problems) if problems else (doc, [])
