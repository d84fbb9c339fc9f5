"""Printing pages: a game's scoresheet as PDF, stacks of blank sheets, print job progress.

Thin views: they read a form or a token, make one call into ``scoring.printing``
and answer with a page, a partial (htmx) or the PDF.
"""

from __future__ import annotations

from django import forms
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring import printing
from scoring.converters import is_table_token
from scoring.engines.registry import ENGINES
from scoring.models import Game, PrintJob
from scoring.scoresheets import PAPER_NAMES

PAPER_CHOICES = [(key, name) for key, name in PAPER_NAMES.items()]


def sheet_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """Game and player count in one list, grouped by game: "Roolz, 4 players"."""
    kinds = printing.blank_kinds()
    return [
        (engine.title, [(kind.key, kind.label) for kind in kinds if kind.game == key])
        for key, engine in ENGINES.items()
    ]


class BlankSheetsForm(forms.Form):
    sheet = forms.ChoiceField(label="Game and players", choices=sheet_choices)
    copies = forms.IntegerField(
        label="Copies",
        min_value=1,
        max_value=printing.MAX_COPIES,
        initial=10,
        help_text=f"1 to {printing.MAX_COPIES} sheets, one game per sheet.",
    )
    paper = forms.ChoiceField(label="Paper", choices=PAPER_CHOICES, widget=forms.RadioSelect)

    def clean(self):
        data = super().clean()
        kind = {kind.key: kind for kind in printing.blank_kinds()}.get(data.get("sheet", ""))
        if kind is not None and data.get("copies"):
            try:
                data["what"] = printing.blank_request(
                    game=kind.game,
                    players=kind.players,
                    copies=data["copies"],
                    options=kind.options,
                )
            except printing.PrintRequestError as error:
                raise forms.ValidationError(str(error)) from None
        return data


def _pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{printing.safe_filename(filename)}"'
    response["Cache-Control"] = "private, no-store"
    return response


@require_GET
def scoresheet_pdf(request, token: str):
    """The filled scoresheet of the game at this table (``?paper=letter`` for US Letter)."""
    game = get_object_or_404(Game, table_token=token)
    paper = printing.paper_from(request.GET.get("paper"))
    return _pdf_response(printing.game_pdf(game, paper), printing.game_filename(game))


@require_http_methods(["GET", "POST"])
def blank_sheets(request):
    if request.method == "POST":
        form = BlankSheetsForm(request.POST)
        if form.is_valid():
            job = printing.print_job_request(
                what=form.cleaned_data["what"], paper=form.cleaned_data["paper"]
            )
            if request.htmx:
                return render(request, "scoring/print_job.html#job", {"job": job})
            return redirect("scoring:print_job", token=job.token)
        status = 200  # htmx swaps only 2xx answers: the form comes back with its errors
    else:
        form = BlankSheetsForm(initial={"paper": printing.default_paper(), "sheet": "roolz:4"})
        status = 200
    template = "scoring/print_blank.html#form" if request.htmx else "scoring/print_blank.html"
    return render(request, template, {"form": form}, status=status)


@require_POST
def print_games(request):
    """Print the sheets of several games at once; the games are named by their table tokens."""
    tokens = list(dict.fromkeys(request.POST.getlist("token")))[: printing.MAX_GAMES + 1]
    lookups = [token for token in tokens if is_table_token(token)]
    found = dict(Game.objects.filter(table_token__in=lookups).values_list("table_token", "pk"))
    ids = [found[token] for token in tokens if token in found]  # in the order asked
    paper = printing.paper_from(request.POST.get("paper"))
    try:
        if len(ids) != len(tokens):
            raise printing.PrintRequestError("some of these games do not exist")
        job = printing.print_job_request(what=printing.games_request(ids), paper=paper)
    except printing.PrintRequestError as error:
        return render(
            request, "scoring/print_job.html", {"job": None, "problem": str(error)}, status=400
        )
    return redirect("scoring:print_job", token=job.token)


def _job(token: str) -> PrintJob:
    return get_object_or_404(PrintJob.objects.defer("pdf"), token=token)


@never_cache
@require_GET
def print_job(request, token: str):
    job = _job(token)
    template = "scoring/print_job.html#job" if request.htmx else "scoring/print_job.html"
    return render(request, template, {"job": job})


@never_cache
@require_GET
def print_job_status(request, token: str):
    """The job's progress as a partial: htmx polls it until the job is done or failed."""
    return render(request, "scoring/print_job.html#job", {"job": _job(token)})


@require_POST
def print_job_retry(request, token: str):
    job = printing.print_job_retry(job_id=_job(token).pk)
    if request.htmx:
        return render(request, "scoring/print_job.html#job", {"job": job})
    return redirect("scoring:print_job", token=job.token)


@require_GET
def print_job_file(request, token: str):
    job = get_object_or_404(PrintJob, token=token, status=PrintJob.Status.DONE)
    return _pdf_response(bytes(job.pdf or b""), job.filename or "scoresheets.pdf")
