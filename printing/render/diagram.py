"""A drawing of boxes, lines and text, laid out by its source and scaled to the page.

For sheets that are pictures rather than tables (a bracket for the wall): the source
places everything in its own units, one ``DiagramPage`` at a time; each page is scaled
as a whole (never stretched) to fit the printable area under a title band, landscape
or portrait as the diagram asks. ``diagram_scale`` tells a source (and a test) how big
its text will print before anything is drawn.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from printing.render.fonts import BOLD, REGULAR, register_fonts, text_width
from printing.render.paper import MARGIN, PAPER_NAMES, PAPER_SIZES, normalise_paper
from printing.render.words import N_, said

INK = HexColor("#1d2521")
MUTED = HexColor("#5b6660")
RULE = HexColor("#5b6660")
SHADE = HexColor("#e3efe8")
MARK = HexColor("#fdf0cf")

TITLE_SIZE = 16.0
SUBTITLE_SIZE = 9.0
TITLE_BAND = 40.0  # the title and subtitle above the drawing, in points
FOOTER_BAND = 12.0
MOST_SCALE = 1.6  # a small drawing grows to fill the page, up to this much
NARROWEST = 0.72  # text is squeezed down to this width before it is cut short


@dataclass(frozen=True)
class DiagramText:
    x: float  # left edge ("left"), middle ("center") or right edge ("right"), in units
    y: float  # baseline, units from the top of the drawing (down is positive)
    text: str
    size: float  # in units: prints at size x the page's scale
    bold: bool = False
    muted: bool = False
    align: str = "left"
    width: float = 0.0  # the room it has, in units: squeezed, then cut short; 0: no limit


@dataclass(frozen=True)
class DiagramBox:
    x: float
    y: float  # top edge, units from the top
    width: float
    height: float
    shaded: bool = False
    marked: bool = False  # a warmer ground: something to notice (the director decided it)
    heavy: bool = False


@dataclass(frozen=True)
class DiagramLine:
    points: tuple[tuple[float, float], ...]  # (x, y) units, y down from the top


@dataclass(frozen=True)
class DiagramPage:
    width: float  # the drawing's extent in units
    height: float
    boxes: tuple[DiagramBox, ...] = ()
    lines: tuple[DiagramLine, ...] = ()
    texts: tuple[DiagramText, ...] = ()
    caption: str = ""  # a line under the title for this page ("Top half")


@dataclass(frozen=True)
class Diagram:
    title: str
    subtitle: str
    pages: tuple[DiagramPage, ...]
    landscape: bool = True
    footer: str = "Tablescore"


def page_size(diagram: Diagram, paper: str) -> tuple[float, float]:
    width, height = PAPER_SIZES[normalise_paper(paper)]
    if diagram.landscape:
        return max(width, height), min(width, height)
    return min(width, height), max(width, height)


def diagram_scale(diagram: Diagram, page: DiagramPage, paper: str) -> float:
    """Points per unit for this page: the whole drawing fits the printable area."""
    width, height = page_size(diagram, paper)
    room_w = width - 2 * MARGIN
    room_h = height - 2 * MARGIN - TITLE_BAND - FOOTER_BAND
    return min(room_w / max(page.width, 1.0), room_h / max(page.height, 1.0), MOST_SCALE)


def _fit(text: str, font: str, size: float, room: float) -> tuple[str, float]:
    """The text and its horizontal scale so that it fits ``room`` points (0: any width)."""
    width = text_width(text, font, size)
    if room <= 0 or width <= room:
        return text, 1.0
    if width * NARROWEST <= room:
        return text, room / width
    cut = text
    while cut and text_width(cut + "…", font, size) * NARROWEST > room:
        cut = cut[:-1]
    return cut.rstrip() + "…", NARROWEST


def _text(
    canvas: Canvas,
    x: float,
    y: float,
    text: str,
    font: str,
    size: float,
    squeeze: float,
    color: Any,
) -> None:
    words = canvas.beginText(x, y)
    words.setFont(font, size)
    words.setFillColor(color)
    words.setHorizScale(squeeze * 100)
    words.textOut(text)
    canvas.drawText(words)


def _draw_page(
    canvas: Canvas, diagram: Diagram, page: DiagramPage, number: int, count: int, paper: str
) -> None:
    width, height = page_size(diagram, paper)
    canvas.setPageSize((width, height))
    scale = diagram_scale(diagram, page, paper)
    left = MARGIN + (width - 2 * MARGIN - page.width * scale) / 2
    top = height - MARGIN - TITLE_BAND

    def px(x: float) -> float:
        return left + x * scale

    def py(y: float) -> float:
        return top - y * scale

    title, squeeze = _fit(diagram.title, BOLD, TITLE_SIZE, width - 2 * MARGIN)
    _text(canvas, MARGIN, height - MARGIN - TITLE_SIZE, title, BOLD, TITLE_SIZE, squeeze, INK)
    subtitle = " · ".join(part for part in (diagram.subtitle, page.caption) if part)
    line, squeeze = _fit(subtitle, REGULAR, SUBTITLE_SIZE, width - 2 * MARGIN)
    baseline = height - MARGIN - TITLE_SIZE - SUBTITLE_SIZE - 6
    _text(canvas, MARGIN, baseline, line, REGULAR, SUBTITLE_SIZE, squeeze, MUTED)

    canvas.setStrokeColor(RULE)
    for box in page.boxes:
        canvas.setLineWidth(1.4 if box.heavy else 0.7)
        fill = MARK if box.marked else SHADE if box.shaded else None
        if fill is not None:
            canvas.setFillColor(fill)
        canvas.rect(
            px(box.x),
            py(box.y + box.height),
            box.width * scale,
            box.height * scale,
            stroke=1,
            fill=1 if fill is not None else 0,
        )
    canvas.setLineWidth(0.8)
    for drawn in page.lines:
        path = canvas.beginPath()
        first, *rest = drawn.points
        path.moveTo(px(first[0]), py(first[1]))
        for x, y in rest:
            path.lineTo(px(x), py(y))
        canvas.drawPath(path, stroke=1, fill=0)
    for item in page.texts:
        font = BOLD if item.bold else REGULAR
        size = item.size * scale
        text, squeeze = _fit(item.text, font, size, item.width * scale)
        shown = text_width(text, font, size) * squeeze
        x = px(item.x)
        if item.align == "center":
            x -= shown / 2
        elif item.align == "right":
            x -= shown
        _text(canvas, x, py(item.y), text, font, size, squeeze, MUTED if item.muted else INK)

    canvas.setFillColor(MUTED)
    canvas.setFont(REGULAR, 6.5)
    canvas.drawString(MARGIN, MARGIN, diagram.footer)
    where = (
        said(PAPER_NAMES[normalise_paper(paper)])
        + " · "
        + said(N_("page {number} of {count}")).format(number=number, count=count)
    )
    canvas.drawRightString(width - MARGIN, MARGIN, where)


def draw_diagram(canvas: Canvas, diagram: Diagram, paper: str) -> None:
    """Every page of ``diagram`` on ``canvas``, each ended with ``showPage``."""
    register_fonts()
    for number, page in enumerate(diagram.pages, start=1):
        _draw_page(canvas, diagram, page, number, len(diagram.pages), paper)
        canvas.showPage()


def render_diagrams(diagrams: Iterable[Diagram], paper: str = "A4", *, title: str = "") -> bytes:
    """One PDF of every page of every diagram, in order."""
    register_fonts()
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, pageCompression=1)
    canvas.setTitle(title or "Tablescore")
    canvas.setAuthor("Tablescore")
    canvas.setCreator("Tablescore")
    for diagram in diagrams:
        draw_diagram(canvas, diagram, paper)
    canvas.save()
    return buffer.getvalue()
