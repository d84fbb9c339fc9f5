"""Names as searched and compared: case, accents and spacing ignored.

Plain Python, no Django: the models keep a folded copy of a name for searching in the
database, the pages fold what is typed the same way, and a club's roster matches the names
it imports by it ("Łukasz" = "lukasz", "Søren" = "Soren").
"""

from __future__ import annotations

import unicodedata

# Letters Unicode does not decompose into a base letter and an accent, as typed on a
# keyboard without them (casefold already turns ß into ss).
PLAIN_LETTERS = str.maketrans(
    {
        "ł": "l",
        "ŀ": "l",
        "ø": "o",
        "đ": "d",
        "ð": "d",
        "ħ": "h",
        "\u0131": "i",  # dotless i
        "æ": "ae",
        "œ": "oe",
        "þ": "th",
    }
)


def folded(text: str) -> str:
    """A name as searched and compared: case and accents ignored, spaces squeezed."""
    decomposed = unicodedata.normalize("NFKD", text.casefold().translate(PLAIN_LETTERS))
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())
