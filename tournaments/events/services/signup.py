"""An event's own sign-up page: its settings, and each registration from sign-up to seat.

A registration becomes an entrant at once when the director's approval is off and there is
room under the cap; beyond the cap it waits, in order, on the waiting list, which moves up
by itself whenever a place frees (someone withdraws, the director removes them or raises
the cap). With approval on it waits for the director. Registrations that are not entrants
are never seated: the seating reads entrants only.

Every change locks the event's row first, so that two sign-ups at once never both take the
last place; each writes one line of the event's log (the contact is never logged).
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.formats import date_format

from common.folding import folded
from common.phrases import N_
from scoring.engines.base import Problem, text_problem
from tournaments.errors import TournamentError, refuse
from tournaments.events import availability
from tournaments.events.document import NAME_LONGEST
from tournaments.events.selectors import published_rounds_count
from tournaments.models import Entrant, Event, Registration, SignUp
from tournaments.models.signup import CAP_LARGEST, CONTACT_LONGEST
from tournaments.services.change import ActingUser, bump, event_locked, event_log, refuse_closed

ACTIVE = (Registration.Status.PENDING, Registration.Status.WAITING)


# --------------------------------------------------------------------------- the settings


def signup_of(event: Event) -> SignUp:
    """The event's sign-up settings (off, no cap, no approval, no closing time, until the
    director sets them)."""
    found = SignUp.objects.filter(event=event).first()
    return found if found is not None else SignUp(event=event)


def signup_settings_set(
    *,
    event: Event,
    open: bool,
    cap: int | None,
    approval: bool,
    closes_at: dt.datetime | None,
    user: ActingUser = None,
) -> SignUp:
    """Turn the sign-up page on or off, with its cap, approval and closing time. A cap
    raised lets the waiting list move up at once."""
    if cap is not None and not 1 <= cap <= CAP_LARGEST:
        raise TournamentError.single(
            N_("the cap is a number of players from 1 to {largest}, or empty for none"),
            field="cap",
            largest=CAP_LARGEST,
        )
    with transaction.atomic():
        event = event_locked(event)
        refuse_closed(event)
        signup = SignUp.objects.select_for_update().filter(event=event).first() or SignUp(
            event=event
        )
        before = _settings_data(signup)
        signup.open, signup.cap, signup.approval = bool(open), cap, bool(approval)
        signup.closes_at = closes_at
        signup.save()
        event_log(event, "signup_settings", user, before=before, after=_settings_data(signup))
        moved = _advance(event, signup)
        if moved:
            bump(event)
    return signup


def _settings_data(signup: SignUp) -> dict[str, object]:
    return {
        "open": signup.open,
        "cap": signup.cap,
        "approval": signup.approval,
        "closes_at": signup.closes_at.isoformat() if signup.closes_at else None,
    }


# --------------------------------------------------------------------------- checks


def _taken(event: Event, *, apart_from: Registration | None = None) -> set[str]:
    """The folded names no new registration may take: the entrants', and those of the
    registrations still pending or waiting (``apart_from``: one being renamed)."""
    entrants = Entrant.objects.filter(event=event)
    registrations = Registration.objects.filter(event=event, status__in=ACTIVE)
    if apart_from is not None:
        registrations = registrations.exclude(pk=apart_from.pk)
        if apart_from.entrant_id is not None:
            entrants = entrants.exclude(pk=apart_from.entrant_id)
    names = {folded(n) for n in entrants.values_list("name", flat=True)}
    return names | set(registrations.values_list("name_folded", flat=True))


def registration_problems(name: str, contact: str, taken: set[str]) -> list[Problem]:
    """What is wrong with a name and a contact, each naming its field."""
    problems: list[Problem] = []
    name = name.strip()
    if not name:
        problems.append(Problem(N_("the name is empty"), field="name"))
    elif len(name) > NAME_LONGEST:
        problems.append(
            Problem(
                N_("the name is at most {longest} characters"),
                field="name",
                values={"longest": NAME_LONGEST},
            )
        )
    elif problem := text_problem(name, NAME_LONGEST):
        problems.append(
            Problem(N_("the name {problem}"), field="name", values={"problem": problem})
        )
    elif folded(name) in taken:
        problems.append(
            Problem(
                N_("{name} is already registered in this event"),
                field="name",
                values={"name": name},
            )
        )
    contact = contact.strip()
    if len(contact) > CONTACT_LONGEST:
        problems.append(
            Problem(
                N_("the contact is at most {longest} characters"),
                field="contact",
                values={"longest": CONTACT_LONGEST},
            )
        )
    elif contact and (problem := text_problem(contact, CONTACT_LONGEST)):
        problems.append(
            Problem(N_("the contact {problem}"), field="contact", values={"problem": problem})
        )
    return problems


def signup_closed_problem(event: Event, signup: SignUp, now: dt.datetime) -> Problem | None:
    """Why the page takes no registration now (off, past its closing time, the event
    closed), or None."""
    if event.status == Event.Status.CLOSED:
        return Problem(N_("this event is over: sign-up is closed"), field="signup")
    if not signup.open:
        return Problem(N_("sign-up for this event is not open"), field="signup")
    if signup.closes_at is not None and now >= signup.closes_at:
        # The date in the reader's locale (a problem lives for the request that asked).
        when = date_format(timezone.localtime(signup.closes_at), "DATETIME_FORMAT")
        return Problem(N_("sign-up closed on {when}"), field="signup", values={"when": when})
    return None


# --------------------------------------------------------------------------- the list


def _active_entrants(event: Event) -> int:
    return Entrant.objects.filter(event=event, dropped=False).count()


def _has_room(event: Event, signup: SignUp) -> bool:
    return signup.cap is None or _active_entrants(event) < signup.cap


def _next_place(event: Event) -> int:
    found = Registration.objects.filter(event=event).aggregate(last=Max("place"))["last"]
    return (found or 0) + 1


def _make_entrant(event: Event, registration: Registration) -> Entrant:
    """The registration's entrant: joins from the next round generated (checked in while
    check-in is in use, as a late entry is)."""
    published = published_rounds_count(event=event)
    entrant = Entrant.objects.create(
        event=event,
        name=registration.name,
        joined_round=published + 1,
        checked_in=bool(published) and availability.is_checking(event.entrants.all()),
    )
    registration.entrant = entrant
    registration.status = Registration.Status.ENTRANT
    registration.save(update_fields=["entrant", "status"])
    return entrant


def _advance(event: Event, signup: SignUp, *, logged: bool = True) -> list[Registration]:
    """Let the waiting list in, first come first, while there is room; who moved up
    (``logged``: each move written to the log)."""
    moved: list[Registration] = []
    if event.status == Event.Status.CLOSED:
        return moved
    waiting = Registration.objects.select_for_update().filter(
        event=event, status=Registration.Status.WAITING
    )
    for registration in waiting.order_by("place", "pk"):
        if not _has_room(event, signup):
            break
        _make_entrant(event, registration)
        if not logged:
            moved.append(registration)
            continue
        event_log(
            event,
            "registration_moved_up",
            None,
            after={"id": registration.pk, "name": registration.name, "status": "entrant"},
        )
        moved.append(registration)
    return moved


def _data(registration: Registration) -> dict[str, object]:
    return {
        "id": registration.pk,
        "name": registration.name,
        "status": registration.status,
        "place": registration.place,
        "entrant": registration.entrant_id,
    }


# --------------------------------------------------------------------------- the person


def registration_create(
    *,
    event: Event,
    name: str,
    contact: str = "",
    now: dt.datetime | None = None,
    user: ActingUser = None,
) -> Registration:
    """Sign up for the event from its page: an entrant at once (approval off, room under
    the cap), on the waiting list (the cap reached), or pending the director's approval."""
    now = now or timezone.now()
    with transaction.atomic():
        event = event_locked(event)
        signup = signup_of(event)
        if (closed := signup_closed_problem(event, signup, now)) is not None:
            raise TournamentError([closed])
        refuse(registration_problems(name, contact, _taken(event)))
        registration = Registration(
            event=event,
            name=name.strip(),
            name_folded=folded(name),
            contact=contact.strip(),
            place=_next_place(event),
        )
        # Approval off: on the waiting list, which lets everyone in, in order, while
        # there is room (this registration at once, when nobody waits before it).
        registration.status = (
            Registration.Status.PENDING if signup.approval else Registration.Status.WAITING
        )
        registration.save()
        if not signup.approval:
            _advance(event, signup, logged=False)
            registration.refresh_from_db()
        event_log(event, "registration_create", user, after=_data(registration))
        bump(event)
    return registration


