"""Web import of an exported event: the same service as the ``importtournament`` command."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from tournaments.events.directors import director_required
from tournaments.events.services import TournamentError, event_import

PAGE = "tournaments/event_import.html"
# An exported event of a large night is a few MB; anything larger is not one.
IMPORT_LARGEST = 16 * 1024 * 1024


@never_cache
@director_required
@require_http_methods(["GET", "POST"])
def event_import_page(request: HttpRequest) -> HttpResponse:
    """Upload a ``tablescore-event`` JSON document: it becomes a new event of this user."""
    if request.method == "GET":
        return render(request, PAGE, {"problems": []})
    upload = request.FILES.get("file")
    problems: list[str] = []
    if upload is None:
        problems.append("File: choose the event's JSON file (the desk's “Event (JSON)”).")
    elif upload.size is None or upload.size > IMPORT_LARGEST:
        problems.append(f"File: larger than {IMPORT_LARGEST // (1024 * 1024)} MB.")
    else:
        try:
            data = json.loads(upload.read().decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError) as error:
            problems.append(f"File: not a JSON document ({error}).")
        else:
            try:
                event = event_import(data=data, owner=request.user)
            except TournamentError as error:
                problems += [f"{p.field or 'file'}: {p}".capitalize() for p in error.problems]
            else:
                return redirect("tournaments:desk_event", pk=event.pk)
    return render(request, PAGE, {"problems": problems}, status=200)
