"""Every change to an event, one service each: keyword-only, typed, atomic, audited.

Each service checks first (raising ``TournamentError`` with problems that name the
field, for the director to read), then changes the rows and writes one ``EventLog``
row, in one transaction. Anything else raised is a bug. Seating and standings are
computed by the pure cores through ``tournaments.seating.adapter`` and
``tournaments.standings.adapter``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import models, transaction
from django.utils import timezone

from scoring.engines.base import Problem
from scoring.engines.registry import ENGINES
from scoring.models import ChangeRequest, Confirmation, Game, RoundEvent
from scoring.selectors import game_record_dict, game_score, side_in_round
from scoring.services import (
    Actor,
    GameChangeError,
    StaleRevision,
    desk_request_answer,
    game_create,
    round_confirm,
    round_correct,
)
from tournaments.errors import TournamentError, refuse
from tournaments.events import availability, player_list
from tournaments.events.document import (
    EVENT_NAME_LONGEST,
    EXPORT_FORMAT,
    MOST_MEMBERS,
    MOST_ROUNDS,
    NAME_LONGEST,
    EventDocument,
    document_problems,
)
from tournaments.events.selectors import folded
from tournaments.models import (
    Absence,
    BracketGame,
    Bye,
    Entrant,
    Event,
    KeepApart,
    Table,
    TableSeat,
    TournamentRound,
)
from tournaments.plumbing import bump, event_log, locked, locked_open, options_at, refuse_closed
from tournaments.seasons import seating as season_seating
from tournaments.seasons import services as season_services
from tournaments.seating import adapter as seating
from tournaments.seating.core import SchedulingError
from tournaments.standings import adapter as results
from tournaments.standings.core import InvalidResults, metrics_from_names, rules_problems

SWAPPED = ", then swapped by the director"  # what a draft's "How" says after a swap


class StillPlayingError(TournamentError):
    """Tables of an earlier round still play: the director is shown who, and may go on."""

    def __init__(self, message: str, tables: Sequence[availability.StillPlaying], number: int):
        super().__init__([Problem(message, number, "go_on")])
        self.tables = list(tables)


def round_still_playing_check(*, event: Event, number: int, go_on: bool) -> None:
    """Refuse round ``number`` while a table of an earlier round still plays, unless the
    director goes on (its players are then left out of the draft)."""
    still = [t for t in availability.tables_still_playing(event) if t.round_number < number]
    if still and not go_on:
        players = sum(len(t.entrant_ids) for t in still)
        raise StillPlayingError(
            f"{len(still)} {'table' if len(still) == 1 else 'tables'} of the round before "
            f"still {'plays' if len(still) == 1 else 'play'} ({players} players): wait for "
            "them, or go on without them",
            still,
            number,
        )


# The plumbing under the names the services of this module use.
_check = refuse
_log = log_change = event_log
_bump = bump
_locked = locked
_open = refuse_closed

# --------------------------------------------------------------------------- events


def _option_problems(game: str, options: object) -> list[Problem]:
    if not isinstance(options, Mapping):
        return [Problem("options must be an object", field="options")]
    specs = {spec.name: spec for spec in ENGINES[game].option_specs()}
    problems = []
    for name, value in options.items():
        spec = specs.get(name)
        if spec is None:
            problems.append(
                Problem(f"unknown option {name!r} for {ENGINES[game].title}", None, "options")
            )
        elif message := spec.problem(value):
            problems.append(Problem(message, None, f"options.{name}"))
    return problems


def event_check(
    *,
    name: str,
    game: str,
    options: Mapping[str, Any],
    format: str,
    rounds_planned: int,
    table_size: int | None,
    standings_metrics: Sequence[str],
    bye_scoring: str,
    confirmation: str,
) -> list[Problem]:
    """Every problem with an event's settings, each naming its field."""
    problems: list[Problem] = []
    if not name.strip():
        problems.append(Problem("give the event a name", field="name"))
    elif len(name.strip()) > EVENT_NAME_LONGEST:
        problems.append(
            Problem(f"the name is at most {EVENT_NAME_LONGEST} characters", field="name")
        )
    if game not in ENGINES:
        problems.append(Problem(f"game must be one of {', '.join(ENGINES)}", field="game"))
        return problems
    problems += _option_problems(game, options)
    if format not in Event.Format.values:
        problems.append(
            Problem(f"format must be one of {', '.join(Event.Format.values)}", None, "format")
        )
    if not isinstance(rounds_planned, int) or not 1 <= rounds_planned <= MOST_ROUNDS:
        problems.append(
            Problem(f"rounds must be between 1 and {MOST_ROUNDS}", field="rounds_planned")
        )
    if not problems and table_size is not None:
        try:
            seating.table_policy(game, table_size, options=options)
        except SchedulingError as error:
            problems.append(Problem(str(error), field="table_size"))
    if standings_metrics:
        try:
            rules = results.StandingsRules(metrics=metrics_from_names(standings_metrics))
            problems += rules_problems(rules)
        except ValueError:
            known = ", ".join(m.value for m in results.Metric)
            problems.append(Problem(f"metrics must be among {known}", field="standings_metrics"))
    if bye_scoring not in Event.ByeScoring.values:
        problems.append(
            Problem(
                f"byes score as one of {', '.join(Event.ByeScoring.values)}", None, "bye_scoring"
            )
        )
    if confirmation not in Confirmation.values:
        problems.append(
            Problem(
                f"confirmation must be one of {', '.join(Confirmation.values)}",
                None,
                "confirmation",
            )
        )
    return problems


