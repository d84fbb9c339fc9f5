"""Scoresheets as sources of print jobs: stacks of blank sheets, and the sheets of games.

This is where printing reads the scoring app's database: a stored game becomes a
game record and its rounds' marks (corrected, pending, who confirmed), and then
a sheet through ``printing.scoresheets``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from django.urls import reverse
from django.utils import formats
from django.utils.translation import gettext, ngettext, pgettext

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
    started = formats.date_format(game.created_at, "DATE_FORMAT")
    meta = [
        (pgettext("a printed sheet's game number", "Game"), f"#{game.pk}"),
        (gettext("Started"), started),
    ]
    return filled_sheet(record, marks=game_marks(game), meta=meta)


def game_filename(game: Game) -> str:
    return f"{game.kind.replace('_', '-')}-game-{game.pk}.pdf"


def game_pdf(game: Game, paper: str) -> bytes:
    sheet = game_sheet(game)
    title = gettext("{game} game #{number}").format(game=game.engine.title, number=game.pk)
    return render([sheet], paper, title=title)


# --------------------------------------------------------------------------- sources


class BlankScoresheets:
    """``{"kind": "blank", "game", "players", "copies"[, "options"]}``: one sheet, many copies."""

    kind = "blank"

    def back(self, what: Mapping[str, Any]) -> tuple[str, str]:
        return gettext("Print another stack"), reverse("printing:blank_sheets")

    def request(
        self, *, game: str, players: int, copies: int, options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """The ``what`` of a print job for a stack of blank sheets (checked)."""
        if not is_int(copies) or not 1 <= copies <= MAX_COPIES:
            raise PrintRequestError(
                gettext("copies must be from 1 to {most}").format(most=MAX_COPIES)
            )
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
            raise PrintRequestError(
                gettext("copies must be from 1 to {most}").format(most=MAX_COPIES)
            )
        return iter([sheet] * copies), copies

    def describe(self, what: Mapping[str, Any], paper_name: str) -> str:
        engine = ENGINES.get(what.get("game", ""))
        title = engine.title if engine else what.get("game", "")
        copies = what.get("copies", 1)
        return ngettext(
            "{copies} blank {game} sheet for {players} players, {paper}",
            "{copies} blank {game} sheets for {players} players, {paper}",
            copies if is_int(copies) else 2,
        ).format(copies=copies, game=title, players=what.get("players"), paper=paper_name)

    def filename(self, what: Mapping[str, Any]) -> str:
        game = str(what["game"]).replace("_", "-")
        return f"{game}-{what['players']}-players-blank-x{what['copies']}.pdf"

    def freshness(self, what: Mapping[str, Any]) -> dict[str, Any]:
        return {}


class GameScoresheets:
    """``{"kind": "games", "games": [game ids]}``: the filled sheet of each game, in order."""

    kind = "games"

    def back(self, what: Mapping[str, Any]) -> tuple[str, str]:
        return gettext("Back to my games"), reverse("scoring:my_games")

    def request(self, game_ids: Sequence[int]) -> dict[str, Any]:
        ids = list(dict.fromkeys(game_ids))
        if not ids:
            raise PrintRequestError(gettext("choose at least one game to print"))
        if len(ids) > MAX_GAMES:
            raise PrintRequestError(
                gettext("at most {most} games can be printed at once").format(most=MAX_GAMES)
            )
        if not all(is_int(i) for i in ids):
            raise PrintRequestError(gettext("games are named by their numbers"))
        found = set(Game.objects.filter(pk__in=ids).values_list("pk", flat=True))
        missing = [i for i in ids if i not in found]
        if missing:
            raise PrintRequestError(
                gettext("no such game: {numbers}").format(
                    numbers=", ".join(str(i) for i in missing)
                )
            )
        return {"kind": self.kind, "games": ids}

    def sheets(self, what: Mapping[str, Any]) -> tuple[Iterator[Sheet], int]:
        ids = list(what.get("games") or [])
        return self._sheets(ids), len(ids)

    def _sheets(self, ids: Sequence[int]) -> Iterator[Sheet]:
        for game_id in ids:
            game = Game.objects.filter(pk=game_id).first()
            if game is None:
                raise PrintRequestError(
                    gettext("Game #{number} no longer exists.").format(number=game_id)
                )
            try:
                yield game_sheet(game)
            except InvalidRecord as invalid:
                raise PrintRequestError(
                    gettext("Game #{number} cannot be scored: {problem}").format(
                        number=game_id, problem=invalid
                    )
                ) from None

    def describe(self, what: Mapping[str, Any], paper_name: str) -> str:
        count = len(what.get("games") or [])
        return ngettext(
            "Scoresheets of {count} game, {paper}", "Scoresheets of {count} games, {paper}", count
        ).format(count=count, paper=paper_name)

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
