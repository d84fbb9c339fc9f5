"""The season table as a printed sheet (a list: rank, name, each night's points, total)."""

from __future__ import annotations

from django.utils.translation import gettext, ngettext

from printing.render import ListColumn, Listing
from tournaments.club.selectors import SeasonView

# Past this many nights the sheet shows the last ones (the total always counts them all).
NIGHTS_ON_PAPER = 12


def season_listing(view: SeasonView) -> Listing:
    heads = view.nights[-NIGHTS_ON_PAPER:]
    skipped = len(view.nights) - len(heads)
    columns = [
        ListColumn("#", 0.8, "right", number=True),
        ListColumn(gettext("Name"), 4.0, bold=True),
        *[ListColumn(f"N{h.number}", 0.9, "center", number=True) for h in heads],
        ListColumn(gettext("Nights"), 1.1, "center", number=True),
        ListColumn(gettext("Total"), 1.2, "right", number=True, bold=True),
    ]
    rows = []
    for line in view.lines:
        cells = line.cells[-NIGHTS_ON_PAPER:]
        rows.append(
            (
                str(line.rank) if line.rank is not None else "\N{EN DASH}",
                line.player.name,
                *[(c.text if c.counted else f"({c.text})") if c.text else "" for c in cells],
                str(line.played),
                str(line.total),
            )
        )
    note = gettext(" · nights 1-{last} not shown").format(last=skipped) if skipped else ""
    return Listing(
        title=gettext("{season}: season table").format(season=view.season.name),
        subtitle=(
            f"{view.rule_text} "
            + ngettext(
                "After {count} night. Points in brackets do not count; a dash: not ranked yet",
                "After {count} nights. Points in brackets do not count; a dash: not ranked yet",
                len(view.nights),
            ).format(count=len(view.nights))
            + f"{note}."
        ),
        columns=tuple(columns),
        rows=tuple(rows),
        size=10.0 if len(heads) > 8 else 11.0,
        footer=f"Tablescore · {view.season.name} · " + gettext("season table"),
        empty=gettext("No night played yet."),
    )