def event_create(
    *,
    owner: Any,
    name: str,
    game: str,
    options: Mapping[str, Any] | None = None,
    format: str = Event.Format.MIXER,
    rounds_planned: int = 3,
    table_size: int | None = None,
    standings_metrics: Sequence[str] = (),
    bye_scoring: str = Event.ByeScoring.AVERAGE,
    bye_value: int = 0,
    confirmation: str = Confirmation.OTHER_SIDE,
    one_phone: bool = False,
    seed: int = 0,
) -> Event:
    """A new event in registration, owned by its director."""
    options = dict(options or {})
    refuse(
        event_check(
            name=name,
            game=game,
            options=options,
            format=format,
            rounds_planned=rounds_planned,
            table_size=table_size,
            standings_metrics=standings_metrics,
            bye_scoring=bye_scoring,
            confirmation=confirmation,
        )
    )
    with transaction.atomic():
        event = Event.objects.create(
            owner=owner,
            name=name.strip(),
            game=game,
            options=options,
            format=format,
            rounds_planned=rounds_planned,
            table_size=table_size,
            standings_metrics=list(standings_metrics),
            bye_scoring=bye_scoring,
            bye_value=bye_value,
            confirmation=confirmation,
            one_phone=bool(one_phone),
            seed=seed,
        )
        event_log(event, "event_create", owner, after=_event_settings(event))
    return event


def _event_settings(event: Event) -> dict[str, Any]:
    return {
        "name": event.name,
        "game": event.game,
        "options": dict(event.options),
        "format": event.format,
        "rounds_planned": event.rounds_planned,
        "table_size": event.table_size,
        "standings_metrics": list(event.standings_metrics),
        "bye_scoring": event.bye_scoring,
        "bye_value": event.bye_value,
        "confirmation": event.confirmation,
        "one_phone": event.one_phone,
        "seed": event.seed,
    }


def event_close(*, event: Event, user: Any) -> Event:
    """Close the event: no draft left, every table done."""
    with transaction.atomic():
        event = locked_open(event)
        if event.rounds.filter(status=TournamentRound.Status.DRAFT).exists():
            raise TournamentError.single(
                "publish or discard the draft round before closing", field="status"
            )
        waiting = [row for row in results.table_rows(event) if not row.finished or row.pending]
        if waiting:
            where = ", ".join(f"round {r.round_number} table {r.table_number}" for r in waiting)
            raise TournamentError.single(f"these tables are not done yet: {where}", field="status")
        event.status = Event.Status.CLOSED
        event.save(update_fields=["status", "updated_at"])
        event_log(event, "event_close", user, after={"status": event.status})
        bump(event)
    return event


# --------------------------------------------------------------------------- entrants


def _name_problems(
    name: str, members: Sequence[str], taken: set[str], *, field: str = "name"
) -> list[Problem]:
    problems: list[Problem] = []
    if not name.strip():
        problems.append(Problem("the name is empty", field=field))
    elif len(name.strip()) > NAME_LONGEST:
        problems.append(Problem(f"the name is at most {NAME_LONGEST} characters", field=field))
    elif not name.strip().isprintable():
        problems.append(Problem("the name holds characters that cannot be shown", field=field))
    elif folded(name) in taken:
        problems.append(Problem(f"{name.strip()} is already registered", field=field))
    if len(members) == 1:
        problems.append(Problem("a team has at least two members", field="members"))
    if len(members) > MOST_MEMBERS:
        problems.append(Problem(f"a team has at most {MOST_MEMBERS} members", field="members"))
    for member in members:
        if not member.strip() or len(member.strip()) > NAME_LONGEST:
            problems.append(
                Problem(f"each member's name is 1 to {NAME_LONGEST} characters", field="members")
            )
            break
    return problems


def _taken(event: Event) -> set[str]:
    return {folded(n) for n in event.entrants.values_list("name", flat=True)}


def _entrant_data(entrant: Entrant) -> dict[str, Any]:
    return {
        "id": entrant.pk,
        "name": entrant.name,
        "members": list(entrant.members),
        "checked_in": entrant.checked_in,
        "dropped": entrant.dropped,
        "joined_round": entrant.joined_round,
    }


def _published_count(event: Event) -> int:
    return event.rounds.filter(status=TournamentRound.Status.PUBLISHED).count()


def _add(
    event: Event, name: str, members: Sequence[str], user: Any, *, late: bool, action: str
) -> Entrant:
    with transaction.atomic():
        event = locked_open(event)
        members = [m.strip() for m in members]
        refuse(_name_problems(name, members, _taken(event)))
        published = _published_count(event)
        if not late and published:
            raise TournamentError.single(
                "the event has started: add a late entry instead", field="name"
            )
        entrant = Entrant.objects.create(
            event=event,
            name=name.strip(),
            members=members,
            joined_round=published + 1,
            # Present: counted among those checked in while check-in is in use.
            checked_in=late and availability.is_checking(event.entrants.all()),
        )
        event_log(event, action, user, after=_entrant_data(entrant))
        bump(event)
    return entrant


