"""The event log on the desk: filterable by kind, table and player, requests on top."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from common.htmx import HtmxHttpRequest
from scoring.entry.fields import parse_int
from tournaments.events import eventlog, selectors
from tournaments.events.directors import Action
from tournaments.web.desk.access import director_required
from tournaments.web.desk.views import own_event

PAGE = "tournaments/desk_log.html"


def _choice(value: str, allowed: dict[int, str], field: str, errors: dict[str, str]) -> int | None:
    if not value:
        return None
    number = parse_int(value)
    if number is None or number not in allowed:
        errors[field] = (
            gettext("There is no such table in this event: showing every table.")
            if field == "table"
            else gettext("There is no such player in this event: showing every player.")
        )
        return None
    return number


@never_cache
@director_required
@require_GET
def desk_log(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    event = own_event(request, pk, Action.VIEW)
    errors: dict[str, str] = {}
    kinds = eventlog.kinds(event)
    kind = request.GET.get("kind", "")
    if kind and kind not in dict(kinds):
        errors["kind"] = gettext("There is no such kind of change in this log: showing every kind.")
        kind = ""
    tables = {
        pk: gettext("Round {round}, table {table}").format(round=r, table=n)
        for pk, r, n in sorted(eventlog.event_tables(event).values(), key=lambda t: t[1:])
    }
    players = selectors.player_names(event=event)
    table = _choice(request.GET.get("table", ""), tables, "table", errors)
    player = _choice(request.GET.get("player", ""), players, "player", errors)
    page = parse_int(request.GET.get("page", "1")) or 1
    shown = eventlog.log_page(event, kind=kind, table=table, entrant=player, page=page)
    context: dict[str, Any] = {
        "event": event,
        "log": shown,
        "lines": [
            {
                "line": line,
                "before": json.dumps(line.before, ensure_ascii=False, indent=1)
                if line.before is not None
                else "",
                "after": json.dumps(line.after, ensure_ascii=False, indent=1)
                if line.after is not None
                else "",
            }
            for line in shown.lines
        ],
        "waiting": eventlog.waiting_requests(event),
        "kinds": kinds,
        "tables": tables.items(),
        "players": players.items(),
        "chosen": {"kind": kind, "table": table, "player": player},
        "errors": errors,
    }
    if request.htmx:
        return render(request, f"{PAGE}#log", context)
    return render(request, PAGE, context)
