"""The desk's announcements: short lines on the players' pages and the projector."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from common.phrases import N_
from scoring.engines.base import text_problem
from tournaments.errors import TournamentError
from tournaments.models import Announcement, Event
from tournaments.models.signup import ANNOUNCEMENT_LONGEST
from tournaments.services.change import ActingUser, bump, event_locked, event_log


def announcement_add(*, event: Event, text: str, user: ActingUser = None) -> Announcement:
    """A new announcement, shown first at the pages' next poll."""
    text = text.strip()
    if not text:
        raise TournamentError.single(N_("write the announcement"), field="text")
    if problem := text_problem(text, ANNOUNCEMENT_LONGEST):
        raise TournamentError.single(
            N_("the announcement {problem}"), field="text", problem=problem
        )
    with transaction.atomic():
        event = event_locked(event)
        announcement = Announcement.objects.create(
            event=event,
            text=text,
            author=user if isinstance(user, User) and user.is_authenticated else None,
        )
        event_log(event, "announcement_add", user, after={"id": announcement.pk, "text": text})
        bump(event)
    return announcement


def announcement_remove(*, event: Event, announcement_id: int, user: ActingUser = None) -> None:
    """Take an announcement off every page."""
    with transaction.atomic():
        event = event_locked(event)
        found = Announcement.objects.filter(event=event, pk=announcement_id).first()
        if found is None:
            raise TournamentError.single(N_("no such announcement"), field="announcement")
        event_log(event, "announcement_remove", user, before={"id": found.pk, "text": found.text})
        found.delete()
        bump(event)
