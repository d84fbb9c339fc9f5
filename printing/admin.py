"""Print jobs on the director's desk (read-only), and printing the games picked there."""

from __future__ import annotations

from django.contrib import admin
from django.shortcuts import redirect

from printing.models import PrintJob
from printing.services import printjob_create
from printing.sources import MAX_GAMES, games_request
from scoring.admin import GameAdmin, ReadOnlyAdmin


@admin.register(PrintJob)
class PrintJobAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "about", "status", "progress_done", "progress_total", "size")
    list_filter = ("status", "paper_size")
    # A job's token opens its PDF (every sheet of its games): never shown here.
    exclude = ("pdf", "token")


@admin.action(description="Print the scoresheets of the selected games (PDF)")
def print_scoresheets(modeladmin, request, queryset):
    ids = list(queryset.order_by("pk").values_list("pk", flat=True)[:MAX_GAMES])
    job = printjob_create(what=games_request(ids))
    return redirect("printing:print_job", token=job.token)


# The games' page offers printing; the scoring app itself knows nothing of it.
# django-stubs declares ``actions`` as an instance variable of a generic class; Django
# reads it from the class, where it is set here.
GameAdmin.actions = [*(GameAdmin.actions or []), print_scoresheets]  # type: ignore[misc]
