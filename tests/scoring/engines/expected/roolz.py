"""What the generic tests expect of Roolz."""

from __future__ import annotations

from tests.games import LONG_NAME, LONG_NAME_2

# Words its blank sheet prints (tests/printing/test_scoresheets.py).
SHEET_HEADINGS = ["Dealer", "Bidder", "Bid", "Won", "All", "tricks", "Penalty", "+/-", "Total"]

# Player counts whose round forms read back every sample entry (tests/web/test_table_forms.py).
FORM_PLAYERS = (2, 3, 4, 5, 6)

# Players of its form drawn from the field descriptions alone (tests/web/test_table_forms.py).
GENERIC_FORM_PLAYERS = 5

# Player counts its sample is seated at, besides the sample's own (tests/web/test_table_parts.py).
SAMPLE_SEATINGS = (4, 5, 6)

# Players of the long-names test on a phone (tests/browser/test_table_in_sight.py).
LONG_NAMES_PLAYERS = 4

# Players of its empty table page on a phone (tests/browser/test_table_screens.py,
# tests/i18n/test_table_pages.py).
SCREEN_PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve"]

# Players and played rounds of its table page with long names (tests/browser/test_table_look.py).
LOOK = (
    ["Ann", LONG_NAME, "Cat", LONG_NAME_2],
    [{"bidder": 1, "bid": 185, "won": {"A": 65, "B": 235}}],
)

# Its word for a deal in French, as its table pages say it (tests/i18n/test_table_pages.py).
FRENCH_WORD = "donne"

# Its default standings (2 to 6 seats: sizes mix): the first metric, and the one an opponent's
# strength is measured by (tests/tournaments/standings/test_policy.py).
STANDINGS = ("placement_points", "buchholz")
