"""One table for every figure of ``make bench``: each row a figure measured beside its
reference in the same run, with its goal and whether it was met."""

from __future__ import annotations

from dataclasses import dataclass

HEADINGS = ("area", "figure", "measured", "beside", "goal", "verdict")


@dataclass(frozen=True)
class Row:
    area: str
    figure: str
    measured: str
    beside: str = ""
    goal: str = ""
    met: bool | None = None  # None: a figure with no goal of its own
    note: str = ""  # e.g. why a figure could not be measured

    def cells(self) -> tuple[str, ...]:
        verdict = "" if self.met is None else ("met" if self.met else "SHORT")
        if self.note:
            verdict = f"{verdict} ({self.note})" if verdict else self.note
        return (self.area, self.figure, self.measured, self.beside, self.goal, verdict)


def text_table(rows: list[Row]) -> str:
    """The table as aligned text, for the terminal."""
    cells = [HEADINGS, *(row.cells() for row in rows)]
    widths = [max(len(line[i]) for line in cells) for i in range(len(HEADINGS))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True))
        for line in cells
    ]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(line.rstrip() for line in lines)


def markdown_table(rows: list[Row]) -> str:
    """The table in Markdown, for bench/RESULTS.md."""

    def line(cells: tuple[str, ...]) -> str:
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

    return "\n".join(
        [line(HEADINGS), line(tuple("---" for _ in HEADINGS)), *(line(r.cells()) for r in rows)]
    )