def registration_withdraw(*, registration: Registration, user: ActingUser = None) -> Registration:
    """The person withdraws (from their status page): their place goes to the first on the
    waiting list."""
    return _leave(registration.event, registration, user, action="registration_withdraw")


def _leave(
    event: Event, registration: Registration, user: ActingUser, *, action: str
) -> Registration:
    with transaction.atomic():
        event = event_locked(event)
        refuse_closed(event)
        registration = _registration_of(event, registration)
        if registration.status in (Registration.Status.WITHDRAWN, Registration.Status.REFUSED):
            raise TournamentError.single(
                N_("{name} is no longer signed up"),
                field="registration",
                name=registration.name,
            )
        before = _data(registration)
        entrant = registration.entrant
        registration.status = Registration.Status.WITHDRAWN
        registration.entrant = None
        registration.save(update_fields=["status", "entrant"])
        if entrant is not None:
            _entrant_leaves(entrant)
        event_log(event, action, user, before=before, after=_data(registration))
        _advance(event, signup_of(event))
        bump(event)
    return registration


def _entrant_leaves(entrant: Entrant) -> None:
    """An entrant who never sat anywhere is taken off the event; one with a table (or a
    bye) in any round is dropped, their results standing."""
    seated = entrant.table_seats.exists() or entrant.byes.exists()
    if seated:
        if not entrant.dropped:
            entrant.dropped = True
            entrant.save(update_fields=["dropped"])
    else:
        entrant.delete()