def entrant_add(
    *, event: Event, name: str, members: Sequence[str] = (), user: Any = None
) -> Entrant:
    """Register a player (or a fixed team with its members) before the first round."""
    return _add(event, name, members, user, late=False, action="entrant_add")


def entrant_add_late(
    *, event: Event, name: str, members: Sequence[str] = (), user: Any = None
) -> Entrant:
    """A late entry, seated from the next round generated (checked in, while check-in
    is in use)."""
    return _add(event, name, members, user, late=True, action="entrant_add_late")


def _list_problems(event: Event, listed: player_list.PlayerList) -> list[Problem]:
    """Every mistake of a player list against the event, by line."""
    problems = [Problem(f"line {n}: {m}", field=f"line {n}") for n, m in listed.mistakes]
    if _published_count(event):
        return [Problem("the event has started: add late entries one by one", field="file")]
    taken = _taken(event)
    for player in listed.players:
        line = f"line {player.line}"
        for problem in _name_problems(player.name, list(player.members), taken, field=line):
            problems.append(Problem(f"{line}: {problem.message}", field=line))
        taken.add(folded(player.name))
    problems.sort(key=lambda p: int((p.field or "line 0").split()[1]))
    if not listed.players and not problems:
        problems.append(Problem("the file holds no names", field="file"))
    return problems


def entrants_csv_preview(
    *, event: Event, text: str
) -> tuple[player_list.PlayerList, list[Problem]]:
    """What registering a player list would do, and what is wrong with it; writes nothing."""
    listed = player_list.read_player_list(text)
    return listed, _list_problems(event, listed)


def entrants_import_csv(*, event: Event, text: str, user: Any = None) -> list[Entrant]:
    """Register every player of a list (``tournaments.events.player_list``), all or none.

    A header row, blank lines and comments register nobody; every mistake names its line.
    """
    listed = player_list.read_player_list(text)
    with transaction.atomic():
        event = _locked(event)
        _open(event)
        _check(_list_problems(event, listed))
        created = Entrant.objects.bulk_create(
            Entrant(event=event, name=p.name, members=list(p.members)) for p in listed.players
        )
        _log(
            event,
            "entrants_import_csv",
            user,
            after={"names": [p.name for p in listed.players], "skipped": list(listed.skipped)},
        )
        _bump(event)
    names = [p.name for p in listed.players]
    return list(event.entrants.filter(name__in=names)) if created else []


def _entrant_of(event: Event, entrant: Entrant) -> Entrant:
    found = Entrant.objects.select_for_update().filter(pk=entrant.pk, event=event).first()
    if found is None:
        raise TournamentError.single("that player is not in this event", field="entrant")
    return found


def entrant_check_in(
    *, event: Event, entrant: Entrant, checked_in: bool = True, user: Any = None
) -> Entrant:
    """Mark a player present (or not). Once anyone is checked in, only those are seated."""
    with transaction.atomic():
        event = locked_open(event)
        entrant = _entrant_of(event, entrant)
        before = entrant.checked_in
        entrant.checked_in = checked_in
        entrant.save(update_fields=["checked_in"])
        event_log(
            event,
            "entrant_check_in",
            user,
            before={"id": entrant.pk, "checked_in": before},
            after={"id": entrant.pk, "checked_in": checked_in},
        )
        bump(event)
    return entrant


def entrant_drop(*, event: Event, entrant: Entrant, user: Any = None) -> Entrant:
    """Drop a player from the next round generated on; their results so far stand."""
    with transaction.atomic():
        event = locked_open(event)
        entrant = _entrant_of(event, entrant)
        if entrant.dropped:
            raise TournamentError.single(f"{entrant.name} has already dropped", field="entrant")
        entrant.dropped = True
        entrant.save(update_fields=["dropped"])
        event_log(event, "entrant_drop", user, after={"id": entrant.pk, "name": entrant.name})
        bump(event)
    return entrant


def entrant_return(*, event: Event, entrant: Entrant, user: Any = None) -> Entrant:
    """Take back a drop: the player is seated again from the next round generated."""
    with transaction.atomic():
        event = _locked(event)
        _open(event)
        entrant = _entrant_of(event, entrant)
        if not entrant.dropped:
            raise TournamentError.single(f"{entrant.name} has not dropped", field="entrant")
        entrant.dropped = False
        entrant.save(update_fields=["dropped"])
        _log(event, "entrant_return", user, after={"id": entrant.pk, "name": entrant.name})
        _bump(event)
    return entrant


