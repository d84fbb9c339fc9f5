"""The pen: colours, text that fits its box, lines and fills on a reportlab canvas, and the
record of what was drawn where (the fit check reads it back)."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab import rl_config
from reportlab.lib.colors import Color, HexColor
from reportlab.pdfgen.canvas import Canvas

from printing.render.fonts import REGULAR, text_width
from printing.render.layout import (
    BODY_SIZE,
    Box,
    Fitted,
)

# Compressed page streams stay binary: ASCII85 on top makes files larger and slower to write.
rl_config.useA85 = 0

INK = HexColor("#1d2521")
MUTED = HexColor("#5b6660")
GREEN = HexColor("#1f4d3a")
RULE = HexColor("#8f8b80")
HAIRLINE = HexColor("#c9c5b9")
HEAD_FILL = HexColor("#e3efe8")
TOTAL_FILL = HexColor("#f2f0ea")
CORRECTED_FILL = HexColor("#fdf0cf")
GUIDE = HexColor("#b7b3a8")


@dataclass(frozen=True)
class DrawnText:
    text: str
    box: Box
    limit: Box | None


class DrawRecord:
    """What a sheet drew where: the fit check reads it back."""

    def __init__(self) -> None:
        self.items: list[DrawnText] = []

    def add(self, text: str, box: Box, limit: Box | None) -> None:
        self.items.append(DrawnText(text, box, limit))


class Pen:
    """Draws text through one door, so that every string's box can be recorded.

    The text of a page goes into one text object, written out by ``end_page`` after
    the page's rules and shading: text always sits on top, and one text block per
    page is much cheaper than one per string.
    """

    def __init__(self, canvas: Canvas, record: DrawRecord | None):
        self.canvas = canvas
        self.record = record
        self.fill_color: Color | None = None
        self.words = canvas.beginText()
        self.font: tuple[str, float] | None = None
        self.color: Color | None = None
        self.scale = 1.0

    def new_page(self) -> None:
        """A new page starts from reportlab's defaults: forget the font and colours set."""
        self.fill_color = None
        self.words = self.canvas.beginText()
        self.font = None
        self.color = None
        self.scale = 1.0

    def end_page(self) -> None:
        self.canvas.drawText(self.words)

    def fill(self, color: Color) -> None:
        if self.fill_color is not color:
            self.canvas.setFillColor(color)
            self.fill_color = color

    def text(
        self,
        x: float,
        y: float,
        text: str,
        font: str = REGULAR,
        size: float = BODY_SIZE,
        *,
        color: Color = INK,
        align: str = "left",
        scale: float = 1.0,
        limit: Box | None = None,
    ) -> float:
        if not text:
            return 0.0
        width = text_width(text, font, size) * scale
        if align == "right":
            left = x - width
        elif align == "center":
            left = x - width / 2
        else:
            left = x
        words = self.words
        if self.color is not color:
            words.setFillColor(color)
            self.color = color
        if self.font != (font, size):
            words.setFont(font, size)
            self.font = (font, size)
        if abs(self.scale - scale) > 1e-4:
            words.setHorizScale(scale * 100.0)
            self.scale = scale
        words.setTextOrigin(left, y)
        words.textOut(text)
        if self.record is not None:
            ascent = size * 0.76
            descent = size * 0.24
            self.record.add(text, Box(left, y - descent, width, ascent + descent), limit)
        return width

    def fitted(
        self,
        x: float,
        y: float,
        fitted: Fitted,
        *,
        color: Color = INK,
        align: str = "left",
        limit: Box | None = None,
    ) -> None:
        self.text(
            x,
            y,
            fitted.text,
            fitted.font,
            fitted.size,
            color=color,
            align=align,
            scale=fitted.scale,
            limit=limit,
        )
