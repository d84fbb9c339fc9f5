"""An event: checked, created and closed."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from common.phrases import N_, Phrase
from scoring.engines.base import Problem, text_problem
from scoring.engines.registry import ENGINES
from scoring.models import Confirmation
from tournaments.errors import TournamentError, listed, refuse
from tournaments.events.document import (
    EVENT_NAME_LONGEST,
    MOST_ROUNDS,
)
from tournaments.models import (
    Event,
    TournamentRound,
)
from tournaments.models.signup import VENUE_LONGEST
from tournaments.seating import adapter as seating
from tournaments.seating.core import SchedulingError
from tournaments.services.change import (
    ActingUser,
    bump,
    event_locked,
    event_locked_open,
    event_log,
)
from tournaments.standings import adapter as results
from tournaments.standings.core import metrics_from_names, rules_problems


def _option_problems(game: str, options: object) -> list[Problem]:
    if not isinstance(options, Mapping):
        return [Problem(N_("options must be an object"), field="options")]
    specs = {spec.name: spec for spec in ENGINES[game].option_specs()}
    problems = []
    for name, value in options.items():
        spec = specs.get(name)
        if spec is None:
            problems.append(
                Problem(
                    N_("unknown option “{name}” for {game}"),
                    None,
                    "options",
                    {"name": name, "game": ENGINES[game].title},
                )
            )
        elif phrase := spec.problem(value):
            problems.append(Problem(phrase.template, None, f"options.{name}", phrase.values))
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
    table_sizes: Sequence[int] = (),
) -> list[Problem]:
    """Every problem with an event's settings, each naming its field."""
    problems: list[Problem] = []
    if not name.strip():
        problems.append(Problem(N_("give the event a name"), field="name"))
    elif len(name.strip()) > EVENT_NAME_LONGEST:
        problems.append(
            Problem(
                N_("the name is at most {longest} characters"),
                field="name",
                values={"longest": EVENT_NAME_LONGEST},
            )
        )
    if game not in ENGINES:
        problems.append(
            Problem(
                N_("game must be one of {allowed}"),
                field="game",
                values={"allowed": ", ".join(ENGINES)},
            )
        )
        return problems
    problems += _option_problems(game, options)
    if format not in Event.Format.values:
        problems.append(
            Problem(
                N_("format must be one of {allowed}"),
                None,
                "format",
                {"allowed": ", ".join(Event.Format.values)},
            )
        )
    if not isinstance(rounds_planned, int) or not 1 <= rounds_planned <= MOST_ROUNDS:
        problems.append(
            Problem(
                N_("rounds must be between 1 and {most}"),
                field="rounds_planned",
                values={"most": MOST_ROUNDS},
            )
        )
    if not problems:
        problems += table_sizes_problems(game, options, table_sizes, table_size)
    if standings_metrics:
        try:
            rules = results.StandingsRules(metrics=metrics_from_names(standings_metrics))
            problems += rules_problems(rules)
        except ValueError:
            known = ", ".join(m.value for m in results.Metric)
            problems.append(
                Problem(
                    N_("metrics must be among {known}"),
                    field="standings_metrics",
                    values={"known": known},
                )
            )
    if bye_scoring not in Event.ByeScoring.values:
        problems.append(
            Problem(
                N_("byes score as one of {allowed}"),
                None,
                "bye_scoring",
                {"allowed": ", ".join(Event.ByeScoring.values)},
            )
        )
    if confirmation not in Confirmation.values:
        problems.append(
            Problem(
                N_("confirmation must be one of {allowed}"),
                None,
                "confirmation",
                {"allowed": ", ".join(Confirmation.values)},
            )
        )
    return problems


def table_sizes_problems(
    game: str, options: Mapping[str, Any], table_sizes: object, table_size: int | None = None
) -> list[Problem]:
    """What is wrong with an event's allowed table sizes (and its one size, if any) for
    its game under its options, each naming its field."""
    if not isinstance(table_sizes, (list, tuple)) or not all(
        isinstance(size, int) and not isinstance(size, bool) for size in table_sizes
    ):
        return [Problem(N_("the table sizes allowed are whole numbers"), field="table_sizes")]
    try:
        policy = seating.table_policy(game, options=options)
        if table_sizes:
            policy = policy.within(table_sizes)
    except SchedulingError as error:
        return [seating.refusal(error, field="table_sizes")]
    if table_size is not None:
        try:
            policy.only(table_size)
        except SchedulingError as error:
            if (
                table_sizes
                and table_size in seating.table_policy(game, options=options).legal_sizes
            ):
                return [
                    Problem(
                        N_("table size {size} is not among the sizes allowed ({allowed})"),
                        field="table_size",
                        values={
                            "size": table_size,
                            "allowed": ", ".join(str(s) for s in sorted(set(table_sizes))),
                        },
                    )
                ]
            return [seating.refusal(error, field="table_size")]
    return []


def allowed_sizes(game: str, options: Mapping[str, Any], table_sizes: Sequence[int]) -> list[int]:
    """The sizes as stored: increasing, once each; empty when they are every size the
    game allows (the event then follows the game, whatever its options become)."""
    chosen = sorted(set(table_sizes))
    legal = list(seating.table_policy(game, options=options).legal_sizes)
    return [] if chosen == legal else chosen