def event_away_scoring_set(*, event: Event, away_scoring: str, user: Any = None) -> Event:
    """How a player away for a round scores for it: nothing, or the event's bye score."""
    with transaction.atomic():
        event = _locked(event)
        _open(event)
        if away_scoring not in Event.AwayScoring.values:
            raise TournamentError.single(
                "choose how an away player scores: nothing or the bye score",
                field="away_scoring",
            )
        before = event.away_scoring
        event.away_scoring = away_scoring
        event.save(update_fields=["away_scoring", "updated_at"])
        _log(
            event,
            "event_away_scoring",
            user,
            before={"away_scoring": before},
            after={"away_scoring": away_scoring},
        )
        _bump(event)
    return event


def keep_apart_add(*, event: Event, first: Entrant, second: Entrant, user: Any = None) -> KeepApart:
    """Two players who should never share a table."""
    with transaction.atomic():
        event = locked_open(event)
        first, second = _entrant_of(event, first), _entrant_of(event, second)
        if first.pk == second.pk:
            raise TournamentError.single("choose two different players", field="second")
        pair = {first.pk, second.pk}
        if any(
            {a, b} == pair
            for a, b in KeepApart.objects.filter(event=event).values_list("first_id", "second_id")
        ):
            raise TournamentError.single(
                f"{first.name} and {second.name} are already kept apart", field="second"
            )
        kept = KeepApart.objects.create(event=event, first=first, second=second)
        event_log(event, "keep_apart_add", user, after={"first": first.pk, "second": second.pk})
    return kept


# --------------------------------------------------------------------------- rounds


def _winners(event: Event) -> dict[int, frozenset[int]]:
    """Each played round's table winners (first place), for progressive movement."""
    won: dict[int, set[int]] = {}
    for rnd in results.event_results(event).rounds:
        for table in rnd.tables:
            won.setdefault(rnd.number, set()).update(
                s.entrant for s in table.seats if s.place == 1 and table.confirmed
            )
    return {n: frozenset(ids) for n, ids in won.items()}


def _standings_order(event: Event) -> list[int]:
    try:
        return [row.entrant for row in results.event_standings(event).rows]
    except InvalidResults as invalid:
        raise TournamentError(invalid.problems) from None


Progress = Callable[[str, int, int], None]


def round_generate(
    *,
    event: Event,
    user: Any = None,
    effort: int = 1,
    progress: Progress | None = None,
    go_on: bool = False,
) -> TournamentRound:
    """Seat the next round as a draft (replacing an earlier draft), with the core's report.

    Only the players available are seated (``tournaments.events.availability``); those
    away are recorded as absent. Swiss and progressive events need every table of the
    rounds so far to be done; other formats refuse while a table still plays unless
    ``go_on``, and then leave its players out.
    ``progress(step, done, total)`` is told how far it got (the background task stores it).
    """
    report = progress or (lambda step, done, total: None)
    report("loading", 1, 3)
    event = Event.objects.get(pk=event.pk)
    refuse_closed(event)
    number = _published_count(event) + 1
    if number > event.rounds_planned:
        raise TournamentError.single(
            f"all {event.rounds_planned} rounds are published", field="rounds_planned"
        )
    if event.format in (Event.Format.SWISS, Event.Format.PROGRESSIVE):
        waiting = [r for r in results.table_rows(event) if not r.finished or r.pending]
        if waiting:
            raise TournamentError.single(
                f"{len(waiting)} tables of the rounds so far are not done, and a "
                f"{event.format} round is seated from the results",
                field="round",
                round_number=number,
            )
    round_still_playing_check(event=event, number=number, go_on=go_on)
    standings = _standings_order(event) if event.format == Event.Format.SWISS else []
    if number == 1 and standings:
        standings = season_seating.rating_order(event)  # Swiss round 1: seeded by rating
    winners = _winners(event) if event.format == Event.Format.PROGRESSIVE else {}
    available = availability.availability_for(event, number=number, leave_out_playing=go_on)
    inputs = seating.seating_inputs(
        event,
        number=number,
        standings=standings,
        winners=winners,
        effort=effort,
        seated=available.seated_ids,
    )
    if len(inputs.request.entrants) < 2:
        raise TournamentError.single(
            "at least two players are needed to seat a round",
            field="entrants",
            round_number=number,
        )
    report("seating", 2, 3)
    # The core runs outside the transaction: the event stays unlocked meanwhile, and a
    # change that slips in is caught below.
    try:
        plan = seating.plan_for(inputs)
    except SchedulingError as error:
        raise TournamentError.single(str(error), field=error.field, round_number=number) from None
    plan = season_seating.balance_plan(event, inputs, plan)
    report("saving", 3, 3)
    with transaction.atomic():
        event = locked_open(event)
        if _published_count(event) + 1 != number:
            raise TournamentError.single(
                "a round was published meanwhile: generate again", field="round"
            )
        replaced = event.rounds.filter(number=number, status=TournamentRound.Status.DRAFT)
        replaced_draft = replaced.exists()
        # Games prepared for a large draft's publishing go with it.
        prepared = list(
            Table.objects.filter(round__in=replaced, game__isnull=False).values_list(
                "game_id", flat=True
            )
        )
        replaced.delete()
        Game.objects.filter(pk__in=prepared).delete()
        round_ = TournamentRound.objects.create(event=event, number=number)
        seating.save_plan(round_, plan)
        availability.absences_save(round_, available)
        if season_seating.slot_strength(event):
            round_.report = {
                **round_.report,
                "table_means": season_seating.mean_ratings(event, plan),
            }
            round_.save(update_fields=["report"])
        if event.status == Event.Status.REGISTRATION:
            event.status = Event.Status.RUNNING
            event.save(update_fields=["status", "updated_at"])
        event_log(
            event,
            "round_generate",
            user,
            after={
                "round": number,
                "replaced_draft": replaced_draft,
                "report": round_.report,
                "away": [e.pk for e in available.away],
                "still_playing": [e.pk for e in available.playing],
            },
        )
    return round_


