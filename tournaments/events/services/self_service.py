"""What a player does from their own link (check in, drop out), and what the director
sets and answers about it at the desk (the check-in window, how a drop is taken, a drop
asked for).

Nothing of the availability rule changes (``tournaments.events.availability``): a
player checking themselves in is checked in exactly as the desk's tick does it, and once
anyone is, only those checked in are seated. Every change is logged; a player's own
changes are logged with no user and ``"by": "own link"``.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from common.phrases import N_
from scoring.engines.base import Problem
from tournaments.errors import TournamentError, refuse
from tournaments.events.me_selectors import check_in_state, next_round_seated, still_playing
from tournaments.events.services.entrants import entrant_of
from tournaments.events.services.signup import waiting_list_advance
from tournaments.models import Entrant, Event
from tournaments.services.change import (
    ActingUser,
    bump,
    event_locked,
    event_locked_open,
    event_log,
    refuse_closed,
)

OWN_LINK = "own link"


def _own_entrant(event: Event, entrant: Entrant) -> Entrant:
    found = entrant_of(event, entrant)
    if found.dropped:
        raise TournamentError.single(
            N_("you have dropped out of this event: ask the desk to take you back"),
            field="entrant",
        )
    return found


def entrant_self_check_in(*, entrant: Entrant, checked_in: bool = True) -> Entrant:
    """A player checks in (or takes it back) from their own link, while the director
    has check-in open; taking it back only until the next round is seated."""
    with transaction.atomic():
        event = event_locked_open(entrant.event)
        entrant = _own_entrant(event, entrant)
        if not check_in_state(event).open:
            raise TournamentError.single(
                N_("check-in is not open: the desk opens it"), field="checked_in"
            )
        if entrant.checked_in == checked_in:
            return entrant
        if not checked_in and next_round_seated(event):
            raise TournamentError.single(
                N_("the next round is seated already: tell the desk you are away"),
                field="checked_in",
            )
        entrant.checked_in = checked_in
        entrant.save(update_fields=["checked_in"])
        event_log(
            event,
            "entrant_self_check_in",
            None,
            before={"id": entrant.pk, "checked_in": not checked_in},
            after={"id": entrant.pk, "checked_in": checked_in, "by": OWN_LINK},
        )
        bump(event)
    return entrant


def entrant_self_drop(*, entrant: Entrant) -> Entrant:
    """A player drops out between rounds from their own link: at once, or asked of the
    desk, as the event says. Their results so far stand; the desk can take it back."""
    with transaction.atomic():
        event = event_locked_open(entrant.event)
        entrant = _own_entrant(event, entrant)
        if still_playing(event, entrant):
            raise TournamentError.single(
                N_("finish your table first: you drop out between rounds"), field="drop"
            )
        if (
            next_round_seated(event)
            and entrant.table_seats.filter(
                table__round__event=event, table__round__status="draft"
            ).exists()
        ):
            raise TournamentError.single(
                N_("the next round is seated already with you in it: ask the desk"),
                field="drop",
            )
        if event.self_drop == Event.SelfDrop.NOW:
            entrant.dropped = True
            entrant.drop_asked_at = None
            entrant.save(update_fields=["dropped", "drop_asked_at"])
            event_log(
                event,
                "entrant_self_drop",
                None,
                after={"id": entrant.pk, "name": entrant.name, "by": OWN_LINK},
            )
            waiting_list_advance(event=event)  # a place freed under the sign-up's cap
        else:
            if entrant.drop_asked_at is not None:
                return entrant
            entrant.drop_asked_at = timezone.now()
            entrant.save(update_fields=["drop_asked_at"])
            event_log(
                event,
                "entrant_drop_ask",
                None,
                after={"id": entrant.pk, "name": entrant.name, "by": OWN_LINK},
            )
        bump(event)
    return entrant


def entrant_self_drop_withdraw(*, entrant: Entrant) -> Entrant:
    """A player takes back the drop they asked the desk for, before the desk answers."""
    with transaction.atomic():
        event = event_locked_open(entrant.event)
        entrant = entrant_of(event, entrant)
        if entrant.drop_asked_at is None:
            return entrant
        entrant.drop_asked_at = None
        entrant.save(update_fields=["drop_asked_at"])
        event_log(
            event,
            "entrant_drop_ask_withdraw",
            None,
            after={"id": entrant.pk, "name": entrant.name, "by": OWN_LINK},
        )
        bump(event)
    return entrant


def entrant_drop_answer(
    *, event: Event, entrant: Entrant, agree: bool, user: ActingUser = None
) -> Entrant:
    """The desk answers a drop a player asked for: dropped from the next round generated
    on (their results stand), or kept in."""
    with transaction.atomic():
        event = event_locked_open(event)
        entrant = entrant_of(event, entrant)
        if entrant.drop_asked_at is None:
            raise TournamentError.single(
                N_("{name} has not asked to drop out (or took it back)"),
                field="entrant",
                name=entrant.name,
            )
        entrant.drop_asked_at = None
        entrant.dropped = entrant.dropped or agree
        entrant.save(update_fields=["drop_asked_at", "dropped"])
        event_log(
            event,
            "entrant_drop" if agree else "entrant_drop_decline",
            user,
            after={"id": entrant.pk, "name": entrant.name, "asked": True},
        )
        bump(event)
        if agree:
            waiting_list_advance(event=event)  # a place freed under the sign-up's cap
    return entrant


def event_self_service_set(
    *,
    event: Event,
    self_check_in: str,
    opens_at: datetime | None = None,
    closes_at: datetime | None = None,
    self_drop: str | None = None,
    user: ActingUser = None,
) -> Event:
    """The director opens or closes players' own check-in (by hand, or a window between
    two times) and says how a drop from a player's link is taken."""
    problems: list[Problem] = []
    if self_check_in not in Event.SelfCheckIn.values:
        problems.append(Problem(N_("choose closed, open or a window"), field="self_check_in"))
    if self_check_in == Event.SelfCheckIn.WINDOW:
        if opens_at is None:
            problems.append(Problem(N_("say when check-in opens"), field="check_in_opens_at"))
        if closes_at is None:
            problems.append(Problem(N_("say when check-in closes"), field="check_in_closes_at"))
        if opens_at is not None and closes_at is not None and closes_at <= opens_at:
            problems.append(
                Problem(N_("check-in closes after it opens"), field="check_in_closes_at")
            )
    if self_drop is not None and self_drop not in Event.SelfDrop.values:
        problems.append(Problem(N_("choose asked of the desk or at once"), field="self_drop"))
    refuse(problems)
    with transaction.atomic():
        event = event_locked(event)
        refuse_closed(event)
        fields = ("self_check_in", "check_in_opens_at", "check_in_closes_at", "self_drop")
        before = {name: _plain(getattr(event, name)) for name in fields}
        event.self_check_in = self_check_in
        windowed = self_check_in == Event.SelfCheckIn.WINDOW
        event.check_in_opens_at = opens_at if windowed else None
        event.check_in_closes_at = closes_at if windowed else None
        if self_drop is not None:
            event.self_drop = self_drop
        event.save(update_fields=[*fields, "updated_at"])
        after = {name: _plain(getattr(event, name)) for name in fields}
        event_log(event, "event_self_service", user, before=before, after=after)
        bump(event)
    return event


def _plain(value: object) -> object:
    return value.isoformat() if isinstance(value, datetime) else value
