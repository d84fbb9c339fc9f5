"""An event's date, start time and venue (and the sign-up's closing time) as posted by
the desk's forms: read into the services' arguments, with what is wrong by field."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext

from tournaments.events.signup_selectors import VENUE_LONGEST


def read_date(text: str) -> tuple[dt.date | None, str]:
    """A posted date (``YYYY-MM-DD``, as a date field sends it), and what is wrong."""
    text = text.strip()
    if not text:
        return None, ""
    try:
        return dt.date.fromisoformat(text), ""
    except ValueError:
        return None, gettext("Enter the date as YYYY-MM-DD.")


def read_time(text: str) -> tuple[dt.time | None, str]:
    """A posted time of day (``HH:MM``), and what is wrong."""
    text = text.strip()
    if not text:
        return None, ""
    try:
        return dt.datetime.strptime(text[:5], "%H:%M").time(), ""
    except ValueError:
        return None, gettext("Enter the time as HH:MM (24 hours).")


def read_moment(text: str) -> tuple[dt.datetime | None, str]:
    """A posted date and time (``YYYY-MM-DDTHH:MM``, a datetime-local field), in the
    site's time zone, and what is wrong."""
    text = text.strip()
    if not text:
        return None, ""
    try:
        moment = dt.datetime.fromisoformat(text)
    except ValueError:
        return None, gettext("Enter the closing time as YYYY-MM-DD HH:MM.")
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment)
    return moment, ""


def read_schedule(data: Any) -> tuple[dict[str, Any], dict[str, str]]:
    """``event_create``'s and ``event_schedule_set``'s date, start_time and venue from a
    posted form, and the problems by field."""
    date, date_problem = read_date(str(data.get("date", "")))
    start_time, time_problem = read_time(str(data.get("start_time", "")))
    errors = {name: p for name, p in (("date", date_problem), ("start_time", time_problem)) if p}
    venue = str(data.get("venue", ""))[: VENUE_LONGEST * 2]
    return {"date": date, "start_time": start_time, "venue": venue}, errors