def round_generation_mark(*, event: Event, state: str, user: Any = None, **details: Any) -> Event:
    """Store how far the next round's background generation got, for the desk to show.

    ``state``: queued, running, done or failed. Queuing a second one while one is
    queued or running is refused.
    """
    with transaction.atomic():
        event = locked(event)
        if state == "queued":
            refuse_closed(event)
            if event.generation.get("state") in ("queued", "running"):
                raise TournamentError.single("a round is already being generated", field="round")
        event.generation = {**details, "state": state}
        event.save(update_fields=["generation", "updated_at"])
        if state in ("queued", "done", "failed"):
            event_log(event, f"round_generation_{state}", user, after=event.generation)
        bump(event)
    return event


def _round_of(event: Event, round_: TournamentRound, status: str) -> TournamentRound:
    found = TournamentRound.objects.select_for_update().filter(pk=round_.pk, event=event).first()
    if found is None:
        raise TournamentError.single("that round is not in this event", field="round")
    if found.status != status:
        raise TournamentError.single(
            f"round {found.number} is {found.get_status_display().lower()}",
            field="round",
            round_number=found.number,
        )
    return found


@dataclass(frozen=True)
class SwapResult:
    """A swap in a draft: the report before and after, for the director to compare."""

    round: TournamentRound
    before: dict[str, Any]
    after: dict[str, Any]

    @property
    def cost_change(self) -> int:
        return int(self.after["cost"]) - int(self.before["cost"])


def round_swap(
    *, event: Event, round: TournamentRound, first: Entrant, second: Entrant, user: Any = None
) -> SwapResult:
    """Swap two players' places (seats or byes) in a draft; the report is recomputed."""
    with transaction.atomic():
        event = locked_open(event)
        round_ = _round_of(event, round, TournamentRound.Status.DRAFT)
        first, second = _entrant_of(event, first), _entrant_of(event, second)
        if first.pk == second.pk:
            raise TournamentError.single("choose two different players", field="second")
        if len(first.members) != len(second.members):
            raise TournamentError.single(
                "a team swaps only with a team of as many members", field="second"
            )
        places: dict[int, list[Any]] = {first.pk: [], second.pk: []}
        for seat in TableSeat.objects.filter(table__round=round_, entrant__in=places):
            places[seat.entrant_id].append(seat)
        byes = {b.entrant_id: b for b in Bye.objects.filter(round=round_, entrant__in=places)}
        for entrant in (first, second):
            if not places[entrant.pk] and entrant.pk not in byes:
                raise TournamentError.single(
                    f"{entrant.name} is not in this round",
                    field="entrant",
                    round_number=round_.number,
                )
        before = dict(round_.report)
        for seat in (*places[first.pk], *places[second.pk]):
            seat.entrant_id = second.pk if seat.entrant_id == first.pk else first.pk
        TableSeat.objects.bulk_update([*places[first.pk], *places[second.pk]], ["entrant"])
        for bye in byes.values():
            bye.entrant_id = second.pk if bye.entrant_id == first.pk else first.pk
            bye.save(update_fields=["entrant"])
        tables, bye_slots = seating.draft_tables(round_)
        in_draft = {seating.unslot(s)[0] for s in (*(v for t in tables for v in t), *bye_slots)}
        inputs = seating.seating_inputs(event, number=round_.number, seated=in_draft)
        # The seating's own method stays named: the swap is added to it, once.
        method = str(before.get("method") or "").removesuffix(SWAPPED)
        report = seating.report_for(inputs.request, tables, bye_slots, f"{method}{SWAPPED}")
        round_.report = report.as_dict()
        round_.save(update_fields=["report"])
        event_log(
            event,
            "round_swap",
            user,
            before={"report": before},
            after={
                "round": round_.number,
                "swapped": [first.pk, second.pk],
                "report": round_.report,
            },
        )
    return SwapResult(round=round_, before=before, after=dict(round_.report))


def _first_dealer(seated: Sequence[int], dealt: Counter[int]) -> int:
    """The seat whose player has dealt first least often so far (ties: the lowest seat)."""
    return min(range(len(seated)), key=lambda s: (dealt[seated[s]], s))


def _publish_checks(event: Event, round_: TournamentRound, *, go_on: bool) -> None:
    round_still_playing_check(event=event, number=round_.number, go_on=go_on)
    twice = availability.seated_still_playing(round_)
    if twice:
        listed = "; ".join(f"{name} ({table.label.split(':')[0]})" for name, table in twice)
        raise TournamentError.single(
            f"this draft seats players still playing: {listed}. Generate the draft "
            "again to leave them out",
            field="round",
            round_number=round_.number,
        )


