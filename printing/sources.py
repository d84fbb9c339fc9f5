"""Scoresheets as sources of print jobs: stacks of blank sheets, and the sheets of games.

This is where printing reads the scoring app's database: a stored game becomes a
game record and its rounds' marks (corrected, pending, who confirmed), and then
a sheet through ``printing.scoresheets``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from django.urls import reverse

from printing.errors import PrintRequestError
from printing.render import Sheet, render
from printing.scoresheets import RoundMarks, blank_sheet, filled_sheet
from scoring.engines.base import InvalidRecord, is_int
from scoring.engines.registry import ENGINES
from scoring.models import Game
from scoring.selectors import game_record, rounds_data

MAX_COPIES = 200
MAX_GAMES = 300


# --------------------------------------------------------------------------- one game


def game_marks(game: Game) -> dict[int, RoundMarks]:
    return {
        row["number"]: RoundMarks(
            corrected=bool(row["corrected"]),
            pending=row["status"] != "confirmed",
            confirmed_by=row["confirmed_by_seat"],
        )
        for row in rounds_data(game)
    }


def game_sheet(game: Game) -> Sheet:
    """The filled sheet of a stored game, its corrected and pending rounds marked."""
    record = game_record(game)
    meta = [("Game", f"#{game.pk}"), ("Started", f"{game.created_at:%d %b %Y}")]
    return filled_sheet(record, marks=game_marks(game), meta=meta)


def game_filename(game: Game) -> str:
    return f"{game.kind.replace('_', '-')}-game-{game.pk}.pdf"


def game_pdf(game: Game, paper: str) -> bytes:
    sheet = game_sheet(game)
    return render([sheet], paper, title=f"{game.engine.title} game #{game.pk}")


# --------------------------------------------------------------------------- sources


class BlankScoresheets:
    """``{"kind": "blank", "game", "players", "copies"[, "options"]}``: one sheet, many copies."""

    kind = "blank"

    def back(self, what: Mapping[str, Any]) -> tuple[str, str]:
        return "Print another stack", reverse("printing:blank_sheets")

    def request(
        self, *, game: str, players: int, copies: int, options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """The ``what`` of a print job for a stack of blank sheets (checked)."""
        if not is_int(copies) or not 1 <= copies <= MAX_COPIES:
            raise PrintRequestError(f"copies must be from 1 to {MAX_COPIES}")
        blank_sheet(game, players, options)  # raises PrintRequestError for a bad combination
        what: dict[str, Any] = {
            "kind": self.kind,
            "game": game,
            "players": players,
            "copies": copies,
        }
        if options is not None:
            what["options"] = dict(options)
        return what

    def sheets(self, what: Mapping[str, Any]) -> tuple[Iterator[Sheet], int]:
        sheet = blank_sheet(what.get("game", ""), what.get("players", 0), what.get("options"))
        copies = what.get("copies", 1)
        if not is_int(copies) or not 1 <= copies <= MAX_COPIES:
            raise PrintRequestError(f"copies must be from 1 to {MAX_COPIES}")
        return iter([sheet] * copies), copies

    def describe(self, what: Mapping[str, Any], paper_name: str) -> str:
        engine = ENGINES.get(what.get("game", ""))
        title = engine.title if engine else what.get("game", "")
        copies = what.get("copies", 1)
        noun = "sheet" if copies == 1 else "sheets"
        return f"{copies} blank {title} {noun} for {what.get('players')} players, {paper_name}"

    def filename(self, what: Mapping[str, Any]) -> str:
        game = str(what["game"]).replace("_", "-")
        return f"{game}-{what['players']}-players-blank-x{what['copies']}.pdf"

    def freshness(self, what: Mapping[str, Any]) -> dict[str, Any]:
        return {}


class GameScoresheets:
    """``{"kind": "games", "games": [game ids]}``: the filled sheet of each game, in order."""

    kind = "games"

    def back(self, what: Mapping[str, Any]) -> tuple[str, str]:
        return "Back to my games", reverse("scoring:my_games")

    def request(self, game_ids: Sequence[int]) -> dict[str, Any]:
        ids = list(dict.fromkeys(game_ids))
        if not ids:
            raise PrintRequestError("choose at least one game to print")
        if len(ids) > MAX_GAMES:
            raise PrintRequestError(f"at most {MAX_GAMES} games can be printed at once")
        if not all(is_int(i) for i in ids):
            raise PrintRequestError("games are named by their numbers")
        found = set(Game.objects.filter(pk__in=ids).values_list("pk", flat=True))
        missing = [i for i in ids if i not in found]
        if missing:
            raise PrintRequestError(f"no such game: {', '.join(str(i) for i in missing)}")
        return {"kind": self.kind, "games": ids}

    def sheets(self, what: Mapping[str, Any]) -> tuple[Iterator[Sheet], int]:
        ids = list(what.get("games") or [])
        return self._sheets(ids), len(ids)

    def _sheets(self, ids: Sequence[int]) -> Iterator[Sheet]:
        for game_id in ids:
            game = Game.objects.filter(pk=game_id).first()
            if game is None:
                raise PrintRequestError(f"Game #{game_id} no longer exists.")
            try:
                yield game_sheet(game)
            except InvalidRecord as invalid:
                raise PrintRequestError(f"Game #{game_id} cannot be scored: {invalid}") from None

    def describe(self, what: Mapping[str, Any], paper_name: str) -> str:
        count = len(what.get("games") or [])
        return f"Scoresheets of {count} game{'' if count == 1 else 's'}, {paper_name}"

    def filename(self, what: Mapping[str, Any]) -> str:
        count = len(what.get("games", []))
        return f"scoresheets-{count}-game{'s' if count != 1 else ''}.pdf"

    def freshness(self, what: Mapping[str, Any]) -> dict[str, Any]:
        # A game that changed since is printed afresh.
        revisions = Game.objects.filter(pk__in=what["games"]).values_list("pk", "revision")
        return {"revisions": sorted(revisions)}


BLANK_SCORESHEETS = BlankScoresheets()
GAME_SCORESHEETS = GameScoresheets()


def blank_request(
    *, game: str, players: int, copies: int, options: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The ``what`` of a print job for a stack of blank sheets (checked)."""
    return BLANK_SCORESHEETS.request(game=game, players=players, copies=copies, options=options)


def games_request(game_ids: Sequence[int]) -> dict[str, Any]:
    """The ``what`` of a print job for the sheets of these games (checked)."""
    return GAME_SCORESHEETS.request(game_ids)
