"""Paper sizes: A4 and US Letter, and the margin every office printer leaves blank."""

from __future__ import annotations

from reportlab.lib.pagesizes import A4, letter

from printing.render.words import N_

PAPER_SIZES: dict[str, tuple[float, float]] = {"A4": A4, "LETTER": letter}
# The papers' names, marked for the catalogue (said in the reader's language where shown).
PAPER_NAMES: dict[str, str] = {"A4": "A4", "LETTER": N_("US Letter")}
MARGIN = 30.0  # about 10.5 mm: inside the unprintable edge of every office printer


def normalise_paper(paper: str | None) -> str:
    key = (paper or "A4").strip().upper().replace(" ", "").replace("US", "")
    if key not in PAPER_SIZES:
        raise ValueError(f"paper size must be A4 or LETTER, not {paper!r}")
    return key