def event_create(
    *,
    owner: User,
    name: str,
    game: str,
    options: Mapping[str, Any] | None = None,
    format: str = Event.Format.MIXER,
    rounds_planned: int = 3,
    table_size: int | None = None,
    table_sizes: Sequence[int] = (),
    standings_metrics: Sequence[str] = (),
    bye_scoring: str = Event.ByeScoring.AVERAGE,
    bye_value: int = 0,
    confirmation: str = Confirmation.OTHER_SIDE,
    one_phone: bool = False,
    seed: int = 0,
    date: dt.date | None = None,
    start_time: dt.time | None = None,
    venue: str = "",
) -> Event:
    """A new event in registration, owned by its director (when and where: optional)."""
    options = dict(options or {})
    refuse(schedule_problems(venue))
    refuse(
        event_check(
            name=name,
            game=game,
            options=options,
            format=format,
            rounds_planned=rounds_planned,
            table_size=table_size,
            table_sizes=table_sizes,
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
            table_sizes=allowed_sizes(game, options, table_sizes),
            standings_metrics=list(standings_metrics),
            bye_scoring=bye_scoring,
            bye_value=bye_value,
            confirmation=confirmation,
            one_phone=bool(one_phone),
            seed=seed,
            date=date,
            start_time=start_time,
            venue=venue.strip(),
        )
        event_log(event, "event_create", owner, after=event_settings(event))
    return event


def event_settings(event: Event) -> dict[str, Any]:
    return {
        "name": event.name,
        "game": event.game,
        "options": dict(event.options),
        "format": event.format,
        "rounds_planned": event.rounds_planned,
        "table_size": event.table_size,
        "table_sizes": list(event.table_sizes),
        "standings_metrics": list(event.standings_metrics),
        "bye_scoring": event.bye_scoring,
        "bye_value": event.bye_value,
        "confirmation": event.confirmation,
        "one_phone": event.one_phone,
        "seed": event.seed,
        **schedule_data(event),
    }


def event_table_sizes_set(
    *, event: Event, table_sizes: Sequence[int], user: ActingUser = None
) -> Event:
    """The table sizes the event allows from its next seating on (a draft already seated
    keeps its tables until it is seated again). Every size the game allows: today's
    behaviour; none is refused. An event with one size only ("Always 4") is given the
    sizes instead."""
    if not table_sizes:
        raise TournamentError.single(
            N_("allow at least one table size (all of them: the game's own sizes)"),
            field="table_sizes",
        )
    refuse(table_sizes_problems(event.game, event.options, table_sizes))
    with transaction.atomic():
        event = event_locked_open(event)
        before = {"table_size": event.table_size, "table_sizes": list(event.table_sizes)}
        event.table_sizes = allowed_sizes(event.game, event.options, table_sizes)
        event.table_size = None
        event.save(update_fields=["table_sizes", "table_size", "updated_at"])
        event_log(
            event,
            "event_table_sizes",
            user,
            before=before,
            after={"table_size": None, "table_sizes": list(event.table_sizes)},
        )
        bump(event)
    return event


def event_close(*, event: Event, user: ActingUser) -> Event:
    """Close the event: no draft left, every table done."""
    with transaction.atomic():
        event = event_locked_open(event)
        if event.rounds.filter(status=TournamentRound.Status.DRAFT).exists():
            raise TournamentError.single(
                N_("publish or discard the draft round before closing"), field="status"
            )
        waiting = [row for row in results.table_rows(event) if not row.finished or row.pending]
        if waiting:
            raise TournamentError.single(
                N_("these tables are not done yet: {tables}"),
                field="status",
                tables=listed(
                    Phrase(
                        N_("round {round} table {table}"),
                        {"round": r.round_number, "table": r.table_number},
                    )
                    for r in waiting
                ),
            )
        event.status = Event.Status.CLOSED
        event.save(update_fields=["status", "updated_at"])
        event_log(event, "event_close", user, after={"status": event.status})
        bump(event)
    return event


def schedule_problems(venue: str) -> list[Problem]:
    """What is wrong with an event's venue (its date and time are read by the form)."""
    if venue.strip() and (problem := text_problem(venue.strip(), VENUE_LONGEST)):
        return [Problem(N_("the venue {problem}"), field="venue", values={"problem": problem})]
    return []


def event_schedule_set(
    *,
    event: Event,
    date: dt.date | None,
    start_time: dt.time | None,
    venue: str,
    user: ActingUser = None,
) -> Event:
    """When and where the event is played (each optional): shown on its pages and
    printouts."""
    refuse(schedule_problems(venue))
    with transaction.atomic():
        event = event_locked(event)
        before = schedule_data(event)
        event.date, event.start_time, event.venue = date, start_time, venue.strip()
        event.save(update_fields=["date", "start_time", "venue", "updated_at"])
        event_log(event, "event_schedule", user, before=before, after=schedule_data(event))
        bump(event)
    return event


def schedule_data(event: Event) -> dict[str, Any]:
    """The event's date, start time and venue as the document and the log hold them."""
    return {
        "date": event.date.isoformat() if event.date else None,
        "start_time": event.start_time.strftime("%H:%M") if event.start_time else None,
        "venue": event.venue,
    }
