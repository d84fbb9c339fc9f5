"""``manage.py scoresheet``: a printable scoresheet as PDF, as game-record.md says.

- ``scoresheet RECORD.json -o OUT.pdf``: the filled sheet of that game record;
- ``scoresheet --game GAME --players N -o OUT.pdf``: a blank sheet for pen and paper.

``-`` reads the record from standard input or writes the PDF to standard output.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from printing.errors import PrintRequestError
from printing.paper import default_paper
from printing.render import FontMissing, Sheet, normalise_paper, render
from printing.scoresheets import blank_sheet, filled_sheet
from scoring.engines.base import InvalidRecord, parse_record
from scoring.engines.registry import ENGINES, engine_for
from scoring.management.commands.score import INVALID_RECORD_STATUS, read_json_argument


class Command(BaseCommand):
    help = (
        "Write a scoresheet PDF: the filled sheet of a game record, "
        "or a blank sheet with --game and --players."
    )

    def add_arguments(self, parser):
        parser.add_argument("record", nargs="?", help="a game record file, or - for standard input")
        parser.add_argument("--game", choices=sorted(ENGINES), help="a blank sheet of this game")
        parser.add_argument("--players", type=int, help="the player count of the blank sheet")
        parser.add_argument(
            "-o", "--output", required=True, help="the PDF file to write, or - for standard output"
        )
        parser.add_argument(
            "--paper", help="A4 or LETTER (default: the TABLESCORE_PAPER_SIZE setting)"
        )
        parser.add_argument(
            "--copies", type=int, default=1, help="copies of a blank sheet (default 1)"
        )
        parser.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="an option of a blank sheet, e.g. six_player=three_pairs or target=1500 "
            "(without any, the sheet lists the options to tick)",
        )

    def handle(self, *args, **options):
        record_path = options["record"]
        game = options["game"]
        if bool(record_path) == bool(game):
            raise CommandError("give either a game record file or --game and --players")
        try:
            paper = normalise_paper(options["paper"]) if options["paper"] else default_paper()
        except ValueError as error:
            raise CommandError(str(error)) from None
        if game:
            chosen = self.options(options["option"])
            sheets = self.blank(game, options["players"], options["copies"], chosen)
        else:
            sheets = [self.filled(record_path)]
        try:
            pdf = render(sheets, paper, title=sheets[0].title)
        except FontMissing as missing:
            raise CommandError(str(missing)) from None
        self.write(options["output"], pdf)

    def options(self, pairs: list[str]) -> dict | None:
        chosen = {}
        for pair in pairs:
            name, sep, raw = pair.partition("=")
            if not sep or not name:
                raise CommandError(f"--option {pair!r}: write it as NAME=VALUE")
            try:
                chosen[name] = json.loads(raw)
            except json.JSONDecodeError:
                chosen[name] = raw  # a bare word: a choice such as three_pairs
        return chosen or None

    def blank(
        self, game: str, players: int | None, copies: int, chosen: dict[str, Any] | None
    ) -> list[Sheet]:
        if players is None:
            counts = ", ".join(str(c) for c in ENGINES[game].player_counts)
            raise CommandError(f"--players is needed with --game ({game}: {counts})")
        if not 1 <= copies <= 500:
            raise CommandError("--copies must be from 1 to 500")
        try:
            sheet = blank_sheet(game, players, chosen)
        except PrintRequestError as error:
            self.stderr.write(str(error))
            sys.exit(INVALID_RECORD_STATUS)
        return [sheet] * copies

    def filled(self, path: str) -> Sheet:
        try:
            data = read_json_argument(path)
        except CommandError as error:
            self.stderr.write(str(error))
            sys.exit(INVALID_RECORD_STATUS)
        try:
            record = parse_record(data, ENGINES)
            scored = engine_for(record.game).score(record)
        except InvalidRecord as invalid:
            for problem in invalid.problems:
                self.stderr.write(str(problem))
            sys.exit(INVALID_RECORD_STATUS)
        return filled_sheet(record, scored=scored)

    def write(self, path: str, pdf: bytes) -> None:
        if path == "-":
            sys.stdout.buffer.write(pdf)
            sys.stdout.buffer.flush()
            return
        try:
            with open(path, "wb") as handle:
                handle.write(pdf)
        except OSError as error:
            raise CommandError(f"cannot write {path}: {error.strerror}") from None
