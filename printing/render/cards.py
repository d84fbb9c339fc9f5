"""A card: one page that stands on a table, read from a chair and scanned by a phone.

A big heading ("Table 7"), a list of lines (a seat, a name, a note), a few facts
in large type, notes in small type, and a link drawn as a QR code with the link
written under it. Nothing here knows a game or an event: the source fills the words.
The plan (``Card.layout``) both draws the page and states what does not fit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from printing.render.fonts import BOLD, REGULAR, register_fonts, text_width
from printing.render.layout import MIN_NAME_SIZE, Box, fit_text, wrap
from printing.render.paper import MARGIN, PAPER_SIZES, normalise_paper
from printing.render.pen import GREEN, HAIRLINE, HEAD_FILL, MUTED, Pen
from printing.render.qr import QR_QUIET, draw_code, qr_modules

TITLE = 14.0
KICKER = 11.0
HEADING = 64.0
FACT = 14.0
NOTE = 8.5
NOTE_LEADING = 11.0
LINK = 9.5
FOOTER = 6.5
LINE_MAX = 60.0  # the height of one line (a seat) when there is room
NAME_MAX = 30.0
NAME_MIN = 11.0  # a name set smaller than this cannot be read from a chair: a problem
QR_SIZE = 170.0  # the code, its quiet zone included
GAP = 12.0


@dataclass(frozen=True)
class CardLine:
    """One line of the card's list: a short label ("1"), a name, a note on the right."""

    label: str
    name: str
    note: str = ""
    marked: bool = False  # shaded (the seat that deals first, say)


@dataclass(frozen=True)
class Card:
    """Everything one card prints, already in words."""

    title: str  # top left, bold ("Friday club night")
    heading: str  # large, centred ("Table 7")
    kicker: str = ""  # top right ("Tournament round 2 of 3")
    lines: tuple[CardLine, ...] = ()
    facts: tuple[str, ...] = ()  # larger lines under the list ("Ben deals first")
    notes_title: str = ""
    notes: tuple[str, ...] = ()  # small lines beside the code ("Target: 500")
    link: str = ""  # drawn as a QR code, and written out under the notes
    link_caption: str = ""
    footer: str = "Tablescore"

    def layout(self, paper: str) -> CardPlan:
        return plan_card(self, paper)


@dataclass
class CardPlan:
    card: Card
    paper: str
    page_width: float
    page_height: float
    frame: Box
    line_height: float
    name_size: float
    label_width: float
    note_width: float
    notes: list[str]
    bottom_height: float
    problems: list[str] = field(default_factory=list)

    @property
    def page_count(self) -> int:
        return 1

    @cached_property
    def qr_modules(self) -> tuple[tuple[bool, ...], ...]:
        if not self.card.link:
            return ()
        return qr_modules(self.card.link)

    @property
    def qr_box(self) -> Box:
        frame = self.frame
        return Box(frame.right - QR_SIZE, frame.y + 14.0, QR_SIZE, QR_SIZE)

    def draw_page(self, pen: Pen, index: int) -> None:
        _draw_card(pen, self)


def _header_height(card: Card) -> float:
    return TITLE + 10.0


def _heading_height() -> float:
    return HEADING + 14.0


def plan_card(card: Card, paper: str = "A4") -> CardPlan:
    register_fonts()
    paper = normalise_paper(paper)
    width, height = PAPER_SIZES[paper]
    frame = Box(MARGIN, MARGIN, width - 2 * MARGIN, height - 2 * MARGIN)
    problems: list[str] = []

    # The bottom band: notes and the link on the left, the code on the right.
    left_width = frame.width - (QR_SIZE + GAP if card.link else 0.0)
    notes: list[str] = []
    for note in card.notes:
        notes += wrap(note, REGULAR, NOTE, left_width)
    notes_height = (NOTE_LEADING + 2.0 if card.notes_title else 0.0) + len(notes) * NOTE_LEADING
    link_height = (2 * NOTE_LEADING + 4.0) if card.link else 0.0
    bottom = max(notes_height + link_height, QR_SIZE if card.link else 0.0) + 14.0  # + footer

    facts_height = len(card.facts) * (FACT + 8.0)
    space = frame.height - _header_height(card) - _heading_height() - facts_height - bottom - GAP
    count = max(1, len(card.lines))
    line_height = min(LINE_MAX, space / count)
    name_size = min(NAME_MAX, line_height * 0.56)
    if card.lines and name_size < NAME_MIN:
        problems.append(
            f"{card.heading}: {len(card.lines)} lines leave {line_height:.0f} pt each, "
            "too little to read the names"
        )
    if space < 0:
        problems.append(f"{card.heading}: the notes and facts do not leave room on the page")

    label_width = max([text_width(line.label, BOLD, name_size) for line in card.lines] + [0.0]) + (
        name_size * 0.8 if card.lines else 0.0
    )
    note_size = _note_size(name_size)
    widest_note = max([text_width(line.note, REGULAR, note_size) for line in card.lines] + [0.0])
    note_width = min(widest_note + (GAP if widest_note else 0.0), frame.width * 0.4)

    result = CardPlan(
        card=card,
        paper=paper,
        page_width=width,
        page_height=height,
        frame=frame,
        line_height=line_height,
        name_size=name_size,
        label_width=label_width,
        note_width=note_width,
        notes=notes,
        bottom_height=bottom,
        problems=problems,
    )
    if card.link:
        modules = len(result.qr_modules) + 2 * QR_QUIET
        if QR_SIZE / modules < 2.0:  # below about 0.7 mm a module no longer scans reliably
            problems.append(f"{card.heading}: the link is too long for a code that scans")
    heading = fit_text(card.heading, BOLD, HEADING, frame.width, may_cut=False)
    if heading.width > frame.width + 0.01:
        problems.append(f"{card.heading}: the heading does not fit the page")
    return result


