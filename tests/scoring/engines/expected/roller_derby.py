"""What the generic tests expect of Roller Derby."""

from __future__ import annotations

from tests.games import LONG_NAME

# Words its blank sheet prints (tests/printing/test_scoresheets.py).
SHEET_HEADINGS = [
    "Dealer",
    "Roller",
    "Dice",
    "Target",
    "Tricks",
    "Jokers",
    "A/N",
    "Made",
    "Score",
    "Total",
]

# Player counts whose round forms read back every sample entry (tests/web/test_table_forms.py).
FORM_PLAYERS = (4,)

# Players of its form drawn from the field descriptions alone (tests/web/test_table_forms.py).
GENERIC_FORM_PLAYERS = 4

# Player counts its sample is seated at, besides the sample's own (tests/web/test_table_parts.py).
SAMPLE_SEATINGS = (4,)

# Players of the long-names test on a phone (tests/browser/test_table_in_sight.py).
LONG_NAMES_PLAYERS = 4

# Players of its empty table page on a phone (tests/browser/test_table_screens.py,
# tests/i18n/test_table_pages.py).
SCREEN_PLAYERS = ["Ann", "Ben", "Cat", "Dan"]

# Players and played rounds of its table page with long names (tests/browser/test_table_look.py).
LOOK = (["Ann", "Ben", LONG_NAME, "Dan"], [{"dice": [3, 4], "tricks": 6}])

# Its word for a deal in French, as its table pages say it (tests/i18n/test_table_pages.py).
FRENCH_WORD = "donne"

# Its default standings (always two teams of two): the first metric, and the one an opponent's
# strength is measured by (tests/tournaments/standings/test_policy.py).
STANDINGS = ("wins", "opponents_strength")
