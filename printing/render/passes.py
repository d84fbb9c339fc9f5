"""Pass cards: a sheet of small cards to cut apart and hand out, one per player.

Each card carries the event's name, the player's name, a QR code of the player's own
link and the link written out to type (its address on one line, the token on the next).
Ten cards to an A4 or US Letter page (two across, five down), with dashed cut lines
between them. Nothing here knows an event or a token: the source fills the words. The
plan (``PassSheet.layout``) both draws the pages and states what does not fit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

from printing.render.fonts import BOLD, REGULAR, register_fonts
from printing.render.layout import Box, Fitted, fit_text, wrap
from printing.render.paper import MARGIN, PAPER_SIZES, normalise_paper
from printing.render.pen import GREEN, GUIDE, INK, MUTED, Pen
from printing.render.qr import QR_QUIET, draw_code, qr_modules
from printing.render.words import N_, said

ACROSS = 2
DOWN = 5
PAD = 9.0  # inside each card, from its cut lines
GAP = 8.0
QR_LARGEST = 104.0  # the code, its quiet zone included
SMALLEST_MODULE = 2.0  # points: below about 0.7 mm a module no longer scans reliably
TITLE = 8.0
NAME = 16.0
NAME_SMALLEST = 9.0  # a name is condensed, then set smaller, then shortened
NAME_TWO_LINES = 12.0  # a long name goes on two lines at this size before it is shortened
NOTE = 6.5
CAPTION = 6.5
ADDRESS = 7.5
TOKEN = 9.0
TOKEN_SMALLEST = 6.5  # the token is never shortened: below this it is a problem
FOOTER = 5.5


@dataclass(frozen=True)
class PassCard:
    """One player's card, already in words."""

    name: str
    link: str  # what the code holds
    address: str  # the link written out, first line ("scores.example.org/me/")
    token: str  # the link written out, second line (the token and its slash)
    note: str = ""  # under the name (a team's members)


@dataclass(frozen=True)
class PassSheet:
    """Every card of one printout: all of one event (or one club)."""

    title: str  # on every card, above the name ("Friday club night")
    cards: tuple[PassCard, ...]
    caption: str = N_("Your own page: scan the code, or type")
    footer: str = "Tablescore"
    empty: str = N_("Nobody to print a pass for yet.")

    def layout(self, paper: str) -> PassPlan:
        return plan_passes(self, paper)


@dataclass
class PassPlan:
    sheet: PassSheet
    paper: str
    page_width: float
    page_height: float
    frame: Box
    card_width: float
    card_height: float
    qr_size: float
    problems: list[str] = field(default_factory=list)

    @property
    def per_page(self) -> int:
        return ACROSS * DOWN

    @property
    def page_count(self) -> int:
        return max(1, math.ceil(len(self.sheet.cards) / self.per_page))

    @cached_property
    def codes(self) -> tuple[tuple[tuple[bool, ...], ...], ...]:
        return tuple(qr_modules(card.link) for card in self.sheet.cards)

    def card_box(self, slot: int) -> Box:
        """The card in ``slot`` of a page (0 top left, read across, then down)."""
        column, row = slot % ACROSS, slot // ACROSS
        x = self.frame.x + column * self.card_width
        y = self.frame.top - (row + 1) * self.card_height
        return Box(x, y, self.card_width, self.card_height)

    def draw_page(self, pen: Pen, index: int) -> None:
        _draw_page(pen, self, index)


def plan_passes(sheet: PassSheet, paper: str = "A4") -> PassPlan:
    register_fonts()
    paper = normalise_paper(paper)
    width, height = PAPER_SIZES[paper]
    frame = Box(MARGIN, MARGIN, width - 2 * MARGIN, height - 2 * MARGIN)
    card_width, card_height = frame.width / ACROSS, frame.height / DOWN
    qr_size = min(QR_LARGEST, card_height - 2 * PAD)
    laid = PassPlan(
        sheet=sheet,
        paper=paper,
        page_width=width,
        page_height=height,
        frame=frame,
        card_width=card_width,
        card_height=card_height,
        qr_size=qr_size,
    )
    text_width = card_width - 2 * PAD - qr_size - GAP
    for card, modules in zip(sheet.cards, laid.codes, strict=True):
        if qr_size / (len(modules) + 2 * QR_QUIET) < SMALLEST_MODULE:
            laid.problems.append(f"{card.name}: the link is too long for a code that scans")
        token = fit_text(
            card.token, BOLD, TOKEN, text_width, may_cut=False, min_size=TOKEN_SMALLEST
        )
        address = fit_text(card.address, REGULAR, ADDRESS, text_width, may_cut=False, min_size=5.0)
        if token.width > text_width + 0.01 or address.width > text_width + 0.01:
            laid.problems.append(f"{card.name}: the link written out does not fit its card")
    return laid