def _create_games(
    event: Event, round_: TournamentRound, user: Any, *, most: int | None = None
) -> list[Table]:
    """Give up to ``most`` of the draft's tables that have none their scoring game."""
    tables = list(round_.tables.filter(game__isnull=True).order_by("number")[:most])
    if not tables:
        return []
    dealt: Counter[int] = Counter()
    for seat, entrant_id, first in TableSeat.objects.filter(
        table__round__event=event,
        table__round__status=TournamentRound.Status.PUBLISHED,
    ).values_list("seat", "entrant_id", "table__game__first_dealer"):
        if seat == first:
            dealt[entrant_id] += 1
    seats: dict[int, list[TableSeat]] = {}
    for table_seat in TableSeat.objects.filter(table__in=tables).select_related("entrant"):
        seats.setdefault(table_seat.table_id, []).append(table_seat)
    actor = Actor(user=user, device="director's desk")
    for table in tables:
        seated = sorted(seats[table.pk], key=lambda s: s.seat)
        names = [
            s.entrant.members[s.member] if s.entrant.members else s.entrant.name for s in seated
        ]
        record = {
            "game": event.game,
            "players": names,
            "options": options_at(event.game, event.options, len(names)),
            "first_dealer": _first_dealer([s.entrant_id for s in seated], dealt),
            "rounds": [],
        }
        try:
            created = game_create(
                record=record,
                actor=actor,
                confirmation=event.confirmation,
                is_tournament_game=True,
                one_phone=event.one_phone,
            )
        except GameChangeError as error:
            raise TournamentError(
                [
                    Problem(f"table {table.number}: {p.message}", round_.number, p.field)
                    for p in error.problems
                ]
            ) from None
        table.game = created.game
    Table.objects.bulk_update(tables, ["game"])
    return tables


def round_publish_part(
    *, event: Event, round: TournamentRound, user: Any = None, go_on: bool = False, most: int
) -> tuple[int, int]:
    """Prepare a large draft for publishing, ``most`` tables at a time: their games are
    created while the round stays a draft (players see nothing yet). Returns (tables
    with a game, tables). ``round_publish`` then publishes the round in one step."""
    with transaction.atomic():
        event = locked_open(event)
        round_ = _round_of(event, round, TournamentRound.Status.DRAFT)
        _publish_checks(event, round_, go_on=go_on)
        _create_games(event, round_, user, most=most)
        done = round_.tables.filter(game__isnull=False).count()
        return done, round_.tables.count()


def round_publish(
    *, event: Event, round: TournamentRound, user: Any = None, go_on: bool = False
) -> TournamentRound:
    """Publish a draft: every table becomes one scoring game, players in seat order.

    Refused while a table of an earlier round still plays, unless ``go_on``; even then a
    draft that seats a player still playing is refused (nobody is seated twice). Tables
    prepared by ``round_publish_part`` keep their games.
    """
    with transaction.atomic():
        event = _locked(event)
        _open(event)
        round_ = _round_of(event, round, TournamentRound.Status.DRAFT)
        _publish_checks(event, round_, go_on=go_on)
        _create_games(event, round_, user)
        round_.status = TournamentRound.Status.PUBLISHED
        round_.published_at = timezone.now()
        round_.save(update_fields=["status", "published_at"])
        event_log(
            event,
            "round_publish",
            user,
            after={
                "round": round_.number,
                "games": list(round_.tables.order_by("number").values_list("game_id", flat=True)),
            },
        )
        bump(event)
    return round_


def round_undo(*, event: Event, round: TournamentRound, user: Any = None) -> TournamentRound:
    """Take back the last published round before any result is in: its games go, the
    round is a draft again."""
    with transaction.atomic():
        event = locked_open(event)
        round_ = _round_of(event, round, TournamentRound.Status.PUBLISHED)
        last = event.rounds.order_by("-number").values_list("number", flat=True).first()
        if last != round_.number:
            raise TournamentError.single(
                f"only the last round (round {last}) can be undone",
                field="round",
                round_number=round_.number,
            )
        game_ids = list(round_.tables.exclude(game=None).values_list("game_id", flat=True))
        played = (
            Table.objects.filter(round=round_, game__rounds__isnull=False)
            .values_list("number", flat=True)
            .distinct()
        )
        if played:
            listed = ", ".join(str(n) for n in sorted(played))
            raise TournamentError.single(
                f"results are in at table {listed}: correct them instead",
                field="round",
                round_number=round_.number,
            )
        round_.tables.update(game=None)
        Game.objects.filter(pk__in=game_ids).delete()
        round_.status = TournamentRound.Status.DRAFT
        round_.published_at = None
        round_.save(update_fields=["status", "published_at"])
        event_log(event, "round_undo", user, before={"round": round_.number, "games": game_ids})
        bump(event)
    return round_


# --------------------------------------------------------------------------- results