def _note_size(name_size: float) -> float:
    return max(8.0, min(14.0, name_size * 0.55))


def _draw_card(pen: Pen, laid: CardPlan) -> None:
    card = laid.card
    frame = laid.frame
    c = pen.canvas
    top = frame.top

    # Title and kicker.
    baseline = top - TITLE * 0.8
    kicker_width = text_width(card.kicker, REGULAR, KICKER) if card.kicker else 0.0
    title = fit_text(card.title, BOLD, TITLE, frame.width - kicker_width - GAP)
    pen.fitted(frame.x, baseline, title, color=GREEN, limit=frame)
    if card.kicker:
        kicker = fit_text(card.kicker, REGULAR, KICKER, frame.width / 2)
        pen.fitted(frame.right, baseline, kicker, color=MUTED, align="right", limit=frame)
    top -= _header_height(card)
    c.setStrokeColor(GREEN)
    c.setLineWidth(1.2)
    c.line(frame.x, top + 4.0, frame.right, top + 4.0)

    # The heading.
    heading = fit_text(card.heading, BOLD, HEADING, frame.width, may_cut=False)
    pen.fitted(frame.x + frame.width / 2, top - HEADING * 0.85, heading, align="center")
    top -= _heading_height()

    # The lines (seats).
    row = laid.line_height
    size = laid.name_size
    note_size = _note_size(size)
    name_x = frame.x + laid.label_width
    name_width = frame.width - laid.label_width - laid.note_width
    for line in card.lines:
        bottom = top - row
        if line.marked:
            pen.fill(HEAD_FILL)
            c.rect(frame.x, bottom, frame.width, row, stroke=0, fill=1)
        base = bottom + row / 2 - size * 0.33
        pen.text(frame.x + 4.0, base, line.label, BOLD, size, color=GREEN)
        room = Box(name_x, bottom, name_width, row)
        name = fit_text(line.name, BOLD, size, name_width - 4.0, min_size=MIN_NAME_SIZE)
        pen.fitted(name_x, base, name, limit=room)
        if line.note:
            note_room = Box(frame.right - laid.note_width, bottom, laid.note_width, row)
            note = fit_text(line.note, REGULAR, note_size, laid.note_width - 4.0)
            pen.fitted(frame.right - 4.0, base, note, color=MUTED, align="right", limit=note_room)
        c.setStrokeColor(HAIRLINE)
        c.setLineWidth(0.6)
        c.line(frame.x, bottom, frame.right, bottom)
        top = bottom

    # The facts.
    top -= GAP
    for fact in card.facts:
        fitted = fit_text(fact, BOLD, FACT, frame.width)
        pen.fitted(frame.x, top - FACT * 0.85, fitted, limit=frame)
        top -= FACT + 8.0

    # The bottom band: notes and the link on the left, the code on the right.
    left_width = frame.width - (QR_SIZE + GAP if card.link else 0.0)
    left = Box(frame.x, frame.y + 14.0, left_width, laid.bottom_height - 14.0)
    y = left.top
    if card.notes_title:
        pen.text(frame.x, y - NOTE * 0.85, card.notes_title, BOLD, NOTE, color=GREEN)
        y -= NOTE_LEADING + 2.0
    for words in laid.notes:
        fitted = fit_text(words, REGULAR, NOTE, left_width)
        pen.fitted(frame.x, y - NOTE * 0.85, fitted, limit=left)
        y -= NOTE_LEADING
    if card.link:
        y = left.y + 2 * NOTE_LEADING
        if card.link_caption:
            caption = fit_text(card.link_caption, REGULAR, NOTE, left_width)
            pen.fitted(frame.x, y - NOTE * 0.85, caption, color=MUTED, limit=left)
        written = fit_text(card.link, BOLD, LINK, left_width, may_cut=False)
        pen.fitted(frame.x, y - NOTE_LEADING - LINK * 0.85, written, limit=left)
        draw_code(pen, laid.qr_modules, laid.qr_box)

    pen.text(frame.x, frame.y + 2.0, card.footer, REGULAR, FOOTER, color=MUTED)
