"""``manage.py importgame FILE.json``: store a game record as a game (its rounds confirmed)."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand

from scoring.management.commands._database import ensure_embedded_database
from scoring.management.commands.score import INVALID_RECORD_STATUS, read_json_argument
from scoring.services import GameChangeError, game_import


class Command(BaseCommand):
    help = "Import a JSON game record; prints the new game's id and table link token."

    def add_arguments(self, parser):
        parser.add_argument("record", help="a game record file, or - for standard input")

    def handle(self, *args, **options):
        ensure_embedded_database()
        data = read_json_argument(options["record"])
        try:
            result = game_import(record=data)
        except GameChangeError as invalid:
            for problem in invalid.problems:
                self.stderr.write(str(problem))
            sys.exit(INVALID_RECORD_STATUS)
        game = result.game
        self.stdout.write(
            f"Imported game {game.pk} ({game.engine.title}, {game.rounds.count()} rounds)"
        )
        self.stdout.write(f"table: /t/{game.table_token}/")
