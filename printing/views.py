"""Printing pages: a game's scoresheet as PDF, stacks of blank sheets, print job progress.

Thin views: they read a form or a token, make one service call and answer with a
page, a partial (htmx) or the PDF.
"""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from common import throttles
from common.htmx import HtmxHttpRequest
from printing.errors import PrintRequestError
from printing.forms import BlankSheetsForm
from printing.models import PrintJob
from printing.paper import default_paper, paper_from
from printing.registry import SOURCES
from printing.scoresheets import blank_kinds
from printing.services import printjob_create, printjob_retry, printjob_watch
from printing.sources import MAX_GAMES, game_filename, game_pdf, games_request
from scoring.converters import is_table_token
from scoring.models import Game

JOB_PAGE = "printing/job.html"
JOB_PARTIAL = "printing/job.html#job"


def safe_filename(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-") or "scoresheets.pdf"


def _pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{safe_filename(filename)}"'
    response["Cache-Control"] = "private, no-store"
    return response


def _job_answer(request: HtmxHttpRequest, job: PrintJob) -> HttpResponse:
    """The job's partial for htmx, else a redirect to its page."""
    if request.htmx:
        return render(request, JOB_PARTIAL, _job_context(job))
    return redirect("printing:print_job", token=job.token)


@require_GET
def scoresheet_pdf(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The filled scoresheet of the game at this table (``?paper=letter`` for US Letter)."""
    game = get_object_or_404(Game, table_token=token)
    paper = paper_from(request.GET.get("paper"))
    return _pdf_response(game_pdf(game, paper), game_filename(game))


def first_sheet() -> str:
    """The sheet the form starts on: the first game's, for a table of four if it can be."""
    kinds = blank_kinds()
    first = [kind for kind in kinds if kind.game == kinds[0].game and not kind.options]
    return next((kind.key for kind in first if kind.players == 4), first[0].key)


@require_http_methods(["GET", "POST"])
def blank_sheets(request: HtmxHttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = BlankSheetsForm(request.POST)
        if form.is_valid():
            if (refusal := throttles.refused(request, "print_jobs")) is not None:
                return refusal
            job = printjob_create(what=form.cleaned_data["what"], paper=form.cleaned_data["paper"])
            return _job_answer(request, job)
        # htmx swaps only 2xx answers: the form comes back with its errors
    else:
        form = BlankSheetsForm(initial={"paper": default_paper(), "sheet": first_sheet()})
    template = "printing/blank.html#form" if request.htmx else "printing/blank.html"
    return render(request, template, {"form": form})


@require_POST
def print_games(request: HtmxHttpRequest) -> HttpResponse:
    """Print the sheets of several games at once; the games are named by their table tokens."""
    tokens = list(dict.fromkeys(request.POST.getlist("token")))[: MAX_GAMES + 1]
    lookups = [token for token in tokens if is_table_token(token)]
    found = dict(Game.objects.filter(table_token__in=lookups).values_list("table_token", "pk"))
    ids = [found[token] for token in tokens if token in found]  # in the order asked
    paper = paper_from(request.POST.get("paper"))
    try:
        if len(ids) != len(tokens):
            # Each token that opens no game counts as a wrong table link, as on /t/.
            wrong = len(tokens) - len(ids)
            if (refusal := throttles.refused(request, "wrong_tokens", wrong)) is not None:
                return refusal
            raise PrintRequestError(gettext("some of these games do not exist"))
        if (refusal := throttles.refused(request, "print_jobs")) is not None:
            return refusal
        job = printjob_create(what=games_request(ids), paper=paper)
    except PrintRequestError as error:
        return render(request, JOB_PAGE, {"job": None, "problem": str(error)}, status=400)
    return redirect("printing:print_job", token=job.token)


def _job(token: str) -> PrintJob:
    return get_object_or_404(PrintJob.objects.defer("pdf"), token=token)


@never_cache
@require_GET
def print_job(request: HtmxHttpRequest, token: str) -> HttpResponse:
    template = JOB_PARTIAL if request.htmx else JOB_PAGE
    return render(request, template, _job_context(printjob_watch(job=_job(token))))


@never_cache
@require_GET
def print_job_status(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The job's progress as a partial: htmx polls it until the job is done or failed.

    Each look sends a job again that is waiting for the print service or whose worker
    stopped (at most every few seconds), so a watched job moves on by itself.
    """
    return render(request, JOB_PARTIAL, _job_context(printjob_watch(job=_job(token))))


def _job_context(job: PrintJob) -> dict[str, Any]:
    """The job, and where its page leads afterwards (the source that drew it says)."""
    try:
        back_label, back_url = SOURCES.get(job.what.get("kind")).back(job.what)
    except PrintRequestError:  # a kind no longer installed
        back_label, back_url = gettext("Print another stack"), reverse("printing:blank_sheets")
    return {"job": job, "back_label": back_label, "back_url": back_url}


@require_POST
def print_job_retry(request: HtmxHttpRequest, token: str) -> HttpResponse:
    return _job_answer(request, printjob_retry(job_id=_job(token).pk))


@require_GET
def print_job_file(request: HtmxHttpRequest, token: str) -> HttpResponse:
    job = get_object_or_404(PrintJob, token=token, status=PrintJob.Status.DONE)
    return _pdf_response(bytes(job.pdf or b""), job.filename or "scoresheets.pdf")