def result_correct(
    *,
    event: Event,
    table: Table,
    number: int,
    entry: Mapping[str, Any],
    user: Any,
    revision: int | None = None,
) -> Table:
    """The director replaces deal ``number`` of a table's game; the correction stands.

    ``revision`` is the game's revision the desk page showed: a table that changed since
    is refused (``StaleRevision``, shown with what is there now), never overwritten.

    Recorded in the game's own audit trail (as the director, entering for the seat that
    entered the deal, then confirming for a seat of another side) and in the event's log.
    """
    with transaction.atomic():
        event = locked_open(event)
        found = (
            Table.objects.select_related("game", "round")
            .filter(pk=table.pk, round__event=event)
            .first()
        )
        game = found.game if found is not None else None
        if found is None or game is None:
            raise TournamentError.single("that table has no game in this event", field="table")
        table = found
        existing = game.rounds.filter(number=number).first()
        if existing is None:
            raise TournamentError.single(
                f"table {table.number} has no deal {number}", field="number"
            )
        entering = existing.entered_by_seat if existing.entered_by_seat is not None else 0
        director = Actor(seat=entering, user=user, device="director's desk", desk=True)
        before = dict(existing.entry)
        try:
            changed = round_correct(
                game=game, number=number, entry=entry, actor=director, revision=revision
            )
            if game.confirmation != Confirmation.OFF:
                score = game_score(changed.game)
                everyone = range(len(score.players))
                others = sorted(
                    set(everyone) - side_in_round(changed.game, score, number, entering)
                ) or [s for s in everyone if s != entering]
                round_confirm(
                    game=changed.game,
                    number=number,
                    actor=Actor(seat=others[0], user=user, device="director's desk", desk=True),
                )
        except StaleRevision:
            raise
        except GameChangeError as error:
            raise TournamentError(
                [
                    Problem(f"table {table.number}: {p.message}", p.round, p.field)
                    for p in error.problems
                ]
            ) from None
        event_log(
            event,
            "result_correct",
            user,
            before={"table": table.pk, "number": number, "entry": before},
            after={"table": table.pk, "number": number, "entry": dict(entry)},
        )
        bump(event)
    return table


def table_request_answer(
    *,
    event: Event,
    request_id: int,
    accept: bool,
    reason: str,
    revision: int | None,
    user: Any,
) -> ChangeRequest:
    """A director's answer to a change a closed table asked of the desk (the caller checked
    that ``user`` directs ``event``): made or declined, with the reason, in the table's
    audit trail and the event's log. ``revision`` is the table's as the desk page showed
    it: a table that changed since is refused (``StaleRevision``)."""
    request = (
        ChangeRequest.objects.select_related("game")
        .filter(pk=request_id, to_desk=True, game__in=_event_games(event))
        .first()
    )
    if request is None:
        raise TournamentError.single("there is no such request at this event", field="request")
    with transaction.atomic():
        event = locked(event)
        try:
            desk_request_answer(
                game=request.game,
                request_id=request.pk,
                accept=accept,
                reason=reason,
                actor=Actor(user=user, device="director's desk", desk=True),
                revision=revision,
            )
        except StaleRevision:
            raise
        except GameChangeError as error:
            raise TournamentError(error.problems) from None
        request.refresh_from_db()
        event_log(
            event,
            "table_request_answer",
            user,
            before={"game": request.game_id, "kind": request.kind, "number": request.round_number},
            after={"status": request.status, "reason": request.reason},
        )
        bump(event)
    return request


def _event_games(event: Event) -> Any:
    """The ids of every game played at the event: its tables' and its bracket's."""
    tables = Table.objects.filter(round__event=event, game__isnull=False).values("game_id")
    bracket = BracketGame.objects.filter(stage__event=event).values("game_id")
    return Game.objects.filter(models.Q(pk__in=tables) | models.Q(pk__in=bracket)).values("pk")


# --------------------------------------------------------------------------- export


def event_export(*, event: Event) -> dict[str, Any]:
    """The whole event as one JSON document; ``event_import`` reads it back."""
    entrants = list(event.entrants.order_by("pk"))
    index = {e.pk: i for i, e in enumerate(entrants)}
    apart = [
        [index[a], index[b]]
        for a, b in KeepApart.objects.filter(event=event).values_list("first_id", "second_id")
    ]
    rounds = []
    rounds_ = event.rounds.order_by("number").prefetch_related("tables__seats", "byes", "absences")
    for round_ in rounds_:
        tables = []
        for table in round_.tables.all():
            tables.append(
                {
                    "number": table.number,
                    "seats": [
                        {"entrant": index[s.entrant_id], "member": s.member}
                        for s in sorted(table.seats.all(), key=lambda s: s.seat)
                    ],
                    "game": game_record_dict(table.game) if table.game is not None else None,
                }
            )
        rounds.append(
            {
                "number": round_.number,
                "status": round_.status,
                "report": round_.report,
                "tables": tables,
                "byes": sorted(index[b.entrant_id] for b in round_.byes.all()),
                "absences": [
                    {"entrant": index[a.entrant_id], "reason": a.reason}
                    for a in sorted(round_.absences.all(), key=lambda a: index[a.entrant_id])
                ],
            }
        )
    return {
        "format": EXPORT_FORMAT,
        "event": {
            **_event_settings(event),
            "away_scoring": event.away_scoring,
            "status": event.status,
        },
        "entrants": [
            {
                "name": e.name,
                "members": list(e.members),
                "checked_in": e.checked_in,
                "dropped": e.dropped,
                "joined_round": e.joined_round,
                "fixed_table": e.fixed_table,
            }
            for e in entrants
        ],
        "keep_apart": apart,
        "rounds": rounds,
        "club": season_services.club_export(event=event),
    }