def _draw_page(pen: Pen, laid: PassPlan, index: int) -> None:
    cards = laid.sheet.cards[index * laid.per_page : (index + 1) * laid.per_page]
    if not cards:
        frame = laid.frame
        pen.text(frame.x, frame.top - 20.0, said(laid.sheet.empty), REGULAR, 12.0, color=MUTED)
        return
    _draw_cut_lines(pen, laid, len(cards))
    for slot, card in enumerate(cards):
        modules = laid.codes[index * laid.per_page + slot]
        _draw_card(pen, laid, laid.card_box(slot), card, modules)


def _draw_cut_lines(pen: Pen, laid: PassPlan, count: int) -> None:
    """Dashed lines around every card printed (shared edges drawn once)."""
    c = pen.canvas
    c.saveState()
    c.setStrokeColor(GUIDE)
    c.setLineWidth(0.5)
    c.setDash(3, 3)
    rows = math.ceil(count / ACROSS)
    frame = laid.frame
    for row in range(rows + 1):
        # A row's bottom edge spans the cards above it or below it, whichever is wider.
        above = min(ACROSS, count - (row - 1) * ACROSS) if row else 0
        below = min(ACROSS, count - row * ACROSS) if row < rows else 0
        span = max(above, below)
        y = frame.top - row * laid.card_height
        c.line(frame.x, y, frame.x + span * laid.card_width, y)
    for column in range(ACROSS + 1):
        # A column line runs down as far as the rows that have a card on either side.
        deepest = 0
        for row in range(rows):
            filled = min(ACROSS, count - row * ACROSS)
            if column <= filled:
                deepest = row + 1
        x = frame.x + column * laid.card_width
        c.line(x, frame.top, x, frame.top - deepest * laid.card_height)
    c.restoreState()


def _draw_card(
    pen: Pen, laid: PassPlan, box: Box, card: PassCard, modules: tuple[tuple[bool, ...], ...]
) -> None:
    inner = Box(box.x + PAD, box.y + PAD, box.width - 2 * PAD, box.height - 2 * PAD)
    qr = Box(
        inner.right - laid.qr_size,
        inner.y + (inner.height - laid.qr_size) / 2,
        laid.qr_size,
        laid.qr_size,
    )
    text = Box(inner.x, inner.y, inner.width - laid.qr_size - GAP, inner.height)
    y = text.top - TITLE * 0.85
    title = fit_text(laid.sheet.title, BOLD, TITLE, text.width)
    pen.fitted(text.x, y, title, color=GREEN, limit=text)
    y -= NAME * 0.95 + 6.0
    for number, line in enumerate(name_lines(card.name, text.width)):
        if number:
            y -= line.size + 2.0
        pen.fitted(text.x, y, line, color=INK, limit=text)
    if card.note:
        y -= NOTE + 4.0
        note = fit_text(card.note, REGULAR, NOTE, text.width)
        pen.fitted(text.x, y, note, color=MUTED, limit=text)

    # The link written out, at the bottom: the caption, the address, the token.
    y = text.y + FOOTER + 5.0
    token = fit_text(card.token, BOLD, TOKEN, text.width, may_cut=False, min_size=TOKEN_SMALLEST)
    pen.fitted(text.x, y, token, color=INK, limit=text)
    y += TOKEN + 2.0
    address = fit_text(card.address, REGULAR, ADDRESS, text.width, may_cut=False, min_size=5.0)
    pen.fitted(text.x, y, address, color=INK, limit=text)
    y += ADDRESS + 3.0
    caption = fit_text(said(laid.sheet.caption), REGULAR, CAPTION, text.width)
    pen.fitted(text.x, y, caption, color=MUTED, limit=text)
    footer = fit_text(laid.sheet.footer, REGULAR, FOOTER, text.width)
    pen.fitted(text.x, text.y, footer, color=MUTED, limit=text)
    draw_code(pen, modules, qr)


def name_lines(name: str, width: float) -> list[Fitted]:
    """The name on one line (condensed, a little smaller), or on two before it is cut."""
    whole = fit_text(name, BOLD, NAME, width, min_size=NAME_TWO_LINES)
    if whole.width <= width + 0.01 and not whole.cut:
        return [whole]
    lines = wrap(name, BOLD, NAME_TWO_LINES, width)
    if len(lines) == 2:
        return [
            fit_text(line, BOLD, NAME_TWO_LINES, width, min_size=NAME_SMALLEST) for line in lines
        ]
    return [fit_text(name, BOLD, NAME, width, min_size=NAME_SMALLEST)]
