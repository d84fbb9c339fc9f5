"""A plain-text score table for people (``manage.py score --format table``).

One row per round (a "Deal" or a "Hand", as the game says) with the dealer, a
score column per team (a team's figure once, not at every member's seat) or per
player, and the round's inputs in words. Then the totals, anything that moved
after the last round (chips left on a board) as a row of its own, the chips
still on a board, and how the game stands: in progress, ended early, won, or
a draw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scoring.engines.base import Engine, RoundResult, ScoredGame


def score_table(scored: ScoredGame, engine: Engine) -> str:
    round_word = engine.round_word
    names = list(scored.players)
    groups = _groups(scored)
    headings = [round_word, "Dealer", *(title for title, _ in groups), "Inputs"]
    rows: list[list[str]] = []
    for result in scored.rounds:
        if result.details.get("misdeal") is True:
            cells = ["misdeal"] + [""] * (len(groups) - 1)
        else:
            cells = [_cell(result.totals[seats[0]], result.deltas[seats[0]]) for _, seats in groups]
        summary = str(result.details.get("summary") or "")
        rows.append([str(result.number), names[result.dealer], *cells, summary])
    last = scored.rounds[-1].totals if scored.rounds else [0] * len(names)
    after = [total - before for total, before in zip(scored.totals, last, strict=True)]
    tail: list[list[str]] = []
    if any(after):
        cells = [_cell(scored.totals[seats[0]], after[seats[0]]) for _, seats in groups]
        tail.append(["Left", "", *cells, _leftovers(names, after)])
    tail.append(["Total", "", *(str(scored.totals[seats[0]]) for _, seats in groups), ""])

    widths = [len(h) for h in headings[:-1]]
    for row in [*rows, *tail]:
        widths = [max(w, len(cell)) for w, cell in zip(widths, row[:-1], strict=False)]
    left_aligned = {1}  # the dealer's name

    def line(cells: Sequence[str]) -> str:
        shown = [
            cell.ljust(width) if index in left_aligned else cell.rjust(width)
            for index, (cell, width) in enumerate(zip(cells, widths, strict=False))
        ]
        return "  ".join([*shown, cells[-1]]).rstrip()

    rule = line([*("-" * w for w in widths), "-" * len(headings[-1])])
    out = [line(headings), rule, *(line(r) for r in rows), rule, *(line(r) for r in tail)]
    if scored.teams:
        teams = ", ".join(
            f"{label}: {' & '.join(names[s] for s in seats)}"
            for label, seats in scored.teams.items()
        )
        out.append(f"Teams  {teams}")
    board = scored.extras.get("board")
    if isinstance(board, dict):
        out.append(_board(board, engine.board_sections))
    out.append(_standing(scored, round_word))
    return "\n".join(out) + "\n"


def _groups(scored: ScoredGame) -> list[tuple[str, list[int]]]:
    """The score columns: one per team where scores are kept by team, else one per player."""
    names = scored.players
    if scored.teams:
        return [
            (f"{label}: {' & '.join(names[s] for s in seats)}", list(seats))
            for label, seats in scored.teams.items()
        ]
    return [(name, [seat]) for seat, name in enumerate(names)]


def _cell(total: int, delta: int) -> str:
    return f"{total} ({delta:+d})"


def _leftovers(names: Sequence[str], after: Sequence[int]) -> str:
    takers = [seat for seat, moved in enumerate(after) if moved > 0]
    chips = sum(moved for moved in after if moved > 0)
    who = " & ".join(names[s] for s in takers)
    return f"Leftovers: {who} takes the {chips} chips left on the board"


def _board(board: dict[str, int], sections: Mapping[str, str]) -> str:
    held = [(section, board.get(section, 0)) for section in sections if board.get(section, 0)]
    if not held:
        return "Board  empty"
    parts = ", ".join(f"{sections[section]} {n}" for section, n in held)
    return f"Board  {sum(n for _, n in held)} chips: {parts}"


def _standing(scored: ScoredGame, round_word: str) -> str:
    names = scored.players
    early = ""
    if scored.extras.get("ended_early") is True:
        played = len(scored.rounds)
        deals = scored.options.get("deals", played)
        early = f" early, after {played} of {deals} {round_word.lower()}s"
    elif scored.extras.get("can_end_early") is True and not scored.finished:
        return "In progress. The game may end early now, before the final deal."
    if not scored.finished:
        return "In progress."
    winners = list(scored.winners)
    if not winners:
        return f"Finished{early}."
    if scored.teams:
        won = [label for label, seats in scored.teams.items() if set(seats) <= set(winners)]
        shown = [f"{label} ({' & '.join(names[s] for s in scored.teams[label])})" for label in won]
        if len(shown) > 1:
            return f"Finished{early}. Draw: {', '.join(shown)}"
        winner = shown[0] if shown else " & ".join(names[s] for s in winners)
        return f"Finished{early}. Winner: {winner}"
    if len(winners) == 1:
        return f"Finished{early}. Winner: {names[winners[0]]}"
    together = _one_side(scored.rounds[-1] if scored.rounds else None, winners)
    listed = " & ".join(names[s] for s in winners)
    if together:
        return f"Finished{early}. Winners together: {listed}"
    return f"Finished{early}. Draw: {', '.join(names[s] for s in winners)}"


def _one_side(result: RoundResult | None, seats: Sequence[int]) -> bool:
    """True when ``seats`` all played on one side of the deciding round."""
    sides = result.details.get("sides") if result is not None else None
    if not isinstance(sides, dict):
        return False
    return any(set(seats) <= set(members) for members in sides.values())
