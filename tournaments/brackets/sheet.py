"""The bracket for the wall: an event's bracket as a landscape drawing, and its sheet source.

Columns are rounds, left to right; each match is a box with one line per seat, the
winners in bold, each side's total at the right once a deal is recorded, a decided
table's finishing place (1st, 2nd, ...) at the left, a decision of the director on a
warm ground; lines run from each
match to the one its winners go on to. A column never holds more than
``MOST_PER_PAGE`` matches on one page, so names stay legible at arm's length: 64
entrants print on two pages (top half, bottom half, the final on the second).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext

from printing.errors import PrintRequestError
from printing.render.diagram import (
    Diagram,
    DiagramBox,
    DiagramLine,
    DiagramPage,
    DiagramText,
)
from tournaments.brackets.selectors import BracketPage, PageMatch, bracket_for
from tournaments.models import Event

MOST_PER_PAGE = 16
NAME = 10.0  # name size, units
SCORE = 8.5  # a side's total, right of its name
SCORE_W = 26.0  # the room of a total (five digits, or a sign and four)
LINE = 13.0  # one seat
BOX_W = 130.0
GAP_X = 18.0
GAP_Y = 5.0
HEAD = 16.0  # a column's title
SECTION_GAP = 18.0


def page_count(page: BracketPage) -> int:
    return max(1, math.ceil(page.widest_column / MOST_PER_PAGE))


def _page_of(index: int, count: int, pages: int) -> int:
    """The page a match goes on: the i-th of a column of ``count``, split into parts; a
    match goes on the page of its last feeder, so the final ends the last page."""
    return ((index + 1) * pages - 1) // count


class _Drawing:
    def __init__(self) -> None:
        self.boxes: list[DiagramBox] = []
        self.lines: list[DiagramLine] = []
        self.texts: list[DiagramText] = []
        self.width = 0.0
        self.height = 0.0

    def match(self, match: PageMatch, x: float, y: float) -> None:
        height = LINE * len(match.seats)
        self.boxes.append(
            DiagramBox(x, y, BOX_W, height, marked=match.overridden, shaded=match.status == "ready")
        )
        scored = any(seat.total_text for seat in match.seats)
        for index, seat in enumerate(match.seats):
            top = y + index * LINE
            if index:
                self.lines.append(DiagramLine(((x, top), (x + BOX_W, top))))
            baseline = top + LINE - 3.2
            # A decided table's finishing place stands where the seed does; the seed
            # otherwise (the place says more once the match is decided).
            if seat.place_text:
                self.texts.append(
                    DiagramText(x + 2, baseline, seat.place_text, 6.0, muted=not seat.advanced)
                )
            elif seat.seed is not None:
                self.texts.append(DiagramText(x + 3, baseline, str(seat.seed), 7.0, muted=True))
            # The totals stand in one column, left of the match's id on the first line.
            id_room = 24.0 if index == 0 or scored else 0.0
            score_room = SCORE_W if scored else 0.0
            self.texts.append(
                DiagramText(
                    x + 17,
                    baseline,
                    seat.label,
                    NAME if seat.known else 8.0,
                    bold=seat.advanced,
                    muted=not seat.known,
                    width=BOX_W - 20 - id_room - score_room,
                )
            )
            if seat.total_text:
                self.texts.append(
                    DiagramText(
                        x + BOX_W - 3 - id_room,
                        baseline,
                        seat.total_text,
                        SCORE,
                        bold=seat.advanced,
                        muted=not seat.advanced,
                        align="right",
                        width=score_room - 2,
                    )
                )
            if index == 0:
                self.texts.append(
                    DiagramText(x + BOX_W - 3, baseline, match.id, 6.5, muted=True, align="right")
                )
        self.width = max(self.width, x + BOX_W)
        self.height = max(self.height, y + height)


def _draw_pages(page: BracketPage) -> tuple[DiagramPage, ...]:
    pages = page_count(page)
    drawn: list[DiagramPage] = []
    for number in range(pages):
        drawing = _Drawing()
        top = 0.0
        last_step = 0
        for section in page.sections:
            placed: dict[str, tuple[float, float]] = {}  # match id -> (x, middle y)
            columns = []
            for column in section.columns:
                mine = [
                    m
                    for i, m in enumerate(column.matches)
                    if _page_of(i, len(column.matches), pages) == number
                ]
                columns.append((column, mine))
            if not any(mine for _, mine in columns):
                continue
            if len(page.sections) > 1 or section.key != "main":
                drawing.texts.append(DiagramText(0, top + 12, section.title, 11.0, bold=True))
                top += 16
            bottom = top
            shown = [(column, mine) for column, mine in columns if mine]
            # The third-place match sits under the final; other sections start at the left.
            offset = last_step if section.key == "third_place" else 0
            last_step = len(shown) - 1
            for step, (column, mine) in enumerate(shown, start=offset):
                x = step * (BOX_W + GAP_X)
                drawing.texts.append(
                    DiagramText(
                        x + BOX_W / 2, top + 11, column.title, 8.5, muted=True, align="center"
                    )
                )
                y_next = top + HEAD
                for match in mine:
                    height = LINE * len(match.seats)
                    feeders = [placed[f] for f in _feeders(match) if f in placed]
                    wanted = (
                        sum(f[1] for f in feeders) / len(feeders) - height / 2
                        if feeders
                        else y_next
                    )
                    y = max(wanted, y_next)
                    drawing.match(match, x, y)
                    for fx, fy in feeders:
                        elbow = fx + BOX_W + GAP_X / 2
                        drawing.lines.append(
                            DiagramLine(
                                (
                                    (fx + BOX_W, fy),
                                    (elbow, fy),
                                    (elbow, y + height / 2),
                                    (x, y + height / 2),
                                )
                            )
                        )
                    placed[match.id] = (x, y + height / 2)
                    y_next = y + height + GAP_Y
                    bottom = max(bottom, y + height)
            top = bottom + SECTION_GAP
        caption = (
            gettext("part {number} of {count}").format(number=number + 1, count=pages)
            if pages > 1
            else ""
        )
        drawn.append(
            DiagramPage(
                width=max(drawing.width, 1.0),
                height=max(top - SECTION_GAP, 1.0),
                boxes=tuple(drawing.boxes),
                lines=tuple(drawing.lines),
                texts=tuple(drawing.texts),
                caption=caption,
            )
        )
    return tuple(drawn)


def _feeders(match: PageMatch) -> tuple[str, ...]:
    return match.feeders


def bracket_diagram(page: BracketPage) -> Diagram:
    parts = [page.kind_title]
    if page.cut:
        parts.append(page.cut)
    parts.append(gettext("level tables: {rule}").format(rule=page.draw_rule.lower()))
    if page.champion:
        parts.append(gettext("Champion: {name}").format(name=page.champion))
    return Diagram(
        title=gettext("{event}: bracket").format(event=page.event_name),
        subtitle=" · ".join(parts),
        pages=_draw_pages(page),
        landscape=True,
    )


class BracketSheets:
    """``{"kind": "bracket", "event": id}``: an event's bracket for the wall, landscape."""

    kind = "bracket"

    def request(self, *, event: Event) -> dict[str, Any]:
        if bracket_for(event=event) is None:
            raise PrintRequestError(gettext("this event has no bracket yet"))
        return {"kind": self.kind, "event": event.pk}

    def _page(self, what: Mapping[str, Any]) -> tuple[Event, BracketPage]:
        event = Event.objects.filter(pk=what.get("event", 0)).first()
        page = bracket_for(event=event) if event is not None else None
        if event is None or page is None:
            raise PrintRequestError(gettext("this event has no bracket to print"))
        return event, page

    def sheets(self, what: Mapping[str, Any]) -> tuple[Iterator[Diagram], int]:
        _, page = self._page(what)
        return iter([bracket_diagram(page)]), 1

    def describe(self, what: Mapping[str, Any], paper_name: str) -> str:
        event = Event.objects.filter(pk=what.get("event", 0)).first()
        name = event.name if event else gettext("an event")
        return gettext("The bracket of {name}, {paper} landscape").format(
            name=name, paper=paper_name
        )

    def back(self, what: Mapping[str, Any]) -> tuple[str, str]:
        return gettext("Back to the bracket"), reverse(
            "tournaments:bracket_desk", args=[what.get("event")]
        )

    def filename(self, what: Mapping[str, Any]) -> str:
        return f"bracket-event-{what.get('event')}.pdf"

    def freshness(self, what: Mapping[str, Any]) -> dict[str, Any]:
        revision = Event.objects.filter(pk=what.get("event", 0)).values_list("revision", flat=True)
        return {"revision": revision.first()}


BRACKET_SHEETS = BracketSheets()
