"""Names as the roster compares them: case, accents and spacing ignored.

Letters that Unicode does not split into a base letter and an accent (Ł, Ø, Đ, ß, Æ,
Œ, Þ, dotless i) are spelled out first, so "Łukasz" and "lukasz", "Søren" and "Soren" match.
"""

from __future__ import annotations

import unicodedata

_SPELLED = str.maketrans(
    {
        "ł": "l",
        "ø": "o",
        "đ": "d",
        "ð": "d",
        "ß": "ss",
        "æ": "ae",
        "œ": "oe",
        "þ": "th",
        "\u0131": "i",  # dotless i
        "ħ": "h",
        "ŀ": "l",
    }
)


def fold_name(text: str) -> str:
    """``text`` folded for comparing: lower case, no accents, single spaces."""
    spelled = text.casefold().translate(_SPELLED)
    decomposed = unicodedata.normalize("NFKD", spelled)
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())
