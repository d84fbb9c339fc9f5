"""The document: many sheets (scoresheets, cards, lists, diagrams) drawn into one PDF, and
the fit check that draws a sheet and reads back what fell outside its box."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from reportlab.pdfgen.canvas import Canvas

from printing.render.diagram import Diagram, draw_diagram
from printing.render.draw import draw_page, draw_sheet
from printing.render.fonts import REGULAR, register_fonts
from printing.render.layout import (
    Box,
    Plan,
    plan,
)
from printing.render.paper import PAPER_SIZES, normalise_paper
from printing.render.pen import (
    DrawRecord,
    Pen,
)
from printing.render.sheet import Sheet


class OwnPlan(Protocol):
    """The layout plan of pages that lay themselves out: it draws them and is checked."""

    page_width: float
    page_height: float
    frame: Box
    problems: list[str]

    @property
    def page_count(self) -> int: ...

    def draw_page(self, pen: Pen, index: int) -> None: ...


class SelfLaidOut(Protocol):
    """Pages other than a scoresheet (a card, a list: ``cards``, ``lists``) that plan themselves."""

    @property
    def title(self) -> str: ...

    def layout(self, paper: str) -> OwnPlan: ...


# Anything the document draws: a scoresheet, a page that plans itself, a diagram.
Printable = Sheet | SelfLaidOut | Diagram


def _draw_own(canvas: Canvas, laid_out: OwnPlan, record: DrawRecord | None = None) -> None:
    pen = Pen(canvas, record)
    for index in range(laid_out.page_count):
        canvas.setPageSize((laid_out.page_width, laid_out.page_height))
        pen.new_page()
        laid_out.draw_page(pen, index)
        pen.end_page()
        canvas.showPage()


def render(
    sheets: Iterable[Printable],
    paper: str = "A4",
    *,
    title: str = "Scoresheets",
    total: int | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> bytes:
    """One PDF holding every sheet in order; copies of one sheet are drawn only once.

    ``sheets`` may be a generator (built while the document is drawn); consecutive
    copies of the same ``Sheet`` object are placed as one shared drawing.
    ``on_progress(done, total)`` is called after each sheet.
    """
    register_fonts()
    paper = normalise_paper(paper)
    if total is None:
        total = len(sheets) if isinstance(sheets, Sequence) else 0
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=PAPER_SIZES[paper], invariant=1, pageCompression=1)
    canvas.setTitle(title)
    canvas.setAuthor("Tablescore")
    canvas.setCreator("Tablescore")
    forms: dict[int, tuple[Plan, list[str]]] = {}
    iterator = iter(sheets)
    previous: Printable | None = None
    upcoming = next(iterator, None)
    done = 0
    while upcoming is not None:
        sheet = upcoming
        upcoming = next(iterator, None)
        if isinstance(sheet, Diagram):  # a drawing of its own: a bracket for the wall
            draw_diagram(canvas, sheet, paper)
        elif not isinstance(sheet, Sheet):
            _draw_own(canvas, sheet.layout(paper))
        elif sheet is previous or sheet is upcoming:
            _draw_as_form(canvas, sheet, paper, forms)
        else:
            draw_sheet(canvas, plan(sheet, paper))
        previous = sheet
        done += 1
        if on_progress is not None:
            on_progress(done, max(total, done))
    canvas.save()
    return buffer.getvalue()


def _draw_as_form(
    canvas: Canvas, sheet: Sheet, paper: str, forms: dict[int, tuple[Plan, list[str]]]
) -> None:
    """Copies of one sheet: each page is drawn once as a form and placed on every copy."""
    key = id(sheet)
    if key not in forms:
        laid_out = plan(sheet, paper)
        names = []
        for page in laid_out.pages:
            name = f"sheet{len(forms)}p{page.number}"
            canvas.beginForm(name, 0, 0, laid_out.page_width, laid_out.page_height)
            pen = Pen(canvas, None)
            draw_page(pen, laid_out, page, len(laid_out.pages))
            pen.end_page()
            canvas.endForm()
            names.append(name)
        forms[key] = (laid_out, names)
    laid_out, names = forms[key]
    for name in names:
        canvas.setPageSize((laid_out.page_width, laid_out.page_height))
        canvas.doForm(name)
        canvas.showPage()


def render_one(sheet: Sheet | SelfLaidOut, paper: str = "A4") -> bytes:
    return render([sheet], paper, title=sheet.title)


def plain_pages(count: int, paper: str = "A4") -> bytes:
    """Bare reportlab: ``count`` pages of one line each, the benchmark's yardstick."""
    register_fonts()
    buffer = io.BytesIO()
    canvas = Canvas(
        buffer, pagesize=PAPER_SIZES[normalise_paper(paper)], invariant=1, pageCompression=1
    )
    for number in range(1, count + 1):
        canvas.setFont(REGULAR, 12)
        canvas.drawString(72, 720, f"Page {number}")
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def fit_problems(sheet: Sheet | SelfLaidOut, paper: str = "A4") -> list[str]:
    """Everything that would not fit the printable area on this paper; [] when all fits."""
    recorder = DrawRecord()
    frame: Box
    if isinstance(sheet, Sheet):
        laid_out = plan(sheet, paper)
        problems = list(laid_out.problems)
        draw_sheet(Canvas(io.BytesIO()), laid_out, recorder)
        frame = laid_out.frame
    else:
        own = sheet.layout(normalise_paper(paper))
        problems = list(own.problems)
        _draw_own(Canvas(io.BytesIO()), own, recorder)
        frame = own.frame
    for item in recorder.items:
        if not (
            item.box.x >= frame.x - 0.01
            and item.box.right <= frame.right + 0.01
            and item.box.y >= frame.y - 0.01
            and item.box.top <= frame.top + 0.01
        ):
            problems.append(f"{sheet.title}: {item.text!r} is drawn outside the printable area")
        if item.limit is not None and item.box.width > item.limit.width + 0.01:
            problems.append(f"{sheet.title}: {item.text!r} is wider than its box")
    return problems
