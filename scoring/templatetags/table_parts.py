"""The table page's repeated parts, drawn in Python: a standing per team or player on the
scoreboard, and an item per round in the list of the last rounds.

They are drawn on every round saved and every scoreboard a phone fetches, so they are
written with plain string formatting, every value escaped as the template language
escapes it, as ``entry_controls`` does for the round forms. ``tests/web/test_entry_controls``
holds the markup to what the template language drew.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst
from django.utils.translation import gettext

from scoring.entry.fields import ROUND_WORDS, said_word
from scoring.templatetags.entry_controls import delta_chips, escaped

register = template.Library()


def _markers(marks: Iterable[Any], *, after: bool) -> str:
    """A person's markers (who deals, who rolls), each spaced before or after itself."""
    spans = (f'<span class="marker marker-{escaped(m)}">{escaped(m)}</span>' for m in marks)
    return "".join(f"{span} " if after else f" {span}" for span in spans)


# A word of a name longer than this does not fit beside its total in a standing of the
# two-column scoreboard on a phone; such a standing puts its total under the names.
LONG_WORD = 9
WORDS = re.compile(r"[^\s-]+-?")  # a name breaks at spaces and after its hyphens


@register.filter
def has_long_word(standing: Any) -> bool:
    """Whether a name the standing shows has a word longer than ``LONG_WORD`` characters,
    counting the hyphen a word breaks after (it stays on that word's line)."""
    names = [standing.group.title] if len(standing.group.seats) > 1 else []
    names += [person.name for person in standing.people]
    return any(len(word) > LONG_WORD for name in names for word in WORDS.findall(str(name)))


@register.simple_tag
def standing_cards(standings: Iterable[Any], word: str) -> SafeString:
    """The scoreboard's standings: who (a team with its members, or one player), the
    total, and the last round's change."""
    last_title = escaped(gettext("last %(w)s") % {"w": said_word(word)})
    cards = []
    for standing in standings:
        group = standing.group
        people = standing.people
        if len(group.seats) > 1:
            members = "".join(
                f'<span class="person">{escaped(p.name)}{_markers(p.markers, after=False)}</span>'
                for p in people
            )
            who = (
                f'<span class="group-title">{escaped(group.title)}</span>\n'
                f'<span class="members">{members}</span>'
            )
        else:
            person = people[0]
            who = f'<span class="group-title">{escaped(person.name)}</span>'
            if person.markers:
                who += f'\n<span class="members">{_markers(person.markers, after=True)}</span>'
        last = ""
        if standing.last is not None:
            trend = "up" if standing.last > 0 else "down" if standing.last < 0 else ""
            last = (
                f'<span class="last {trend}" title="{last_title}">'
                f"{escaped(standing.last_signed)}</span>"
            )
        flags = (
            f"{' is-leader' if standing.leader else ''}{' is-winner' if standing.winner else ''}"
            f"{' is-out' if standing.out else ''}{' long-name' if has_long_word(standing) else ''}"
        )
        cards.append(
            f'<div class="standing{flags}" data-group="{escaped(group.key)}">\n'
            f'<div class="who">\n{who}\n</div>\n'
            f'<div class="total" data-total>{escaped(standing.total_text)}{last}</div>\n'
            "</div>\n"
        )
    return mark_safe("".join(cards))


@register.simple_tag
def recent_items(rows: Iterable[Any], word: str) -> SafeString:
    """The last rounds, newest first: number, dealer, marks, summary and changes."""
    word_text = escaped(capfirst(said_word(word)) if word in ROUND_WORDS else word)
    pending, corrected = escaped(gettext("pending")), escaped(gettext("corrected"))
    items = []
    for row in reversed(list(rows)):
        number = escaped(row.number)
        marks = ""
        if row.dealer:
            dealt = gettext("%(who)s dealt") % {"who": row.dealer}
            marks += f' <span class="muted">· {escaped(dealt)}</span>'
        if row.pending:
            marks += f' <span class="badge warn">{pending}</span>'
        if row.corrected:
            marks += f' <span class="badge">{corrected}</span>'
        items.append(
            f'<li class="round-item{" is-pending" if row.pending else ""}" value="{number}">\n'
            f'<p class="round-line"><strong>{word_text} {number}</strong>{marks}</p>\n'
            f'<p class="summary">{escaped(row.summary)}</p>\n'
            f'<p class="deltas">{delta_chips(row.cells, trend=True)}</p>\n'
            "</li>\n"
        )
    return mark_safe("".join(items))
