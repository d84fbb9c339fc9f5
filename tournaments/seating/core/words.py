"""The seating report's words in every reader's language (see ``scoring.engines.base``).

A round's report is stored with the round, as JSON of plain values, and read later by
people who read other languages, so it stores facts, not sentences: the sizes' sentence
is made again from the facts of the split (``types.TableSplit``, ``sizes.split_sentence``)
and said by the outer layer in the reader's language. The method that seated a round is
one of a closed set of names, each its own marked template (``METHODS``): a report stores
its English name, and ``method_words`` gives it back as words to translate (an older
report's too). A report stored before it kept the split's facts shows its English
sentence as it was written.
"""

from __future__ import annotations

import re

from common.phrases import N_, Words

# The methods a report names (the planner's formats, a club's balanced tables).
GREEDY = N_("greedy")
GREEDY_SWAPS = N_("greedy + swaps")
ANNEALED = N_("annealed")
WHIST = N_("whist")
KIRKMAN = N_("Kirkman triple system")
GOLFER = N_("social golfer schedule")
BEST_KNOWN = N_("best known schedule")
AFFINE = N_("affine plane")
CYCLIC = N_("cyclic")
CYCLIC_GF = N_("cyclic GF({order})")
PROGRESSIVE_FIRST = N_("progressive: first round mixed")
PROGRESSIVE = N_("progressive: winners up, others down")
ROUND_ROBIN = N_("round robin: circle method")
BALANCED = N_("balanced tables")
METHODS = frozenset(
    {
        GREEDY,
        GREEDY_SWAPS,
        ANNEALED,
        WHIST,
        KIRKMAN,
        GOLFER,
        BEST_KNOWN,
        AFFINE,
        CYCLIC,
        PROGRESSIVE_FIRST,
        PROGRESSIVE,
        ROUND_ROBIN,
        BALANCED,
    }
)
# What a draft's method says once the director swapped two players by hand (the desk adds
# the English ending to the method's name; ``method_words`` reads it back).
SWAPPED = N_("{method}, then swapped by the director")
SWAPPED_ENDING = ", then swapped by the director"
_CYCLIC_GF = re.compile(r"cyclic GF\((\d+)\)")


def cyclic_gf(order: int) -> Words:
    return Words(CYCLIC_GF, {"order": order})


def method_words(name: str) -> str:
    """A stored method's name as words to say in the reader's language; a name this
    module does not know (none should be) stays as it is."""
    if name.endswith(SWAPPED_ENDING):
        head = method_words(name.removesuffix(SWAPPED_ENDING))
        return Words(SWAPPED, {"method": head})
    if name in METHODS:
        return Words(name)
    found = _CYCLIC_GF.fullmatch(name)
    if found:
        return cyclic_gf(int(found.group(1)))
    return name