def _registration_of(event: Event, registration: Registration) -> Registration:
    found = (
        Registration.objects.select_for_update(of=("self",))
        .select_related("entrant")
        .filter(pk=registration.pk, event=event)
        .first()
    )
    if found is None:
        raise TournamentError.single(N_("no such registration in this event"), field="registration")
    return found


# --------------------------------------------------------------------------- the director


def registration_remove(
    *, event: Event, registration: Registration, user: ActingUser = None
) -> Registration:
    """The director takes a registration off (an entrant too): the waiting list moves up."""
    return _leave(event, registration, user, action="registration_remove")


def registration_approve(
    *, event: Event, registration: Registration, user: ActingUser = None
) -> Registration:
    """A pending registration approved: an entrant when there is room, else at the end of
    the waiting list."""
    with transaction.atomic():
        event = event_locked(event)
        refuse_closed(event)
        registration = _registration_of(event, registration)
        if registration.status != Registration.Status.PENDING:
            raise TournamentError.single(
                N_("{name} is not waiting for approval"),
                field="registration",
                name=registration.name,
            )
        before = _data(registration)
        signup = signup_of(event)
        registration.status = Registration.Status.WAITING
        registration.place = _next_place(event)
        registration.save(update_fields=["status", "place"])
        _advance(event, signup)
        registration.refresh_from_db()
        event_log(event, "registration_approve", user, before=before, after=_data(registration))
        bump(event)
    return registration


def registration_refuse(
    *, event: Event, registration: Registration, user: ActingUser = None
) -> Registration:
    """A pending or waiting registration refused (an entrant is removed instead)."""
    with transaction.atomic():
        event = event_locked(event)
        registration = _registration_of(event, registration)
        if registration.status not in ACTIVE:
            raise TournamentError.single(
                N_("only a pending or waiting registration is refused; remove {name} instead"),
                field="registration",
                name=registration.name,
            )
        before = _data(registration)
        registration.status = Registration.Status.REFUSED
        registration.save(update_fields=["status"])
        event_log(event, "registration_refuse", user, before=before, after=_data(registration))
        bump(event)
    return registration


def registration_move(
    *, event: Event, registration: Registration, up: bool, user: ActingUser = None
) -> Registration:
    """Move a registration one place up (or down) in its list (the waiting list, or those
    pending approval)."""
    with transaction.atomic():
        event = event_locked(event)
        registration = _registration_of(event, registration)
        if registration.status not in ACTIVE:
            raise TournamentError.single(
                N_("only the waiting list and those pending approval have an order"),
                field="registration",
            )
        same = Registration.objects.select_for_update().filter(
            event=event, status=registration.status
        )
        if up:
            other = same.filter(place__lt=registration.place).order_by("-place", "-pk").first()
        else:
            other = same.filter(place__gt=registration.place).order_by("place", "pk").first()
        if other is None:
            raise TournamentError.single(
                N_("{name} is already first") if up else N_("{name} is already last"),
                field="registration",
                name=registration.name,
            )
        before = _data(registration)
        registration.place, other.place = other.place, registration.place
        registration.save(update_fields=["place"])
        other.save(update_fields=["place"])
        event_log(event, "registration_move", user, before=before, after=_data(registration))
    return registration


def registration_edit(
    *, event: Event, registration: Registration, name: str, contact: str, user: ActingUser = None
) -> Registration:
    """The director corrects a registration's name or contact (its entrant is renamed too)."""
    with transaction.atomic():
        event = event_locked(event)
        registration = _registration_of(event, registration)
        refuse(registration_problems(name, contact, _taken(event, apart_from=registration)))
        before = _data(registration)
        registration.name = name.strip()
        registration.name_folded = folded(name)
        registration.contact = contact.strip()
        registration.save(update_fields=["name", "name_folded", "contact"])
        if registration.entrant is not None:
            registration.entrant.name = registration.name
            registration.entrant.save(update_fields=["name", "name_folded"])
        event_log(event, "registration_edit", user, before=before, after=_data(registration))
        bump(event)
    return registration


def waiting_list_advance(*, event: Event, user: ActingUser = None) -> list[Registration]:
    """Let the waiting list in while there is room: for a change made elsewhere that frees
    a place (a drop from the desk or from a player's own page); who moved up."""
    with transaction.atomic():
        event = event_locked(event)
        moved = _advance(event, signup_of(event))
        if moved:
            bump(event)
    return moved