def event_import_check(*, data: Any) -> EventDocument:
    """Validate a whole event document, writing nothing: the document as declared, or
    ``TournamentError`` naming every problem by its path (``rounds[0].tables[1]...``).

    The schemas and cross references are ``tournaments.events.document``'s; the event's settings
    are checked as a new event's are. ``event_import`` calls this first; a page that
    previews an upload can call it alone.
    """
    document, problems = document_problems(data)
    if document is not None:
        settings = document.event
        problems = [
            Problem(p.message, None, f"event.{p.field}" if p.field else "event")
            for p in event_check(
                name=settings.name,
                game=settings.game,
                options=settings.options,
                format=settings.format,
                rounds_planned=settings.rounds_planned,
                table_size=settings.table_size,
                standings_metrics=settings.standings_metrics,
                bye_scoring=settings.bye_scoring,
                confirmation=settings.confirmation,
            )
        ]
    refuse(problems)
    assert document is not None
    return document


def event_import(*, data: Any, owner: Any) -> Event:
    """Recreate an exported event (a new event owned by ``owner``), games and all.

    The whole document is validated first (``event_import_check``): nothing is written
    unless all of it is right.
    """
    document = event_import_check(data=data)
    settings = document.event
    with transaction.atomic():
        try:
            event = event_create(
                owner=owner,
                name=settings.name,
                game=settings.game,
                options=settings.options,
                format=settings.format,
                rounds_planned=settings.rounds_planned,
                table_size=settings.table_size,
                standings_metrics=settings.standings_metrics,
                bye_scoring=settings.bye_scoring,
                bye_value=settings.bye_value,
                confirmation=settings.confirmation,
                one_phone=settings.one_phone,
                seed=settings.seed,
            )
            entrants = Entrant.objects.bulk_create(
                Entrant(
                    event=event,
                    name=e.name,
                    members=list(e.members),
                    checked_in=e.checked_in,
                    dropped=e.dropped,
                    joined_round=e.joined_round,
                    fixed_table=e.fixed_table,
                )
                for e in document.entrants
            )
            KeepApart.objects.bulk_create(
                KeepApart(event=event, first=entrants[a], second=entrants[b])
                for a, b in document.keep_apart
            )
            for rnd in document.rounds:
                published = rnd.status == TournamentRound.Status.PUBLISHED.value
                round_ = TournamentRound.objects.create(
                    event=event,
                    number=rnd.number,
                    status=rnd.status,
                    report=dict(rnd.report),
                    published_at=timezone.now() if published else None,
                )
                for t in rnd.tables:
                    game = None
                    if t.game is not None:
                        game = game_create(
                            record=t.game,
                            actor=Actor(user=owner, device="import"),
                            confirmation=event.confirmation,
                            is_tournament_game=True,
                            action=RoundEvent.Action.IMPORT,
                        ).game
                    table = Table.objects.create(round=round_, number=t.number, game=game)
                    TableSeat.objects.bulk_create(
                        TableSeat(
                            table=table, seat=seat, entrant=entrants[s.entrant], member=s.member
                        )
                        for seat, s in enumerate(t.seats)
                    )
                Bye.objects.bulk_create(Bye(round=round_, entrant=entrants[i]) for i in rnd.byes)
                Absence.objects.bulk_create(
                    Absence(round=round_, entrant=entrants[a.entrant], reason=a.reason)
                    for a in rnd.absences
                )
        except GameChangeError as error:
            raise TournamentError(error.problems) from None
        Event.objects.filter(pk=event.pk).update(
            status=settings.status, away_scoring=settings.away_scoring
        )
        event_log(event, "event_import", owner, after={"rounds": len(document.rounds)})
        event.refresh_from_db()
        if document.club is not None:  # a club night: its season, ratings and who is who
            try:
                club = document.club.model_dump()
                season_services.club_import(event=event, data=club, user=owner)
            except season_services.SeasonError as error:
                raise TournamentError(error.problems) from None
    return event


__all__ = [
    "StillPlayingError",
    "SwapResult",
    "TournamentError",
    "entrant_add",
    "entrant_add_late",
    "entrant_check_in",
    "entrant_drop",
    "entrant_return",
    "entrants_csv_preview",
    "entrants_import_csv",
    "event_away_scoring_set",
    "event_close",
    "event_create",
    "event_export",
    "event_import",
    "event_import_check",
    "keep_apart_add",
    "log_change",
    "result_correct",
    "round_generate",
    "round_generation_mark",
    "round_publish",
    "round_publish_part",
    "round_still_playing_check",
    "round_swap",
    "round_undo",
]
