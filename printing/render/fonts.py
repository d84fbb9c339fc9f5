"""The one font of every sheet: DejaVu Sans, embedded, found on the machine or named to install."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIRS = (
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/dejavu",
    "/usr/local/share/fonts/dejavu",
)
REGULAR = "TablescoreSans"
BOLD = "TablescoreSans-Bold"


class FontMissing(RuntimeError):
    """The TrueType font that prints every Latin name is not installed."""


_fonts_ready = False


def font_paths() -> tuple[Path, Path]:
    """DejaVu Sans and DejaVu Sans Bold; FontMissing names the package to install."""
    override = os.environ.get("TABLESCORE_FONT_DIR")
    folders = ((override,) if override else ()) + FONT_DIRS
    for folder in folders:
        regular = Path(folder) / "DejaVuSans.ttf"
        bold = Path(folder) / "DejaVuSans-Bold.ttf"
        if regular.is_file() and bold.is_file():
            return regular, bold
    raise FontMissing(
        "Scoresheets need the DejaVu Sans TrueType font (DejaVuSans.ttf and "
        "DejaVuSans-Bold.ttf), looked for in " + ", ".join(folders) + ". Install it with "
        "`apt-get install fonts-dejavu-core` (or `make system-deps`), or point "
        "TABLESCORE_FONT_DIR at a folder that holds both files."
    )


def register_fonts() -> None:
    """Embed DejaVu Sans, which covers every Latin script (Zoë, Łukasz, Søren, Ðorđe)."""
    global _fonts_ready
    if _fonts_ready:
        return
    regular, bold = font_paths()
    pdfmetrics.registerFont(TTFont(REGULAR, str(regular)))
    pdfmetrics.registerFont(TTFont(BOLD, str(bold)))
    _fonts_ready = True


@lru_cache(maxsize=1 << 16)
def text_width(text: str, font: str, size: float) -> float:
    return pdfmetrics.stringWidth(text, font, size)
