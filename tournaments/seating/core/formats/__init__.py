"""The seating formats, one module each, and the table the planner seats by.

A format is a function ``Seating -> Seated`` (see ``base``). A new format is its own
module here and one entry in ``FORMATS`` (and its key in ``types.Format``, which a test
holds equal to this table). The first entry is the default.
"""

from __future__ import annotations

from collections import OrderedDict

from tournaments.seating.core.formats import mixer, progressive, round_robin, swiss
from tournaments.seating.core.formats.base import FormatPlanner, Seated, Seating

# An OrderedDict, not a dict: whatever needs the formats in a stable order (a command's
# choices, a property test sampling them) takes it as a sequence of its keys, in this order.
FORMATS: OrderedDict[str, FormatPlanner] = OrderedDict(
    [
        ("mixer", mixer.plan),
        ("swiss", swiss.plan),
        ("round_robin", round_robin.plan),
        ("progressive", progressive.plan),
    ]
)

__all__ = ["FORMATS", "FormatPlanner", "Seated", "Seating"]
