"""Web import of an exported event: the same service as the ``importtournament`` command."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from common.jsondoc import DocumentError, read_json
from scoring.wording import problem_text, said
from tournaments.events.document import EVENT_NAME_LONGEST, IMPORT_LARGEST
from tournaments.events.services import TournamentError, event_import
from tournaments.web.desk.access import director_of, director_required

PAGE = "tournaments/event_import.html"


@never_cache
@director_required
@require_http_methods(["GET", "POST"])
def event_import_page(request: HttpRequest) -> HttpResponse:
    """Upload a ``tablescore-event`` JSON document: it becomes a new event of this user."""
    if request.method == "GET":
        return render(request, PAGE, {"problems": [], "name": ""})
    upload = request.FILES.get("file")
    problems: list[str] = []
    if upload is None:
        problems.append(gettext("File: choose the event's JSON file (the desk's “Event (JSON)”)."))
    elif upload.size is None or upload.size > IMPORT_LARGEST:
        problems.append(
            gettext("File: larger than {size} MB.").format(size=IMPORT_LARGEST // (1024 * 1024))
        )
    else:
        try:
            data = read_json(upload.read(IMPORT_LARGEST + 1), largest=IMPORT_LARGEST)
        except DocumentError as error:
            problems.append(
                gettext("File: not a JSON document that can be read: it {reason}.").format(
                    reason=said(error.phrase)
                )
            )
        else:
            try:
                event = event_import(
                    data=data,
                    owner=director_of(request),
                    name=request.POST.get("name", "")[: EVENT_NAME_LONGEST + 1],
                )
            except TournamentError as error:
                problems += [
                    capfirst(
                        "{where}: {problem}".format(
                            where=p.field or gettext("file"), problem=problem_text(p)
                        )
                    )
                    for p in error.problems
                ]
            else:
                return redirect("tournaments:desk_event", pk=event.pk)
    context = {"problems": problems, "name": request.POST.get("name", "")[:EVENT_NAME_LONGEST]}
    return render(request, PAGE, context, status=200)
