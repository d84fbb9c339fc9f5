"""A plain-text score table for people (``manage.py score --format table``)."""

from __future__ import annotations

from scoring.engines.base import ScoredGame


def score_table(scored: ScoredGame) -> str:
    names = list(scored.players)
    columns = ["Round", "Dealer", *names]
    rows: list[list[str]] = []
    for result in scored.rounds:
        cells = [str(result.number), names[result.dealer]]
        cells += [
            f"{total} ({delta:+d})"
            for delta, total in zip(result.deltas, result.totals, strict=True)
        ]
        rows.append(cells)
    rows.append(["Total", "", *(str(t) for t in scored.totals)])
    widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(columns)]

    def line(cells: list[str]) -> str:
        return "  ".join(
            cell.rjust(width) for cell, width in zip(cells, widths, strict=True)
        ).rstrip()

    out = [line(columns), line(["-" * w for w in widths])]
    out += [line(r) for r in rows[:-1]]
    out += [line(["-" * w for w in widths]), line(rows[-1])]
    if scored.teams:
        teams = ", ".join(
            f"{label}: {' & '.join(names[s] for s in seats)}"
            for label, seats in scored.teams.items()
        )
        out.append(f"Teams  {teams}")
    if scored.finished:
        winners = " & ".join(names[s] for s in scored.winners) or "nobody"
        out.append(f"Finished. Winner: {winners}")
    else:
        out.append("In progress.")
    return "\n".join(out) + "\n"
