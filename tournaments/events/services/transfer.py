"""The whole event as one JSON document: exported, checked and imported."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from scoring.engines.base import Problem
from scoring.models import RoundEvent
from scoring.selectors import game_record_dict
from scoring.services import (
    Actor,
    GameChangeError,
    game_create,
)
from tournaments.club import selectors as club_selectors
from tournaments.club import services as club_services
from tournaments.errors import TournamentError, refuse
from tournaments.events.document import (
    EVENT_NAME_LONGEST,
    EXPORT_FORMAT,
    EventDocument,
    document_problems,
)
from tournaments.events.services.event import event_check, event_create, event_settings
from tournaments.models import (
    Absence,
    Bye,
    Entrant,
    Event,
    KeepApart,
    Table,
    TableSeat,
    TournamentRound,
)
from tournaments.services.change import event_log


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
            **event_settings(event),
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
        "club": club_selectors.club_export(event=event),
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
            Problem(p.template, None, f"event.{p.field}" if p.field else "event", p.values)
            for p in event_check(
                name=settings.name,
                game=settings.game,
                options=settings.options,
                format=settings.format,
                rounds_planned=settings.rounds_planned,
                table_size=settings.table_size,
                table_sizes=settings.table_sizes,
                standings_metrics=settings.standings_metrics,
                bye_scoring=settings.bye_scoring,
                confirmation=settings.confirmation,
            )
        ]
    refuse(problems)
    assert document is not None
    return document


IMPORTED = " (imported)"


def imported_name(original: str) -> str:
    """An imported event's own name when none is given: the original's, marked
    "(imported)" (shortened to fit), so that the copy is told from the original."""
    room = EVENT_NAME_LONGEST - len(IMPORTED)
    return original.strip()[:room].rstrip() + IMPORTED


def event_import(*, data: Any, owner: User, name: str = "") -> Event:
    """Recreate an exported event (a new event owned by ``owner``), games and all, named
    ``name`` (when empty: the original's name, marked "(imported)").

    The whole document is validated first (``event_import_check``): nothing is written
    unless all of it is right.
    """
    document = event_import_check(data=data)
    settings = document.event
    with transaction.atomic():
        try:
            event = event_create(
                owner=owner,
                name=name.strip() or imported_name(settings.name),
                game=settings.game,
                options=settings.options,
                format=settings.format,
                rounds_planned=settings.rounds_planned,
                table_size=settings.table_size,
                table_sizes=settings.table_sizes,
                standings_metrics=settings.standings_metrics,
                bye_scoring=settings.bye_scoring,
                bye_value=settings.bye_value,
                confirmation=settings.confirmation,
                one_phone=settings.one_phone,
                seed=settings.seed,
                date=dt.date.fromisoformat(settings.date) if settings.date else None,
                start_time=(
                    dt.datetime.strptime(settings.start_time, "%H:%M").time()
                    if settings.start_time
                    else None
                ),
                venue=settings.venue,
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
                club_services.club_import(event=event, data=club, user=owner)
            except club_services.ClubError as error:
                raise TournamentError(error.problems) from None
    return event
