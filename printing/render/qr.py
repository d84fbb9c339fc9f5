"""QR codes on a printed sheet (table cards, pass cards): the code's modules for a link,
and the code drawn as vector squares, sharp at any printer resolution."""

from __future__ import annotations

import segno

from printing.render.layout import Box
from printing.render.pen import INK, Pen

QR_QUIET = 4  # modules of white around the code, as the standard asks

Modules = tuple[tuple[bool, ...], ...]


def qr_modules(link: str) -> Modules:
    """The code's dark (True) and light modules, row by row (error correction M)."""
    code = segno.make(link, error="m")
    return tuple(tuple(bool(cell) for cell in row) for row in code.matrix)


def draw_code(pen: Pen, modules: Modules, box: Box) -> None:
    """A QR code in ``box`` (its quiet zone inside), a run of dark modules a rectangle."""
    size = box.width / (len(modules) + 2 * QR_QUIET)
    c = pen.canvas
    path = c.beginPath()
    for r, row in enumerate(modules):
        y = box.top - (r + QR_QUIET + 1) * size
        col = 0
        while col < len(row):
            if not row[col]:
                col += 1
                continue
            start = col
            while col < len(row) and row[col]:
                col += 1
            # A hair of overlap keeps neighbouring squares from showing seams.
            path.rect(box.x + (start + QR_QUIET) * size, y, (col - start) * size, size + 0.05)
    pen.fill(INK)
    c.drawPath(path, stroke=0, fill=1)
